import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { ErrorCodes, type Favorite, type RouteName } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import { describeEachDb, serverForSuite, TestSocket, userRow, type TestServer } from './harness';

interface Person {
  id: number;
  token: string;
}

let k = 0;
const png = (n: number) =>
  sharp({ create: { width: 20, height: 10, channels: 3, background: { r: n % 256, g: (n >> 8) % 256, b: 77 } } })
    .png()
    .toBuffer();

describeEachDb('favourites', (target) => {
  let server!: TestServer;
  serverForSuite(target, (s) => (server = s), {
    'chatInfo.redoTime': '86400',
    'chatInfo.dbDelMsg': '1',
    'chatInfo.sendInterval': '0',
  });

  /** Alice and Bob, friends; Carl, a stranger to both. */
  async function cast(): Promise<{ alice: Person; bob: Person; carl: Person }> {
    const n = ++k;
    const { db, sessions } = server.ctx;
    const people = {} as Record<'alice' | 'bob' | 'carl', Person>;
    for (const name of ['alice', 'bob', 'carl'] as const) {
      const row = await db
        .insertInto('users')
        .values(userRow(`${name}${n}fav`))
        .returning('id')
        .executeTakeFirstOrThrow();
      const session = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
      people[name] = { id: row.id, token: `bearer ${session.token}` };
    }
    await call('friendAdd', { user_id: people.bob.id }, people.alice);
    await call('friendAdd', { user_id: people.alice.id }, people.bob);
    return people;
  }

  async function call(name: RouteName, body: object, as: Person): Promise<any> {
    const res = await server.call(name, body, { token: as.token });
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  }

  const answer = (name: RouteName, body: object, as: Person) =>
    server.call(name, body, { token: as.token, lang: 'en' });

  const text = (from: Person, to: Person, content: string) =>
    call('sendMessage', { id: randomUUID(), toContactId: to.id, type: 'text', content }, from);

  async function image(from: Person, to: Person): Promise<any> {
    const up = await server.upload('uploadFile', { name: `f${++k}.png`, bytes: await png(k) }, { token: from.token });
    expect(up.json.code, up.json.msg).toBe(0);
    const file = up.json.data;
    return call(
      'sendMessage',
      { id: randomUUID(), toContactId: to.id, type: 'image', content: file.src, file_id: file.file_id },
      from,
    );
  }

  /** Whether the bytes behind a `/storage/…` URL are still kept. */
  async function stored(src: string): Promise<boolean> {
    const opened = await server.ctx.storage.open(src.slice('/storage/'.length));
    opened?.stream.destroy();
    return opened !== null;
  }

  const list = async (as: Person, body: object = {}): Promise<Favorite[]> => call('favoriteList', body, as);

  it('keeps a snapshot that a withdrawal and a deletion of the original leave as it was', async () => {
    const { alice, bob } = await cast();
    const sent = await text(bob, alice, '明天下午三点开会');
    const [saved] = (await call('favoriteAdd', { msg_ids: [sent.msg_id] }, alice)) as Favorite[];
    expect(saved).toMatchObject({ kind: 'message', type: 'text', source_msg_id: sent.msg_id });
    expect(saved!.body).toMatchObject({
      type: 'text',
      content: '明天下午三点开会',
      sender: { id: bob.id },
      sendTime: sent.sendTime,
    });
    await call('undoMessage', { id: sent.msg_id }, bob);
    const [after] = await list(alice);
    expect(after!.id).toBe(saved!.id);
    expect(after!.body.content).toBe('明天下午三点开会');
    // The withdrawn message can no longer be saved: it is an event line now.
    expect((await answer('favoriteAdd', { msg_ids: [sent.msg_id] }, bob)).code).toBe(ErrorCodes.NotAllowedTarget);
  });

  it('saves once however often it is asked, and answers the saved one', async () => {
    const { alice, bob } = await cast();
    const sent = await text(alice, bob, 'once');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call('favoriteAdd', { msg_ids: [sent.msg_id, sent.msg_id] }, alice)),
    );
    const ids = new Set(answers.flat().map((f: Favorite) => f.id));
    expect(ids.size).toBe(1);
    expect(await list(alice)).toHaveLength(1);
  });

  it("keeps a file's bytes while a favourite holds it, and lets them go after the favourite and the message", async () => {
    const { alice, bob } = await cast();
    const sent = await image(bob, alice);
    const [fav] = (await call('favoriteAdd', { msg_ids: [sent.msg_id] }, alice)) as Favorite[];
    expect(fav!.type).toBe('image');
    expect(await stored(sent.content)).toBe(true);
    await call('undoMessage', { id: sent.msg_id }, bob);
    expect(await stored(sent.content)).toBe(true);
    expect((await list(alice, { type: 'media' })).map((f) => f.id)).toEqual([fav!.id]);
    await call('favoriteDel', { ids: [fav!.id] }, alice);
    expect(await stored(sent.content)).toBe(false);
    expect(await list(alice)).toEqual([]);
  });

  it('lets a file go only when the last of message and favourite goes, the favourite first', async () => {
    const { alice, bob } = await cast();
    const sent = await image(bob, alice);
    const [fav] = (await call('favoriteAdd', { msg_ids: [sent.msg_id] }, alice)) as Favorite[];
    await call('favoriteDel', { ids: [fav!.id] }, alice);
    expect(await stored(sent.content)).toBe(true);
    await call('delMessage', { id: sent.msg_id }, bob);
    expect(await stored(sent.content)).toBe(false);
  });

  it('is private to its owner on every route', async () => {
    const { alice, bob, carl } = await cast();
    const sent = await text(alice, bob, 'mine');
    const [fav] = (await call('favoriteAdd', { msg_ids: [sent.msg_id] }, alice)) as Favorite[];
    expect(await list(carl)).toEqual([]);
    expect(await list(bob)).toEqual([]);
    // Another user's favourite is a missing one.
    const missing = await answer('favoriteSend', { id: 99_999_999, user_ids: [alice.id] }, bob);
    const theirs = await answer('favoriteSend', { id: fav!.id, user_ids: [alice.id] }, bob);
    expect(theirs.code).toBe(ErrorCodes.FavoriteNotFound);
    expect([theirs.code, theirs.msg]).toEqual([missing.code, missing.msg]);
    await call('favoriteDel', { ids: [fav!.id] }, bob);
    expect((await list(alice)).map((f) => f.id)).toEqual([fav!.id]);
    // A message one cannot see is not saved, nor are the others asked with it.
    const other = await text(bob, alice, 'theirs');
    const refused = await answer('favoriteAdd', { msg_ids: [other.msg_id, sent.msg_id] }, carl);
    expect(refused.code).toBe(ErrorCodes.MessageNotFound);
    expect(await list(carl)).toEqual([]);
  });

  it('finds by words as message search does: Chinese without spaces, case, every term, with highlights', async () => {
    const { alice, bob } = await cast();
    const a = await text(bob, alice, '我想喝咖啡，你呢');
    const b = await text(bob, alice, 'Meet at the CAFÉ at https://example.com/map');
    const c = await text(alice, bob, '喝茶还是咖啡馆');
    await call('favoriteAdd', { msg_ids: [a.msg_id, b.msg_id, c.msg_id] }, alice);
    const coffee = await list(alice, { keywords: '咖啡' });
    expect(coffee.map((f) => f.source_msg_id)).toEqual([c.msg_id, a.msg_id]);
    expect(coffee[1]!.highlight).toEqual([[3, 5]]);
    expect((await list(alice, { keywords: '喝咖啡' })).map((f) => f.source_msg_id)).toEqual([a.msg_id]);
    expect((await list(alice, { keywords: '咖啡 茶' })).map((f) => f.source_msg_id)).toEqual([c.msg_id]);
    const cafe = await list(alice, { keywords: 'caf' });
    expect(cafe.map((f) => f.source_msg_id)).toEqual([b.msg_id]);
    expect(cafe[0]!.highlight).toEqual([[12, 15]]);
    expect((await list(alice, { keywords: 'cafe' })).map((f) => f.source_msg_id)).toEqual([b.msg_id]);
    expect(await list(alice, { keywords: 'afe' })).toEqual([]);
    expect((await list(alice, { type: 'link' })).map((f) => f.source_msg_id)).toEqual([b.msg_id]);
    expect(await list(alice, { type: 'file' })).toEqual([]);
    const paged = await server.call('favoriteList', { keywords: '咖啡', limit: 1, page: 2 }, { token: alice.token });
    expect(paged.count).toBe(2);
    expect(paged.data.map((f: Favorite) => f.source_msg_id)).toEqual([a.msg_id]);
  });

  it('saves a merged record as it is, found by its title and under its kind, and sends it on', async () => {
    const { alice, bob } = await cast();
    const one = await text(bob, alice, '第一条');
    const two = await text(alice, bob, '第二条');
    await call('forwardMessages', { msg_ids: [one.msg_id, two.msg_id], user_ids: [-1], mode: 'merge' }, alice);
    const mine = await call('getMessageList', { toContactId: -1, limit: 5 }, alice);
    const record = mine.at(-1);
    expect(record.type).toBe('record');
    const [fav] = (await call('favoriteAdd', { msg_ids: [record.msg_id] }, alice)) as Favorite[];
    expect(fav).toMatchObject({ type: 'record', body: { type: 'record', extends: { title: record.extends.title } } });
    expect((await list(alice, { type: 'record' })).map((f) => f.id)).toEqual([fav!.id]);
    expect((await list(alice, { keywords: 'HISTORY' })).map((f) => f.id)).toEqual([fav!.id]);
    expect(await list(alice, { type: 'text' })).toEqual([]);
    await call('favoriteSend', { id: fav!.id, user_ids: [bob.id] }, alice);
    const got = await call('getMessageList', { toContactId: alice.id, limit: 5 }, bob);
    expect(got.at(-1)).toMatchObject({ type: 'record', extends: { record_id: record.extends.record_id } });
  });

  it('saves a moments post one may see, pictures kept after the post is deleted, and refuses one one may not see', async () => {
    const { alice, bob, carl } = await cast();
    const up = await server.upload('uploadFile', { name: `m${++k}.png`, bytes: await png(k) }, { token: alice.token });
    const picture = up.json.data;
    const post = await call(
      'momentsPublish',
      { id: randomUUID(), content: '周末去爬山', file_ids: [picture.file_id] },
      alice,
    );
    const hidden = await call('momentsPublish', { id: randomUUID(), content: '只给自己', visibility: 2 }, alice);
    expect((await answer('favoriteAdd', { post_id: hidden.id }, bob)).code).toBe(ErrorCodes.MomentNotFound);
    expect((await answer('favoriteAdd', { post_id: post.id }, carl)).code).toBe(ErrorCodes.MomentNotFound);
    const [fav] = (await call('favoriteAdd', { post_id: post.id }, bob)) as Favorite[];
    expect(fav).toMatchObject({ kind: 'moment', type: 'moment', source_post_id: post.id });
    expect(fav!.body.content).toBe('周末去爬山');
    expect((fav!.body.extends.images as Array<{ src: string }>)[0]!.src).toBe(picture.src);
    await call('momentsDel', { id: post.id }, alice);
    expect(await stored(picture.src)).toBe(true);
    expect((await list(bob, { type: 'moment', keywords: '爬山' })).map((f) => f.id)).toEqual([fav!.id]);

    // Sent to a chat: the post's text, then its picture.
    await call('favoriteSend', { id: fav!.id, user_ids: [alice.id] }, bob);
    const history = await call('getMessageList', { toContactId: bob.id, limit: 10 }, alice);
    expect(history.slice(-2).map((m: any) => [m.type, m.content])).toEqual([
      ['text', '周末去爬山'],
      ['image', picture.src],
    ]);
    await call('favoriteDel', { ids: [fav!.id] }, bob);
    // The message just sent keeps the picture now.
    expect(await stored(picture.src)).toBe(true);
  });

  it('sends a favourite to chats by the rules of sendMessage, and tells my other devices of adds and deletions', async () => {
    const { alice, bob, carl } = await cast();
    const sent = await text(bob, alice, '转给你看看');
    const socket = await TestSocket.bound(server, alice.id, alice.token.slice('bearer '.length));
    try {
      const [fav] = (await call('favoriteAdd', { msg_ids: [sent.msg_id] }, alice)) as Favorite[];
      const added = await socket.waitFor((f) => f.type === 'favorite');
      expect(added.data).toEqual({ action: 'add', ids: [fav!.id] });
      // Not a friend: refused as sendMessage refuses it, and nothing is sent.
      const refused = await answer('favoriteSend', { id: fav!.id, user_ids: [carl.id] }, alice);
      expect(refused.code).not.toBe(0);
      await call('favoriteSend', { id: fav!.id, user_ids: [bob.id] }, alice);
      const history = await call('getMessageList', { toContactId: alice.id, limit: 5 }, bob);
      expect(history.at(-1)).toMatchObject({ type: 'text', content: '转给你看看', fromUser: { id: alice.id } });
      await call('favoriteDel', { ids: [fav!.id] }, alice);
      const removed = await socket.waitFor((f) => f.type === 'favorite' && f.data.action === 'del');
      expect(removed.data.ids).toEqual([fav!.id]);
    } finally {
      socket.close();
    }
  });
});
