import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { ErrorCodes, MOMENT_NOTICES_PAGE } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FriendRepo } from '../src/modules/friend/repo';
import { MomentReactionRepo } from '../src/modules/moments/reactions-repo';
import { describeEachDb, startServer, TestSocket, userRow, type TestServer } from './harness';

const NAMES = ['alice', 'bob', 'carl', 'dan', 'erin', 'fay', 'gus', 'sam'] as const;
type Name = (typeof NAMES)[number];
interface Person {
  id: number;
  token: string;
}

let k = 0;
const png = (n: number) =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: { r: n % 256, g: (n >> 8) % 256, b: k } } })
    .png()
    .toBuffer();

describeEachDb('moments', (target) => {
  let server: TestServer;
  const open: TestSocket[] = [];

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await server.close();
  });

  /**
   * Alice and her friends: Bob (admitted), Carl (excluded by the post's "all but these"), Dan (in
   * her hide_from), Erin (hides alice's posts from her own feed), Fay (admitted; not Bob's friend),
   * Gus (a friend she removed), Sam (a stranger).
   */
  async function cast(): Promise<Record<Name, Person>> {
    const n = ++k;
    const { db, sessions } = server.ctx;
    const rows = await db
      .insertInto('users')
      .values(NAMES.map((p) => userRow(`${p}${n}m`)))
      .returning(['id', 'account'])
      .execute();
    const people = {} as Record<Name, Person>;
    for (const p of NAMES) {
      const id = rows.find((r) => r.account === `${p}${n}m`)!.id;
      const session = await sessions.create(id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
      people[p] = { id, token: `bearer ${session.token}` };
    }
    const friends = new FriendRepo(db);
    for (const p of ['bob', 'carl', 'dan', 'erin', 'fay', 'gus'] as const)
      await friends.befriend(people.alice.id, people[p].id, server.ctx.now());
    await call('friendDel', { id: people.gus.id }, people.alice);
    await call('momentsSetting', { hide_from: [people.dan.id] }, people.alice);
    await call('momentsSetting', { hide_them: [people.alice.id] }, people.erin);
    return people;
  }

  async function call(name: Parameters<TestServer['call']>[0], body: object, as: Person) {
    const res = await server.call(name, body, { token: as.token });
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  }

  const answer = (name: Parameters<TestServer['call']>[0], body: object, as: Person) =>
    server.call(name, body, { token: as.token, lang: 'en' });

  async function image(as: Person, n: number): Promise<number> {
    const res = await server.upload('uploadFile', { name: `p${n}.png`, bytes: await png(n) }, { token: as.token });
    expect(res.json.code, res.json.msg).toBe(0);
    return res.json.data.file_id;
  }

  /** Whether the bytes behind a `/storage/…` URL are still kept. */
  async function stored(src: string): Promise<boolean> {
    const opened = await server.ctx.storage.open(src.slice('/storage/'.length));
    opened?.stream.destroy();
    return opened !== null;
  }

  const ids = (posts: Array<{ id: number }>) => posts.map((p) => p.id);

  describe('shows a post to exactly those its visibility and hide lists admit, over every call and push', () => {
    let p: Record<Name, Person>;
    let sockets: Awaited<ReturnType<typeof connect>>;
    let post: any;
    /** The post as Bob and as Fay see it in Alice's album, with their likes and comments. */
    let asBob: any;
    let asFay: any;
    /** Who sees the post: visibility 4 (every friend but Carl); Dan is in her hide_from, Gus removed, Sam a stranger. */
    const sees: Record<Name, boolean> = {
      alice: true,
      bob: true,
      carl: false,
      dan: false,
      erin: true,
      fay: true,
      gus: false,
      sam: false,
    };
    beforeAll(async () => {
      p = await cast();
      sockets = await connect(p);
    });

    it('publishes a post with its pictures once, a retry with the same id being the same post', async () => {
      const files = [await image(p.alice, 1), await image(p.alice, 2), await image(p.alice, 3)];
      const clientId = randomUUID();
      const body = { id: clientId, content: 'hello', file_ids: files, visibility: 4, user_ids: [p.carl.id] };
      post = await call('momentsPublish', body, p.alice);
      expect(post.images).toHaveLength(3);
      expect(post.images[0]).toMatchObject({ width: 16, height: 12 });
      // A retry with the same id is the same post.
      expect((await call('momentsPublish', body, p.alice)).id).toBe(post.id);
    });

    it('pushes it to the friends whose feed shows it, and to no one else', async () => {
      // Pushed to the friends whose feed shows it: not to Erin, who skips alice's posts.
      for (const n of ['bob', 'fay'] as const)
        await sockets[n].waitFor((f) => f.type === 'moments' && f.data.type === 'post' && f.data.post_id === post.id);
      await Promise.all(NAMES.map((n) => sockets[n].roundTrip()));
      for (const n of ['alice', 'carl', 'dan', 'erin', 'gus', 'sam'] as const)
        expect(
          sockets[n].frames.some((f) => f.type === 'moments'),
          n,
        ).toBe(false);
    });

    it('shows it in feeds and albums, and takes likes and comments, only from those admitted', async () => {
      // Discover's dot: the newest poster not yet seen, until the feed is opened.
      expect(await call('momentsUnread', {}, p.bob)).toMatchObject({ count: 0, poster: p.alice.id });
      expect((await call('momentsUnread', {}, p.carl)).poster).toBe(0);
      for (const n of NAMES) {
        const feed = await call('momentsList', {}, p[n]);
        expect(ids(feed).includes(post.id), `${n} feed`).toBe(sees[n] && n !== 'erin');
        expect((await call('momentsUnread', {}, p[n])).poster, `${n} dot`).toBe(0);
        const album = await call('momentsList', { user_id: p.alice.id }, p[n]);
        expect(ids(album).includes(post.id), `${n} album`).toBe(sees[n]);
        const like = await answer('momentsLike', { id: post.id }, p[n]);
        const comment = await answer('momentsComment', { id: post.id, content: `from ${n}` }, p[n]);
        for (const res of [like, comment]) {
          if (sees[n]) expect(res.code, `${n}: ${res.msg}`).toBe(0);
          else {
            // Refused exactly as a post that does not exist.
            const missing = await answer('momentsLike', { id: 999_999_999 }, p[n]);
            expect({ code: res.code, msg: res.msg }, n).toEqual({ code: missing.code, msg: missing.msg });
            expect(res.code).toBe(ErrorCodes.MomentNotFound);
          }
        }
      }
    });

    it("shows likes and comments from the viewer's friends and the author only", async () => {
      // Likes and comments are shown from the viewer's friends and the author only.
      asBob = (await call('momentsList', { user_id: p.alice.id }, p.bob))[0];
      expect(asBob.likes.map((l: any) => l.user_id).sort()).toEqual([p.alice.id, p.bob.id].sort());
      expect(asBob.comments.map((c: any) => c.content)).toEqual(['from alice', 'from bob']);
      asFay = (await call('momentsList', { user_id: p.alice.id }, p.fay))[0];
      expect(asFay.comments.map((c: any) => c.content)).toEqual(['from alice', 'from fay']);
      const asAlice = (await call('momentsList', {}, p.alice))[0];
      expect(asAlice.comments.map((c: any) => c.content)).toEqual(['from alice', 'from bob', 'from erin', 'from fay']);
    });

    it("tells the author of her friends' likes and comments, live and in notices", async () => {
      // Alice is told of her friends' likes and comments, live and in notices.
      await sockets.alice.waitFor(
        (f) => f.type === 'moments' && f.data.type === 'comment' && f.data.user_id === p.fay.id,
      );
      const notices = await call('momentsNotices', {}, p.alice);
      expect(new Set(notices.map((x: any) => x.user.user_id))).toEqual(new Set([p.bob.id, p.erin.id, p.fay.id]));
      expect(notices[0].post_image).toMatch(/^\/storage\//);
      expect((await call('momentsUnread', {}, p.alice)).count).toBe(6);
      await call('momentsReadNotices', {}, p.alice);
      expect((await call('momentsUnread', {}, p.alice)).count).toBe(0);
    });

    it('takes a reply only to a comment the replier sees, and tells whom it answers', async () => {
      // Fay cannot reply to Bob's comment: she does not see it.
      const bobComment = asBob.comments.find((c: any) => c.content === 'from bob');
      const reply = await answer('momentsComment', { id: post.id, content: 'hey', reply_to: bobComment.id }, p.fay);
      expect(reply.code).toBe(ErrorCodes.MomentCommentNotFound);
      // Alice replies to Bob: Bob is told, Fay does not see a reply to someone she does not know.
      await call('momentsComment', { id: post.id, content: 'thanks', reply_to: bobComment.id }, p.alice);
      await sockets.bob.waitFor(
        (f) => f.type === 'moments' && f.data.type === 'comment' && f.data.user_id === p.alice.id,
      );
      const bobNotices = await call('momentsNotices', {}, p.bob);
      expect(bobNotices.map((x: any) => x.content)).toEqual(['thanks']);
      expect(
        (await call('momentsList', { user_id: p.alice.id }, p.fay))[0].comments.map((c: any) => c.content),
      ).toEqual(['from alice', 'from fay']);
    });

    it("deletes one's own comments, or any on one's post; someone else's reads as missing", async () => {
      // delComment: own comments, or any on my post; someone else's reads as missing.
      const bobComment = asBob.comments.find((c: any) => c.content === 'from bob');
      const fayComment = asFay.comments.find((c: any) => c.content === 'from fay');
      const foreign = await answer('momentsDelComment', { id: fayComment.id }, p.bob);
      const none = await answer('momentsDelComment', { id: 999_999_999 }, p.bob);
      expect({ code: foreign.code, msg: foreign.msg }).toEqual({ code: none.code, msg: none.msg });
      await call('momentsDelComment', { id: bobComment.id }, p.bob);
      await call('momentsDelComment', { id: fayComment.id }, p.alice);
      const after = (await call('momentsList', {}, p.alice))[0];
      expect(after.comments.map((c: any) => c.content)).toEqual(['from alice', 'from erin', 'thanks']);
    });

    it('cuts access both ways at once on unfriending', async () => {
      // Unfriending cuts access both ways at once.
      await call('friendDel', { id: p.alice.id }, p.bob);
      expect(ids(await call('momentsList', { user_id: p.alice.id }, p.bob))).toEqual([]);
      expect((await answer('momentsLike', { id: post.id }, p.bob)).code).toBe(ErrorCodes.MomentNotFound);
      const stillAlice = (await call('momentsList', {}, p.alice))[0];
      expect(stillAlice.likes.map((l: any) => l.user_id)).not.toContain(p.bob.id);
      expect((await call('momentsNotices', {}, p.alice)).map((x: any) => x.user.user_id)).not.toContain(p.bob.id);
    });

    it('lets only the author delete a post, which is then gone for everyone', async () => {
      // Only the author deletes a post; then it is gone for everyone.
      const notMine = await answer('momentsDel', { id: post.id }, p.fay);
      expect(notMine.code).toBe(ErrorCodes.MomentNotFound);
      await call('momentsDel', { id: post.id }, p.alice);
      expect(ids(await call('momentsList', {}, p.fay))).not.toContain(post.id);
      expect(ids(await call('momentsList', {}, p.alice))).not.toContain(post.id);
    });
  });

  /** Each person's socket, bound. */
  async function connect(p: Record<Name, Person>): Promise<Record<Name, TestSocket>> {
    return Object.fromEntries(
      await Promise.all(
        NAMES.map(async (n) => {
          const sock = await TestSocket.bound(server, p[n].id, p[n].token);
          open.push(sock);
          return [n, sock] as const;
        }),
      ),
    ) as Record<Name, TestSocket>;
  }

  it('tells those who could see a deleted post, and nobody else, so an open feed drops it', async () => {
    const p = await cast();
    const post = await call(
      'momentsPublish',
      { id: randomUUID(), content: 'soon gone', visibility: 4, user_ids: [p.carl.id] },
      p.alice,
    );
    // Fay saw it when it was posted, then she and alice stopped being friends.
    await call('friendDel', { id: p.alice.id }, p.fay);
    const sockets = await connect(p);
    await call('momentsDel', { id: post.id }, p.alice);
    const deleted = (f: any) => f.type === 'moments' && f.data.type === 'delete' && f.data.post_id === post.id;
    // Bob is admitted; Erin skips alice's posts in her feed but could open her album; alice's own
    // other devices drop it too.
    for (const n of ['alice', 'bob', 'erin'] as const) {
      const frame = await sockets[n].waitFor(deleted);
      expect(frame.data, n).toEqual({ type: 'delete', post_id: post.id, user_id: p.alice.id });
    }
    await Promise.all(NAMES.map((n) => sockets[n].roundTrip()));
    // Excluded by the post (Carl), hidden from (Dan), ex-friends (Fay, Gus), a stranger (Sam).
    for (const n of ['carl', 'dan', 'fay', 'gus', 'sam'] as const)
      expect(
        sockets[n].frames.some((f) => f.type === 'moments'),
        n,
      ).toBe(false);
  });

  it('deletes a comment only for whoever may still see the post: its author, or the comment’s own author', async () => {
    const p = await cast();
    const post = await call(
      'momentsPublish',
      { id: randomUUID(), content: 'talk', visibility: 4, user_ids: [p.carl.id] },
      p.alice,
    );
    const say = async (n: Name) => (await call('momentsComment', { id: post.id, content: `by ${n}` }, p[n])).id;
    const [bobs, bobsSecond, erins, fays, alices] = [
      await say('bob'),
      await say('bob'),
      await say('erin'),
      await say('fay'),
      await say('alice'),
    ];
    // Comments of people who could see the post once and no longer may: Carl before the post named
    // him, Dan before alice hid it from him, Gus before they stopped being friends, Sam long ago.
    const repo = new MomentReactionRepo(server.ctx.db);
    const old: Partial<Record<Name, number>> = {};
    for (const n of ['carl', 'dan', 'gus', 'sam'] as const)
      old[n] = (
        await repo.addComment({
          post_id: post.id,
          user_id: p[n].id,
          reply_to_user: 0,
          content: `old ${n}`,
          create_time: server.ctx.now(),
        })
      ).id;
    const missing = await answer('momentsDelComment', { id: 999_999_999 }, p.sam);
    const asMissing = async (id: number, n: Name) => {
      const res = await answer('momentsDelComment', { id }, p[n]);
      expect({ code: res.code, msg: res.msg }, n).toEqual({ code: missing.code, msg: missing.msg });
      expect(res.code).toBe(ErrorCodes.MomentCommentNotFound);
    };

    // Someone else's comment on someone else's post.
    await asMissing(fays, 'bob');
    // My own comment on a post I may no longer see.
    for (const n of ['carl', 'dan', 'gus', 'sam'] as const) await asMissing(old[n]!, n);
    // A stranger naming anyone's comment.
    await asMissing(bobs, 'sam');
    // My own comment while I see the post, even if I skip its author's posts in my feed.
    await call('momentsDelComment', { id: bobs }, p.bob);
    await call('momentsDelComment', { id: erins }, p.erin);
    // The post's author: any comment on it, her own too.
    await call('momentsDelComment', { id: fays }, p.alice);
    await call('momentsDelComment', { id: old.gus! }, p.alice);
    await call('momentsDelComment', { id: alices }, p.alice);
    // Bob, an ex-friend now, can no longer remove the comment he left.
    await call('friendDel', { id: p.alice.id }, p.bob);
    await asMissing(bobsSecond, 'bob');
    const left = (await call('momentsList', {}, p.alice))[0].comments.map((c: any) => c.content);
    expect(left).toEqual(['old carl', 'old dan']);
  });

  const publish = (as: Person, visibility: number, user_ids: number[] = []) =>
    call('momentsPublish', { id: randomUUID(), content: `v${visibility}`, visibility, user_ids }, as);
  const feed = async (as: Person) => ids(await call('momentsList', {}, as));
  /** The feed rows kept for `reader` of `authorId`'s posts, or of one post. */
  const rows = (where: { reader?: number; authorId?: number; postId?: number }) => {
    let q = server.ctx.db.selectFrom('moment_timeline').select('post_id');
    if (where.reader !== undefined) q = q.where('user_id', '=', where.reader);
    if (where.authorId !== undefined) q = q.where('author_id', '=', where.authorId);
    if (where.postId !== undefined) q = q.where('post_id', '=', where.postId);
    return q.execute().then((r) => r.length);
  };

  it('gives a new friend the posts their visibility admits, takes them away on unfriending, and forgets a deleted post', async () => {
    const p = await cast();
    const all = await publish(p.alice, 1);
    const butSam = await publish(p.alice, 4, [p.sam.id]);
    const forSam = await publish(p.alice, 3, [p.sam.id]);
    const diary = await publish(p.alice, 2);
    const samsOwn = await publish(p.sam, 1);
    expect(await feed(p.sam)).toEqual([samsOwn.id]);

    // Sam asks and Alice accepts: each feed gets the other's admitted posts, older ones included.
    await call('friendAdd', { user_id: p.alice.id }, p.sam);
    const asked = (await call('friendIndex', { is_mine: 0 }, p.alice)).find(
      (r: any) => r.create_user_info.user_id === p.sam.id,
    );
    await call('friendUpdate', { friend_id: asked.friend_id, status: 1 }, p.alice);
    expect(await feed(p.sam)).toEqual([samsOwn.id, forSam.id, all.id]);
    expect(await feed(p.alice)).toEqual([samsOwn.id, diary.id, forSam.id, butSam.id, all.id]);
    expect(ids(await call('momentsList', { user_id: p.alice.id }, p.sam))).toEqual([forSam.id, all.id]);

    // Unfriending takes both people's posts out of each other's feed at once.
    await call('friendDel', { id: p.sam.id }, p.alice);
    expect(await feed(p.sam)).toEqual([samsOwn.id]);
    expect(await feed(p.alice)).toEqual([diary.id, forSam.id, butSam.id, all.id]);
    expect(await rows({ reader: p.sam.id, authorId: p.alice.id })).toBe(0);
    expect(await rows({ reader: p.alice.id, authorId: p.sam.id })).toBe(0);

    // Friends again, the other way (both ask): the same posts come back, once each.
    await call('friendAdd', { user_id: p.alice.id }, p.sam);
    await call('friendAdd', { user_id: p.sam.id }, p.alice);
    expect(await feed(p.sam)).toEqual([samsOwn.id, forSam.id, all.id]);
    const later = await publish(p.alice, 4, [p.bob.id]);
    expect(await feed(p.sam)).toEqual([later.id, samsOwn.id, forSam.id, all.id]);
    expect(await feed(p.bob)).not.toContain(later.id);

    // A deleted post leaves no feed row behind.
    expect(await rows({ postId: forSam.id })).toBe(2);
    await call('momentsDel', { id: forSam.id }, p.alice);
    expect(await rows({ postId: forSam.id })).toBe(0);
    expect(await feed(p.sam)).toEqual([later.id, samsOwn.id, all.id]);

    // The feed asks the friend rows too: a friendship ended however it ends hides the posts.
    await new FriendRepo(server.ctx.db).unfriend(p.alice.id, p.sam.id);
    expect(await rows({ reader: p.sam.id, authorId: p.alice.id })).toBe(2);
    expect(await feed(p.sam)).toEqual([samsOwn.id]);
    expect(await feed(p.alice)).not.toContain(samsOwn.id);
  });

  it('applies hide lists and the range to posts already in a feed, as soon as they change', async () => {
    const p = await cast();
    const old = await publish(p.alice, 1);
    server.clock.advance(4 * 86_400_000);
    const fresh = await publish(p.alice, 1);
    const bobs = await publish(p.bob, 1);
    expect(await feed(p.bob)).toEqual([bobs.id, fresh.id, old.id]);

    await call('momentsSetting', { range: 3 }, p.alice);
    expect(await feed(p.bob)).toEqual([bobs.id, fresh.id]);
    // The author always sees all of her own posts.
    expect(await feed(p.alice)).toEqual([bobs.id, fresh.id, old.id]);
    await call('momentsSetting', { range: 0 }, p.alice);
    expect(await feed(p.bob)).toEqual([bobs.id, fresh.id, old.id]);

    await call('momentsSetting', { hide_from: [p.dan.id, p.bob.id] }, p.alice);
    expect(await feed(p.bob)).toEqual([bobs.id]);
    expect(await feed(p.alice)).toEqual([bobs.id, fresh.id, old.id]);
    await call('momentsSetting', { hide_from: [p.dan.id] }, p.alice);
    expect(await feed(p.bob)).toEqual([bobs.id, fresh.id, old.id]);

    await call('momentsSetting', { hide_them: [p.alice.id] }, p.bob);
    expect(await feed(p.bob)).toEqual([bobs.id]);
    await call('momentsSetting', { hide_them: [] }, p.bob);
    expect(await feed(p.bob)).toEqual([bobs.id, fresh.id, old.id]);
    // Paging walks the same feed.
    expect(ids(await call('momentsList', { last_id: fresh.id }, p.bob))).toEqual([old.id]);
  });

  it('keeps "only me" and "only these" posts to whom they name', async () => {
    const p = await cast();
    const own = await call('momentsPublish', { id: randomUUID(), content: 'diary', visibility: 2 }, p.alice);
    const only = await call(
      'momentsPublish',
      { id: randomUUID(), content: 'for fay', visibility: 3, user_ids: [p.fay.id, p.sam.id] },
      p.alice,
    );
    expect(ids(await call('momentsList', {}, p.alice))).toEqual([only.id, own.id]);
    expect(ids(await call('momentsList', {}, p.fay))).toEqual([only.id]);
    expect(ids(await call('momentsList', {}, p.bob))).toEqual([]);
    // Named but not a friend: still nothing.
    expect(ids(await call('momentsList', { user_id: p.alice.id }, p.sam))).toEqual([]);
    // Paging by last_id.
    expect(ids(await call('momentsList', { last_id: only.id }, p.alice))).toEqual([own.id]);
  });

  it('pages notices by MOMENT_NOTICES_PAGE, newest first, each once', async () => {
    const p = await cast();
    const post = await call('momentsPublish', { id: randomUUID(), content: 'ask me', visibility: 1 }, p.alice);
    const total = MOMENT_NOTICES_PAGE + 5;
    for (let i = 0; i < total; i++) await call('momentsComment', { id: post.id, content: `c${i}` }, p.bob);
    const first = await call('momentsNotices', {}, p.alice);
    const second = await call('momentsNotices', { page: 2 }, p.alice);
    expect(first).toHaveLength(MOMENT_NOTICES_PAGE);
    expect(second).toHaveLength(5);
    expect([...first, ...second].map((n: any) => n.content)).toEqual(
      Array.from({ length: total }, (_, i) => `c${total - 1 - i}`),
    );
    expect(await call('momentsNotices', { page: 3 }, p.alice)).toEqual([]);
  });

  it('refuses ten images, a file that is not an image, someone else’s file and an empty post', async () => {
    const p = await cast();
    const ten = await answer(
      'momentsPublish',
      { id: randomUUID(), content: 'x', file_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
      p.alice,
    );
    expect(ten.code).toBe(ErrorCodes.Validation);
    const doc = await server.upload(
      'uploadFile',
      { name: 'a.txt', bytes: Buffer.from('just some text\n') },
      { token: p.alice.token },
    );
    expect(doc.json.code, doc.json.msg).toBe(0);
    const notImage = await answer('momentsPublish', { id: randomUUID(), file_ids: [doc.json.data.file_id] }, p.alice);
    expect(notImage.code).toBe(ErrorCodes.MomentNotImage);
    const bobs = await image(p.bob, 7);
    const foreign = await answer('momentsPublish', { id: randomUUID(), file_ids: [bobs] }, p.alice);
    expect(foreign.code).toBe(ErrorCodes.NotFound);
    const empty = await answer('momentsPublish', { id: randomUUID(), content: '  ' }, p.alice);
    expect(empty.code).toBe(ErrorCodes.MomentEmpty);
  });

  it('stops serving a deleted post’s images unless something else uses them, and sets a cover', async () => {
    const p = await cast();
    const a = await image(p.alice, 11);
    const b = await image(p.alice, 12);
    const post = await call('momentsPublish', { id: randomUUID(), file_ids: [a, b] }, p.alice);
    await call('momentsSetCover', { file_id: b }, p.alice);
    const [srcA, srcB] = post.images.map((i: any) => i.src);
    expect(await stored(srcA)).toBe(true);
    await call('momentsDel', { id: post.id }, p.alice);
    expect(await stored(srcA)).toBe(false);
    expect(await stored(srcB)).toBe(true);
    expect((await call('momentsSetting', {}, p.alice)).cover).toBe(srcB);
  });

  it('shows a person’s cover on their album to their friends only, and never their lists', async () => {
    const p = await cast();
    const file = await image(p.alice, 13);
    const { cover } = await call('momentsSetCover', { file_id: file }, p.alice);
    expect(cover).not.toBe('');
    const mine = await call('momentsSetting', { user_id: p.alice.id }, p.alice);
    expect(mine).toMatchObject({ cover, hide_from: [p.dan.id] });
    const theirs = { hide_from: [], hide_them: [], range: 0 };
    expect(await call('momentsSetting', { user_id: p.alice.id }, p.bob)).toEqual({ ...theirs, cover });
    // Dan is in her hide_from and still her friend: the cover is no post, only her posts are kept from him.
    expect(await call('momentsSetting', { user_id: p.alice.id }, p.dan)).toEqual({ ...theirs, cover });
    for (const n of ['gus', 'sam'] as const)
      expect(await call('momentsSetting', { user_id: p.alice.id }, p[n]), n).toEqual({ ...theirs, cover: '' });
    // A stranger's id that does not exist reads like one that does.
    expect(await call('momentsSetting', { user_id: 2 ** 31 - 1 }, p.sam)).toEqual({ ...theirs, cover: '' });
    // Someone else's settings cannot be written.
    const write = await answer('momentsSetting', { user_id: p.alice.id, hide_from: [] }, p.bob);
    expect(write.code).toBe(ErrorCodes.Validation);
    expect((await call('momentsSetting', {}, p.alice)).hide_from).toEqual([p.dan.id]);
  });
});
