import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { ErrorCodes, type BlockedUser } from '@sparrow/protocol';
import { afterEach, expect, it } from 'vitest';
import {
  callAs,
  describeEachDb,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

let k = 0;

describeEachDb('block lists (黑名单)', (target) => {
  let server!: TestServer;
  const { answer, ok, send } = serverForSuite(target, (s) => (server = s), {
    'sysInfo.runMode': '2',
    'chatInfo.simpleChat': '1',
    'chatInfo.webrtc': '1',
    'chatInfo.sendInterval': '0',
  });
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  const person = async (name: string): Promise<TestUser> => {
    const u = await signUp(server, `${name}${++k}blk`, 'secret123', `${name}${k}`);
    return { token: u.token, userId: u.userId, lang: 'en' };
  };

  /** Alice; Bob, her friend whom she blocks; Carl, her friend; Dave, a stranger to her. */
  async function cast(): Promise<Record<'alice' | 'bob' | 'carl' | 'dave', TestUser>> {
    const [alice, bob, carl, dave] = await Promise.all(['alice', 'bob', 'carl', 'dave'].map(person));
    await makeFriends(server, alice!, bob!);
    await makeFriends(server, alice!, carl!);
    await makeFriends(server, bob!, carl!);
    return { alice: alice!, bob: bob!, carl: carl!, dave: dave! };
  }

  const texts = async (reader: TestUser, chat: TestUser | string): Promise<string[]> =>
    (
      (await ok('getMessageList', { toContactId: typeof chat === 'string' ? chat : chat.userId }, reader)) as Array<{
        content: string;
      }>
    ).map((m) => m.content);

  const contactOf = async (u: TestUser, id: number | string) =>
    ((await ok('getContacts', {}, u)) as Array<{ id: number | string; is_at: number }>).find(
      (c) => String(c.id) === String(id),
    );

  const bound = async (u: TestUser) => {
    const s = await TestSocket.bound(server, u.userId, u.token);
    sockets.push(s);
    return s;
  };

  it('blocks and unblocks idempotently, shows it in the profile and the list, and tells only my other devices', async () => {
    const { alice, bob, carl } = await cast();
    await ok(
      'friendSetNickname',
      { friend_id: (await ok('getUserInfo', { user_id: bob.userId }, alice)).friend.friend_id, nickname: '小鲍' },
      alice,
    );
    const [aliceOther, bobSocket] = await Promise.all([bound(alice), bound(bob)]);
    expect((await ok('getUserInfo', { user_id: bob.userId }, alice)).blocked).toBe(0);

    await ok('blockAdd', { user_id: bob.userId }, alice);
    await ok('blockAdd', { user_id: bob.userId }, alice);
    await aliceOther.waitFor((f) => f.type === 'block' && f.data.user_id === bob.userId && f.data.blocked === 1);
    expect(aliceOther.frames.filter((f) => f.type === 'block')).toHaveLength(1);
    const profile = await ok('getUserInfo', { user_id: bob.userId }, alice);
    expect(profile).toMatchObject({ blocked: 1, is_friend: 1 });
    // Bob's own view of Alice says nothing of it.
    expect((await ok('getUserInfo', { user_id: alice.userId }, bob)).blocked).toBe(0);

    await ok('blockAdd', { user_id: carl.userId }, alice);
    const res = await answer('blockList', { page: 1, limit: 1 }, alice);
    expect(res.code).toBe(0);
    expect(res.count).toBe(2);
    const all = (await ok('blockList', {}, alice)) as BlockedUser[];
    expect(new Set(all.map((u) => u.user_id))).toEqual(new Set([bob.userId, carl.userId]));
    expect(all.find((u) => u.user_id === bob.userId)).toMatchObject({
      displayName: '小鲍',
      realname: expect.stringMatching(/^bob/),
    });
    expect(all.every((u) => u.avatar && u.create_time > 0)).toBe(true);
    expect(await ok('blockList', {}, bob)).toEqual([]);

    await ok('blockDel', { user_id: bob.userId }, alice);
    await ok('blockDel', { user_id: bob.userId }, alice);
    await aliceOther.waitFor((f) => f.type === 'block' && f.data.user_id === bob.userId && f.data.blocked === 0);
    expect(((await ok('blockList', {}, alice)) as BlockedUser[]).map((u) => u.user_id)).toEqual([carl.userId]);
    expect((await ok('getUserInfo', { user_id: bob.userId }, alice)).blocked).toBe(0);
    await bobSocket.roundTrip();
    expect(bobSocket.frames.some((f) => f.type === 'block')).toBe(false);
  });

  it('refuses to block myself or someone who does not exist', async () => {
    const { alice } = await cast();
    const self = await answer('blockAdd', { user_id: alice.userId }, alice);
    expect(self.code).toBe(ErrorCodes.BlockSelf);
    const missing = await answer('blockAdd', { user_id: 987_654_321 }, alice);
    expect(missing.code).toBe(ErrorCodes.UserNotFound);
    // Unblocking someone never blocked is harmless.
    await ok('blockDel', { user_id: 987_654_321 }, alice);
  });

  it("refuses a blocked friend's private messages as a non-friend's, keeps the friendship, and unblocking restores them", async () => {
    const { alice, bob, dave } = await cast();
    const stranger = await send(dave, alice, 'hello');
    expect(stranger.code).toBe(ErrorCodes.NotFriendChat);
    const aliceSocket = await bound(alice);
    await ok('blockAdd', { user_id: bob.userId }, alice);

    const refused = await send(bob, alice, '在吗');
    expect({ code: refused.code, msg: refused.msg }).toEqual({ code: stranger.code, msg: stranger.msg });
    expect(await texts(alice, bob)).not.toContain('在吗');
    // A pat and a call are refused alike.
    const pat = await answer('patUser', { toContactId: alice.userId, user_id: alice.userId }, bob);
    expect(pat.code).toBe(ErrorCodes.NotFriendChat);
    const strangerCall = await answer(
      'sendToMsg',
      { id: randomUUID(), toContactId: alice.userId, type: 0, event: 'calling' },
      dave,
    );
    const call = await answer(
      'sendToMsg',
      { id: randomUUID(), toContactId: alice.userId, type: 0, event: 'calling' },
      bob,
    );
    expect(strangerCall.code).toBe(ErrorCodes.NotFriends);
    expect({ code: call.code, msg: call.msg }).toEqual({ code: strangerCall.code, msg: strangerCall.msg });

    // Alice may still write to Bob; the friendship stays on both sides.
    expect((await send(alice, bob, '我先说')).code).toBe(0);
    expect((await ok('getUserInfo', { user_id: alice.userId }, bob)).is_friend).toBe(1);
    expect((await ok('getUserInfo', { user_id: bob.userId }, alice)).is_friend).toBe(1);

    await aliceSocket.roundTrip();
    expect(aliceSocket.frames.some((f) => f.type === 'chatMessage' && f.data.content === '在吗')).toBe(false);

    await ok('blockDel', { user_id: bob.userId }, alice);
    expect((await send(bob, alice, '又在吗')).code).toBe(0);
    expect(await texts(alice, bob)).toContain('又在吗');
  });

  it('refuses a blocked sender in runMode 1 too, where strangers may write', async () => {
    const { alice, bob, dave } = await cast();
    await server.ctx.config.set('sysInfo.runMode', '1');
    await ok('blockAdd', { user_id: bob.userId }, alice);
    expect((await send(dave, alice, 'hi from dave')).code).toBe(0);
    const refused = await send(bob, alice, 'hi from bob');
    expect(refused.code).toBe(ErrorCodes.NotFriendChat);
    const call = await answer(
      'sendToMsg',
      { id: randomUUID(), toContactId: alice.userId, type: 0, event: 'calling' },
      bob,
    );
    expect(call.code).toBe(ErrorCodes.NotFriends);
    await ok('blockDel', { user_id: bob.userId }, alice);
    expect((await send(bob, alice, 'hi again')).code).toBe(0);
  });

  it("answers a blocked person's friend request as sent, and it never reaches me", async () => {
    const { alice, dave } = await cast();
    const aliceSocket = await bound(alice);
    await ok('blockAdd', { user_id: dave.userId }, alice);
    const asked = await answer('friendAdd', { user_id: alice.userId, remark: 'hi' }, dave);
    expect(asked.code).toBe(0);
    expect(asked.msg).toBe((await answer('friendAdd', { user_id: (await person('erin')).userId }, dave)).msg);
    expect(await ok('friendIndex', {}, alice)).toEqual([]);
    await aliceSocket.roundTrip();
    expect(aliceSocket.frames.some((f) => JSON.stringify(f).includes('friendRequest'))).toBe(false);

    await ok('blockDel', { user_id: dave.userId }, alice);
    await ok('friendAdd', { user_id: alice.userId, remark: 'again' }, dave);
    const requests = (await ok('friendIndex', {}, alice)) as Array<{ create_user_info: { user_id: number } }>;
    expect(requests.map((r) => r.create_user_info.user_id)).toEqual([dave.userId]);
  });

  it('hides moments both ways: feed, album, a post by id, likes and comments', async () => {
    const { alice, bob, carl } = await cast();
    const post = async (u: TestUser, content: string) =>
      (await ok('momentsPublish', { id: randomUUID(), content }, u)) as { id: number };
    const alicePost = await post(alice, 'alice says');
    const bobPost = await post(bob, 'bob says');
    const carlPost = await post(carl, 'carl says');
    await ok('momentsLike', { id: carlPost.id }, bob);
    await ok('momentsComment', { id: carlPost.id, content: 'bob comments' }, bob);
    const feed = async (u: TestUser, body: object = {}) =>
      (await ok('momentsList', body, u)) as Array<{
        id: number;
        likes: Array<{ user_id: number }>;
        comments: Array<{ content: string }>;
      }>;
    expect((await feed(bob)).map((p) => p.id)).toContain(alicePost.id);

    await ok('blockAdd', { user_id: bob.userId }, alice);
    const bobFeed = await feed(bob);
    expect(bobFeed.map((p) => p.id)).not.toContain(alicePost.id);
    expect(await feed(bob, { user_id: alice.userId })).toEqual([]);
    expect((await answer('momentsLike', { id: alicePost.id }, bob)).code).toBe(ErrorCodes.MomentNotFound);
    expect((await answer('momentsComment', { id: alicePost.id, content: 'x' }, bob)).code).toBe(
      ErrorCodes.MomentNotFound,
    );

    const aliceFeed = await feed(alice);
    expect(aliceFeed.map((p) => p.id)).not.toContain(bobPost.id);
    expect(await feed(alice, { user_id: bob.userId })).toEqual([]);
    expect((await answer('momentsLike', { id: bobPost.id }, alice)).code).toBe(ErrorCodes.MomentNotFound);
    const onCarls = aliceFeed.find((p) => p.id === carlPost.id)!;
    expect(onCarls.likes.map((l) => l.user_id)).not.toContain(bob.userId);
    expect(onCarls.comments.map((c) => c.content)).not.toContain('bob comments');
    // Carl, whom neither blocked, still sees both.
    const carlSees = (await feed(carl)).find((p) => p.id === carlPost.id)!;
    expect(carlSees.likes.map((l) => l.user_id)).toContain(bob.userId);

    await ok('blockDel', { user_id: bob.userId }, alice);
    expect((await feed(bob)).map((p) => p.id)).toContain(alicePost.id);
    expect((await feed(alice)).map((p) => p.id)).toContain(bobPost.id);
    await ok('momentsLike', { id: alicePost.id }, bob);
  });

  it('keeps group messages for both, but a blocked member’s @ of me mentions no one', async () => {
    const { alice, bob, carl } = await cast();
    const group = await makeGroup(server, alice, [bob, carl]);
    await ok('blockAdd', { user_id: bob.userId }, alice);

    const fromBob = await send(bob, group, '@alice 看这里', { at: [alice.userId, carl.userId] });
    expect(fromBob.code, fromBob.msg).toBe(0);
    expect(fromBob.data.at).toEqual([carl.userId]);
    expect(await texts(alice, group)).toContain('@alice 看这里');
    expect((await contactOf(alice, group))?.is_at).toBe(0);
    expect((await contactOf(carl, group))?.is_at).toBe(1);
    // Alice's messages reach Bob too.
    expect((await send(alice, group, '大家好')).code).toBe(0);
    expect(await texts(bob, group)).toContain('大家好');

    // Someone else's mention of Alice still does.
    expect((await send(carl, group, '@alice', { at: [alice.userId] })).code).toBe(0);
    expect((await contactOf(alice, group))?.is_at).toBe(1);
  });

  it('refuses a pat in a shared group by someone its target blocked, as a pat of someone not there', async () => {
    const { alice, bob, carl } = await cast();
    const group = await makeGroup(server, alice, [bob, carl]);
    await ok('blockAdd', { user_id: bob.userId }, alice);
    const pat = (from: TestUser, whom: TestUser) =>
      answer('patUser', { toContactId: group, is_group: 1, user_id: whom.userId }, from);
    const blocked = await pat(bob, alice);
    const absent = await answer('patUser', { toContactId: group, is_group: 1, user_id: 987_654_321 }, bob);
    expect(blocked.code).toBe(ErrorCodes.UserNotFound);
    expect({ code: blocked.code, msg: blocked.msg }).toEqual({ code: absent.code, msg: absent.msg });
    // Others still pat her, and Bob still pats others; she may pat him.
    expect((await pat(carl, alice)).code).toBe(0);
    expect((await pat(bob, carl)).code).toBe(0);
    expect((await pat(alice, bob)).code).toBe(0);
  });

  it("keeps a blocker's moments cover from the one blocked (either way) and counts no notice of theirs as unread", async () => {
    const { alice, bob } = await cast();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: k % 256, b: 99 } } })
      .png()
      .toBuffer();
    const up = await server.upload('uploadFile', { name: 'cover.png', bytes: png }, callAs(alice));
    expect(up.json.code, up.json.msg).toBe(0);
    const { cover } = await ok('momentsSetCover', { file_id: up.json.data.file_id }, alice);
    expect(cover).not.toBe('');
    const coverFor = async (u: TestUser) => (await ok('momentsSetting', { user_id: alice.userId }, u)).cover;
    expect(await coverFor(bob)).toBe(cover);
    const post = await ok('momentsPublish', { id: randomUUID(), content: 'alice posts' }, alice);
    await ok('momentsReadNotices', {}, alice);
    await ok('momentsLike', { id: post.id }, bob);
    await ok('momentsComment', { id: post.id, content: 'bob comments' }, bob);
    expect((await ok('momentsUnread', {}, alice)).count).toBe(2);

    await ok('blockAdd', { user_id: bob.userId }, alice);
    expect(await coverFor(bob)).toBe('');
    expect(await ok('momentsNotices', {}, alice)).toEqual([]);
    expect((await ok('momentsUnread', {}, alice)).count).toBe(0);
    await ok('blockDel', { user_id: bob.userId }, alice);
    expect(await coverFor(bob)).toBe(cover);
    expect((await ok('momentsUnread', {}, alice)).count).toBe(2);
    // Bob blocking Alice hides her cover from him too.
    await ok('blockAdd', { user_id: alice.userId }, bob);
    expect(await coverFor(bob)).toBe('');
  });
});
