import { expect, it } from 'vitest';
import { BROADCAST_BATCH_MS } from '../src/realtime/hub';
import { describeEachDb, serverForSuite, signUp, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/** The user rows of a getContacts answer (groups and pseudo-contacts follow them). */
const userRows = (res: { data: any[] }) => res.data.filter((c) => c.is_group === 0);

describeEachDb('friends and contacts', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = (name: string, realname?: string) =>
    signUp(server, `${name}${++n}x`, 'secret123', realname ?? `${name}${n}`);

  serverForSuite(target, (s) => (server = s), { 'sysInfo.runMode': '2' });

  /** Two new friends; `watcher` (a's socket) has seen b come online on `first` (b's socket). */
  async function friendComesOnline(nameA: string, nameB: string) {
    const a = await fresh(nameA);
    const b = await fresh(nameB);
    await befriend(a, b);
    const watcher = await TestSocket.bound(server, a.userId, a.token);
    const first = await TestSocket.bound(server, b.userId, b.token);
    await watcher.waitFor((f) => f.type === 'isOnline' && f.data.id === b.userId && f.data.is_online === 1);
    return { a, b, watcher, first };
  }

  async function befriend(a: User, b: User) {
    expect((await server.call('friendAdd', { user_id: b.userId, remark: 'hi' }, { token: a.token })).code).toBe(0);
    const received = await server.call('friendIndex', { is_mine: 0 }, { token: b.token });
    const req = received.data.find((r: any) => r.create_user_info.user_id === a.userId);
    expect((await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: b.token })).code).toBe(
      0,
    );
  }

  it('sends a request with a note, lists it on both sides, and accepts it', async () => {
    const a = await fresh('ann', '安娜');
    const b = await fresh('bob', 'Bob');
    const sent = await server.call('friendAdd', { user_id: b.userId, remark: '我是安娜' }, { token: a.token });
    expect(sent.code).toBe(0);
    expect(sent.msg).toBe('Friend request sent');

    const mine = await server.call('friendIndex', { is_mine: 1 }, { token: a.token });
    expect(mine.count).toBe(1);
    expect(mine.data[0]).toMatchObject({ remark: '我是安娜', status: 2, user_id_info: { user_id: b.userId } });

    const received = await server.call('friendIndex', {}, { token: b.token });
    expect(received.data).toHaveLength(1);
    expect(received.data[0]).toMatchObject({ status: 2, create_user_info: { user_id: a.userId, realname: '安娜' } });

    const badge = await server.call('getContacts', {}, { token: b.token });
    expect(badge.count).toBe(1);
    expect(userRows(badge)).toEqual([]);
    // The `system` row travels beside the list (Envelope.system), which keeps one is_group 2 row.
    expect(badge.data.find((c: any) => c.id === 'system')).toBeUndefined();
    expect(badge.system).toMatchObject({ id: 'system', is_group: 2, unread: 1 });

    const accepted = await server.call(
      'friendUpdate',
      { friend_id: received.data[0].friend_id, status: 1 },
      { token: b.token },
    );
    expect(accepted.code).toBe(0);

    const aContacts = { data: userRows(await server.call('getContacts', {}, { token: a.token })) };
    expect(aContacts.data.map((c: any) => c.id)).toEqual([b.userId]);
    expect(aContacts.data[0]).toMatchObject({ displayName: 'Bob', index: 'B', is_group: 0, account: b.account });
    expect(aContacts.data[0].friend_id).toBeGreaterThan(0);
    const bContacts = await server.call('getContacts', {}, { token: b.token });
    expect(bContacts.count).toBe(0);
    expect(userRows(bContacts)[0]).toMatchObject({ id: a.userId, displayName: '安娜', index: 'A' });

    const again = await server.call('friendIndex', { is_mine: 1 }, { token: a.token });
    expect(again.data[0].status).toBe(1);
  });

  it('refuses to add myself, to add twice, and to add a friend again', async () => {
    const a = await fresh('cat');
    const b = await fresh('dan');
    const self = await server.call('friendAdd', { user_id: a.userId }, { token: a.token });
    expect(self).toMatchObject({ code: 400, msg: 'You cannot add yourself as a friend' });
    expect((await server.call('friendAdd', { user_id: b.userId }, { token: a.token })).code).toBe(0);
    const twice = await server.call('friendAdd', { user_id: b.userId }, { token: a.token });
    expect(twice).toMatchObject({ code: 400, msg: 'A request is already waiting for their answer' });
    const unknown = await server.call('friendAdd', { user_id: 999999 }, { token: a.token });
    expect(unknown.code).toBe(404);
    const bad = await server.call('friendAdd', { user_id: 'abc' }, { token: a.token });
    expect(bad.code).toBe(400);
    expect(bad.data.fields).toEqual(['user_id']);
    expect((await server.call('friendAdd', { user_id: b.userId }, {})).code).toBe(-1);
  });

  it('makes two users friends when the addressee asks back', async () => {
    const a = await fresh('eve');
    const b = await fresh('fay');
    await server.call('friendAdd', { user_id: b.userId }, { token: a.token });
    const back = await server.call('friendAdd', { user_id: a.userId }, { token: b.token });
    expect(back).toMatchObject({ code: 0, msg: 'You are now friends' });
    const twice = await server.call('friendAdd', { user_id: b.userId }, { token: a.token });
    expect(twice).toMatchObject({ code: 400, msg: 'You are already friends' });
  });

  it('lets only the addressee answer a request, once', async () => {
    const a = await fresh('gus');
    const b = await fresh('hal');
    const c = await fresh('ivy');
    await server.call('friendAdd', { user_id: b.userId }, { token: a.token });
    const [req] = (await server.call('friendIndex', {}, { token: b.token })).data;
    for (const who of [a, c]) {
      const res = await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: who.token });
      expect(res.code).toBe(404);
    }
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))).toEqual([]);
    // A refusal says so, not "Saved".
    expect(
      await server.call('friendUpdate', { friend_id: req.friend_id, status: 0 }, { token: b.token }),
    ).toMatchObject({ code: 0, msg: 'Declined' });
    const again = await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: b.token });
    expect(again.code).toBe(400);
    expect((await server.call('friendIndex', { is_mine: 1 }, { token: a.token })).data[0].status).toBe(0);
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))).toEqual([]);
  });

  it('sets a remark only on my own friendship row', async () => {
    const a = await fresh('jay');
    const b = await fresh('kim', '金');
    const c = await fresh('lee');
    await befriend(a, b);
    const [row] = userRows(await server.call('getContacts', {}, { token: a.token }));
    expect(
      (await server.call('friendSetNickname', { friend_id: row.friend_id, nickname: 'Zed' }, { token: a.token })).code,
    ).toBe(0);
    const after = userRows(await server.call('getContacts', {}, { token: a.token }))[0];
    expect(after).toMatchObject({ displayName: 'Zed', realname: '金', index: 'Z' });
    const profile = await server.call('getUserInfo', { user_id: b.userId }, { token: a.token });
    expect(profile.data).toMatchObject({
      displayName: 'Zed',
      is_friend: 1,
      friend: { friend_id: row.friend_id, nickname: 'Zed' },
    });

    const theirs = await server.call(
      'friendSetNickname',
      { friend_id: row.friend_id, nickname: 'x' },
      { token: c.token },
    );
    expect(theirs.code).toBe(404);
    const bRow = userRows(await server.call('getContacts', {}, { token: b.token }))[0];
    await server.call('friendSetNickname', { friend_id: bRow.friend_id, nickname: 'x' }, { token: a.token });
    expect(userRows(await server.call('getContacts', {}, { token: b.token }))[0].displayName).toBe(bRow.displayName);
    const bad = await server.call(
      'friendSetNickname',
      { friend_id: row.friend_id, nickname: 'n'.repeat(33) },
      { token: a.token },
    );
    expect(bad.code).toBe(400);
    expect(bad.data.fields).toEqual(['nickname']);
  });

  it('deletes a friendship both ways and refuses to delete a non-friend', async () => {
    const a = await fresh('max');
    const b = await fresh('ned');
    await befriend(a, b);
    const notFriend = await fresh('oli');
    expect((await server.call('friendDel', { id: notFriend.userId }, { token: a.token })).code).toBe(403);
    expect((await server.call('friendDel', { id: b.userId }, { token: a.token })).code).toBe(0);
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))).toEqual([]);
    expect(userRows(await server.call('getContacts', {}, { token: b.token }))).toEqual([]);
    expect((await server.call('getUserInfo', { user_id: b.userId }, { token: a.token })).data.is_friend).toBe(0);
  });

  it('lists everyone in runMode 1 and only friends in runMode 2, sorted by letter', async () => {
    const a = await fresh('pat', '张三');
    const b = await fresh('quin', 'Émile');
    const c = await fresh('ray', '123');
    await befriend(a, b);
    const two = userRows(await server.call('getContacts', {}, { token: a.token }));
    expect(two.map((x: any) => x.id)).toEqual([b.userId]);
    expect(two[0].index).toBe('E');

    await server.ctx.config.set('sysInfo.runMode', '1');
    const one = userRows(await server.call('getContacts', {}, { token: a.token }));
    const ids = one.map((x: any) => x.id);
    expect(ids).toContain(b.userId);
    expect(ids).toContain(c.userId);
    expect(ids).not.toContain(a.userId);
    const cRow = one.find((x: any) => x.id === c.userId);
    expect(cRow.index).toBe('#');
    expect(cRow.account).toMatch(/\*{6}/);
    expect(cRow.friend_id).toBeUndefined();
    const letters = one.map((x: any) => x.index);
    expect(letters).toEqual([...letters].sort());
    const fromC = userRows(await server.call('getContacts', {}, { token: c.token })).find(
      (x: any) => x.id === a.userId,
    );
    expect(fromC).toMatchObject({ displayName: '张三', index: 'Z' });
  });

  it('finds users only by exact account, email or phone, and masks strangers', async () => {
    const a = await fresh('sam');
    const b = await fresh('tom');
    await server.call('updateUserInfo', { email: `${b.account}@example.com` }, { token: b.token });
    const exact = await server.call('searchUser', { keywords: b.account }, { token: a.token });
    expect(exact.data.map((u: any) => u.user_id)).toEqual([b.userId]);
    expect(exact.data[0].account).toBe(`${b.account.slice(0, 3)}******${b.account.slice(-2)}`);
    expect(exact.data[0].is_friend).toBe(0);
    const byEmail = await server.call('searchUser', { keywords: `${b.account}@example.com` }, { token: a.token });
    expect(byEmail.data.map((u: any) => u.user_id)).toEqual([b.userId]);
    for (const partial of [b.account.slice(0, 3), b.account.slice(1), 'example.com', '%', '_', '*']) {
      const res = await server.call('searchUser', { keywords: partial }, { token: a.token });
      expect(res.data, partial).toEqual([]);
    }
  });

  it('pushes a request to the addressee only, acceptance to both, deletion to the other side', async () => {
    const a = await fresh('uma');
    const b = await fresh('vic');
    const c = await fresh('wes');
    const sa = await TestSocket.bound(server, a.userId, a.token);
    const sb = await TestSocket.bound(server, b.userId, b.token);
    const sc = await TestSocket.bound(server, c.userId, c.token);

    await server.call('friendAdd', { user_id: b.userId, remark: 'hello' }, { token: a.token });
    const notice = await sb.waitFor((f) => f.type === 'simple');
    expect(notice.data).toMatchObject({
      type: 'event',
      toContactId: 'system',
      toUser: b.userId,
      fromUser: { id: 'system' },
      contactInfo: { id: 'system', unread: 1 },
    });
    expect(notice.data.content).toContain(a.account.replace(/x$/, '').slice(0, 3));

    const [req] = (await server.call('friendIndex', {}, { token: b.token })).data;
    await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: b.token });
    const toA = await sa.waitFor((f) => f.type === 'appendContact');
    const toB = await sb.waitFor((f) => f.type === 'appendContact');
    expect(toA.data).toMatchObject({ id: b.userId, is_online: 1 });
    expect(toB.data).toMatchObject({ id: a.userId, is_online: 1 });

    await server.call('friendDel', { id: a.userId }, { token: b.token });
    const removed = await sa.waitFor((f) => f.type === 'removeGroup');
    expect(removed.data).toEqual({ group_id: b.userId });

    await new Promise((r) => setTimeout(r, 100));
    expect(sc.frames.filter((f) => f.type !== 'init' && f.type !== 'pong')).toEqual([]);
    // A is told by `system`, and the chat opens with B saying so, as in WeChat.
    const simpleToA = sa.frames.filter((f) => f.type === 'simple');
    expect(simpleToA.map((f) => f.data.type)).toEqual(['event', 'text']);
    expect(simpleToA[0].data.extends.event).toBe('friendAccepted');
    expect(simpleToA[1].data).toMatchObject({ fromUser: { id: b.userId }, toContactId: b.userId });
    expect(simpleToA[1].data.content).toMatch(/^(I accepted your friend request|我通过了你的朋友验证请求)/);
    const chat = await server.call('getMessageList', { toContactId: a.userId }, { token: b.token });
    expect(chat.data.map((m: any) => m.content)).toEqual([simpleToA[1].data.content]);
    for (const s of [sa, sb, sc]) s.close();
  });

  it('in runMode 1 tells everyone online of a presence change, strangers too, but not the user', async () => {
    await server.ctx.config.set('sysInfo.runMode', '1');
    const a = await fresh('zed');
    const b = await fresh('zoe');
    const stranger = await TestSocket.bound(server, a.userId, a.token);
    const own = await TestSocket.bound(server, b.userId, b.token);
    const second = await TestSocket.bound(server, b.userId, b.token);
    await stranger.waitFor((f) => f.type === 'isOnline' && f.data.id === b.userId && f.data.is_online === 1);
    second.close();
    own.close();
    await stranger.waitFor((f) => f.type === 'isOnline' && f.data.id === b.userId && f.data.is_online === 0);
    for (const mine of [own, second])
      expect(mine.frames.filter((f) => f.type === 'isOnline' && f.data.id === b.userId)).toEqual([]);
    stranger.close();
  });

  it('in runMode 1 writes a burst of presence changes to each socket together, each once', async () => {
    await server.ctx.config.set('sysInfo.runMode', '1');
    const me = await fresh('wat');
    const watcher = await TestSocket.bound(server, me.userId, me.token);
    const users = await Promise.all(['ann', 'ben', 'cai', 'dan', 'eve', 'fay'].map((name) => fresh(name)));
    const ids = new Set(users.map((u) => u.userId));
    const isTheirs = (f: any) => f.type === 'isOnline' && ids.has(f.data.id);
    // Whatever was waiting for a batch (the configuration change) has been written.
    await new Promise((r) => setTimeout(r, BROADCAST_BATCH_MS + 50));
    await watcher.roundTrip();
    const reads = watcher.reads;
    const sockets = await Promise.all(users.map((u) => TestSocket.bound(server, u.userId, u.token)));
    await watcher.waitFor(() => watcher.frames.filter(isTheirs).length === users.length);
    // Six sign-ins at once: one write, or two when they straddle the end of a batch.
    expect(watcher.reads - reads).toBeLessThanOrEqual(2);
    await watcher.roundTrip();
    const announced = watcher.frames.filter(isTheirs);
    expect(announced).toHaveLength(users.length);
    expect(announced.map((f) => f.data.id).sort()).toEqual([...ids].sort());
    expect(announced.every((f) => f.data.is_online === 1)).toBe(true);
    for (const s of sockets) s.close();
    await watcher.waitFor(() => watcher.frames.filter(isTheirs).length === 2 * users.length);
    const offline = watcher.frames.filter(isTheirs).slice(users.length);
    expect(offline.map((f) => f.data.id).sort()).toEqual([...ids].sort());
    expect(offline.every((f) => f.data.is_online === 0)).toBe(true);
    watcher.close();
  });

  it('keeps presence changes in order when one for everyone still waits for its batch', async () => {
    await server.ctx.config.set('sysInfo.runMode', '1');
    const { a, b, watcher, first } = await friendComesOnline('ivo', 'jun');
    // Offline is announced to everyone (batched); online again, after runMode 2, to friends at once.
    first.close();
    await first.waitClosed();
    await server.ctx.config.set('sysInfo.runMode', '2');
    const second = await TestSocket.bound(server, b.userId, b.token);
    await watcher.waitFor(
      (f) => f.type === 'isOnline' && f.data.id === b.userId && f.data.is_online === 1,
      3000,
      watcher.frames.findIndex((f) => f.type === 'isOnline' && f.data.id === b.userId) + 1,
    );
    await new Promise((r) => setTimeout(r, BROADCAST_BATCH_MS + 50));
    const changes = watcher.frames.filter((f) => f.type === 'isOnline' && f.data.id === b.userId);
    expect(changes.map((f) => f.data.is_online)).toEqual([1, 0, 1]);
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))[0].is_online).toBe(1);
    second.close();
    watcher.close();
  });

  it('announces presence on the first socket and on the last close only', async () => {
    const { a, b, watcher, first } = await friendComesOnline('xia', 'yan');
    const second = await TestSocket.bound(server, b.userId, b.token);
    expect(second.frames.find((f) => f.type === 'pong').multiport).toBe(true);
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))[0].is_online).toBe(1);

    first.close();
    await first.waitClosed();
    await new Promise((r) => setTimeout(r, 150));
    expect(watcher.frames.filter((f) => f.type === 'isOnline' && f.data.id === b.userId)).toHaveLength(1);

    second.close();
    await watcher.waitFor((f) => f.type === 'isOnline' && f.data.id === b.userId && f.data.is_online === 0);
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))[0].is_online).toBe(0);

    await server.ctx.config.set('chatInfo.online', '0');
    const third = await TestSocket.bound(server, b.userId, b.token);
    await new Promise((r) => setTimeout(r, 150));
    expect(watcher.frames.filter((f) => f.type === 'isOnline' && f.data.is_online === 1)).toHaveLength(1);
    expect(userRows(await server.call('getContacts', {}, { token: a.token }))[0].is_online).toBe(0);
    await server.ctx.config.set('chatInfo.online', '1');
    third.close();
    watcher.close();
  });
});
