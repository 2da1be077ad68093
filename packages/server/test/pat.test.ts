import { randomUUID } from 'node:crypto';
import { ErrorCodes, PAT_INTERVAL_MS, PAT_PER_MINUTE_MAX, PAT_WITHDRAW_MS } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import {
  callAs,
  describeEachDb,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
} from './harness';

type User = Awaited<ReturnType<typeof signUp>> & { lang: string; name: string };

/**
 * Pats (拍一拍) from outside: the suffix set in one's profile, who may pat whom where (sendMessage's
 * rules), the line every member gets live worded for each reader, the rate limit, and the
 * patter's withdrawal within PAT_WITHDRAW_MS, after which the line is gone for everyone.
 */
describeEachDb('pat', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = async (name: string, lang = 'zh-CN'): Promise<User> => ({
    ...(await signUp(server, `${name}${++n}t`, 'secret123', `${name}${n}`, { lang })),
    lang,
    name: `${name}${n}`,
  });

  serverForSuite(target, (s) => (server = s), {
    'sysInfo.runMode': '2',
    'chatInfo.simpleChat': '1',
    'chatInfo.sendInterval': '0',
  });
  const pat = (who: User, chat: number | string, whom: User | number) =>
    server.call(
      'patUser',
      {
        toContactId: chat,
        is_group: typeof chat === 'string' ? 1 : 0,
        user_id: typeof whom === 'number' ? whom : whom.userId,
      },
      callAs(who),
    );
  const suffix = (who: User, text: string) => server.call('updateUserInfo', { pat_suffix: text }, callAs(who));
  const isPat = (f: any) => (f.type === 'group' || f.type === 'simple') && f.data.extends?.event === 'pat';

  it('keeps a pat suffix in the profile, within its length', async () => {
    const a = await fresh('suf');
    const set = await suffix(a, '的肩膀');
    expect(set).toMatchObject({ code: 0, data: { pat_suffix: '的肩膀' } });
    const b = await fresh('see');
    expect((await server.call('getUserInfo', { user_id: a.userId }, callAs(b))).data.pat_suffix).toBe('的肩膀');
    expect(await suffix(a, '肩'.repeat(17))).toMatchObject({ code: ErrorCodes.Validation });
    expect((await suffix(a, '')).data.pat_suffix).toBe('');
  });

  it('pats a friend in a private chat with their suffix, worded for each reader, live', async () => {
    const [a, b] = [await fresh('pa'), await fresh('pb', 'en')];
    await makeFriends(server, a, b);
    await suffix(b, '的肩膀');
    const sa = await TestSocket.bound(server, a.userId, a.token);
    const sb = await TestSocket.bound(server, b.userId, b.token);
    const res = await pat(a, b.userId, b);
    expect(res).toMatchObject({ code: 0, data: { type: 'event', content: `你拍了拍 ${b.name} 的肩膀` } });
    expect(res.data.extends).toMatchObject({ event: 'pat', user_id: a.userId, target_id: b.userId, suffix: '的肩膀' });
    expect((await sa.waitFor(isPat)).data.content).toBe(`你拍了拍 ${b.name} 的肩膀`);
    expect((await sb.waitFor(isPat)).data.content).toBe(`${a.name} patted you 的肩膀`);

    // Oneself, with one's own suffix.
    await suffix(a, '的头');
    server.clock.advance(PAT_INTERVAL_MS);
    expect((await pat(a, b.userId, a)).data.content).toBe('你拍了拍自己 的头');
    expect((await sb.waitFor((f) => isPat(f) && f.data.extends.target_id === a.userId)).data.content).toBe(
      `${a.name} patted themselves 的头`,
    );
    // No one else in a private chat.
    const c = await fresh('pc');
    expect(await pat(a, b.userId, c)).toMatchObject({ code: ErrorCodes.UserNotFound });
    expect(await pat(a, -1, a)).toMatchObject({ code: ErrorCodes.NotAllowedTarget });
    sa.close();
    sb.close();
  });

  it('pats only as sendMessage allows: no stranger or ex-friend, no removed member, not while muted', async () => {
    const [owner, m1, m2] = [await fresh('go'), await fresh('g1'), await fresh('g2')];
    const gid = await makeGroup(server, owner, [m1, m2]);
    const so = await TestSocket.bound(server, owner.userId, owner.token);
    expect(await pat(m1, gid, owner)).toMatchObject({ code: 0 });
    expect((await so.waitFor(isPat)).data.content).toBe(`${m1.name}拍了拍 你`);

    const stranger = await fresh('gs');
    expect(await pat(stranger, gid, owner)).toMatchObject({ code: ErrorCodes.NotMember });
    expect(await pat(stranger, owner.userId, owner)).toMatchObject({ code: ErrorCodes.NotFriendChat });

    await server.call('removeUser', { id: gid, user_id: m2.userId }, callAs(owner));
    expect(await pat(m2, gid, owner)).toMatchObject({ code: ErrorCodes.NotMember });
    expect(await pat(owner, gid, m2)).toMatchObject({ code: ErrorCodes.UserNotFound });

    await server.call('setNoSpeak', { id: gid, user_id: m1.userId, noSpeakTimer: 1 }, callAs(owner));
    server.clock.advance(PAT_INTERVAL_MS);
    expect(await pat(m1, gid, owner)).toMatchObject({ code: ErrorCodes.Muted });
    await server.call('setNoSpeak', { id: gid, user_id: m1.userId, noSpeakTimer: 0 }, callAs(owner));
    await server.call('groupSetting', { id: gid, setting: { nospeak: 1 } }, callAs(owner));
    expect(await pat(m1, gid, owner)).toMatchObject({ code: ErrorCodes.GroupNoSpeakAdmins });
    await server.call('groupSetting', { id: gid, setting: { nospeak: 0 } }, callAs(owner));

    const [x, y] = [await fresh('ex'), await fresh('ey')];
    await makeFriends(server, x, y);
    expect(await pat(x, y.userId, y)).toMatchObject({ code: 0 });
    await server.call('friendDel', { id: x.userId }, callAs(y));
    server.clock.advance(PAT_INTERVAL_MS);
    expect(await pat(y, x.userId, x)).toMatchObject({ code: ErrorCodes.NotFriendChat });
    so.close();
  });

  it(`limits pats: one of the same person per ${PAT_INTERVAL_MS / 1000} s, ${PAT_PER_MINUTE_MAX} a minute`, async () => {
    const owner = await fresh('ro', 'en');
    const members = [];
    for (let i = 0; i < 5; i++) members.push(await fresh(`r${i}`));
    const gid = await makeGroup(server, owner, members);
    const targets = [owner, ...members];
    expect(await pat(owner, gid, members[0]!)).toMatchObject({ code: 0 });
    const again = await pat(owner, gid, members[0]!);
    expect(again).toMatchObject({ code: ErrorCodes.PatTooFast });
    expect(again.msg).toMatch(/^Too many pats: try again in \d+ s$/);
    server.clock.advance(PAT_INTERVAL_MS);
    expect(await pat(owner, gid, members[0]!)).toMatchObject({ code: 0 });

    // Two so far; six people a round, a round each interval, until the minute's cap.
    let sent = 2;
    for (let round = 0; sent < PAT_PER_MINUTE_MAX; round++) {
      server.clock.advance(PAT_INTERVAL_MS);
      for (const t of targets) {
        if (sent === PAT_PER_MINUTE_MAX) break;
        expect(await pat(owner, gid, t), `pat ${sent + 1}`).toMatchObject({ code: 0 });
        sent++;
      }
    }
    server.clock.advance(PAT_INTERVAL_MS);
    expect(await pat(owner, gid, members[1]!)).toMatchObject({ code: ErrorCodes.PatTooFast });
    server.clock.advance(60_000);
    expect(await pat(owner, gid, members[1]!)).toMatchObject({ code: 0 });
  });

  it('lets the patter alone withdraw a pat within the window, and it vanishes for everyone', async () => {
    const [owner, m1, m2] = [await fresh('wo'), await fresh('w1'), await fresh('w2')];
    const gid = await makeGroup(server, owner, [m1, m2]);
    await server.call('setManager', { id: gid, user_id: m1.userId, role: 2 }, callAs(owner));
    const s2 = await TestSocket.bound(server, m2.userId, m2.token);
    const patted = (await pat(m2, gid, owner)).data;
    // Not the patted one, not the owner or an administrator: a pat is its patter's.
    for (const who of [owner, m1])
      expect(await server.call('undoMessage', { id: patted.msg_id }, callAs(who))).toMatchObject({
        code: ErrorCodes.MessageNotFound,
      });
    const so = await TestSocket.bound(server, owner.userId, owner.token);
    expect(await server.call('undoMessage', { id: patted.id }, callAs(m2))).toMatchObject({ code: 0 });
    for (const sock of [so, s2])
      expect((await sock.waitFor((f) => f.type === 'delMessage')).data).toMatchObject({
        msg_id: patted.msg_id,
        toContactId: gid,
      });
    const list = await server.call('getMessageList', { toContactId: gid, is_group: 1 }, callAs(owner));
    expect(list.data.map((m: any) => m.msg_id)).not.toContain(patted.msg_id);
    expect(list.data.filter((m: any) => m.extends?.event === 'undo')).toEqual([]);
    expect(await server.call('undoMessage', { id: patted.msg_id }, callAs(m2))).toMatchObject({
      code: ErrorCodes.MessageNotFound,
    });

    server.clock.advance(PAT_INTERVAL_MS);
    const late = (await pat(m2, gid, owner)).data;
    server.clock.advance(PAT_WITHDRAW_MS + 1);
    expect(await server.call('undoMessage', { id: late.msg_id }, callAs(m2))).toMatchObject({
      code: ErrorCodes.UndoTooLate,
    });
    // Other event lines stay out of undoMessage.
    const created = list.data.find((m: any) => m.extends?.event === 'create');
    expect(await server.call('undoMessage', { id: created.msg_id }, callAs(owner))).toMatchObject({
      code: ErrorCodes.MessageNotFound,
    });
    so.close();
    s2.close();
  });

  it('reaches a Raingad socket as a line it can draw from its content', async () => {
    const [owner, m1] = [await fresh('ro'), await fresh('rm')];
    const gid = await makeGroup(server, owner, [m1, await fresh('rx')]);
    const socket = await TestSocket.open(server);
    const bound = await server.call('bindUid', { client_id: socket.clientId, user_id: owner.userId }, callAs(owner));
    expect(bound.code, bound.msg).toBe(0);
    socket.send({ type: 'bindUid', user_id: owner.userId, token: owner.token });
    await socket.waitFor((f) => f.type === 'pong');
    await suffix(owner, '的肩膀');
    expect(await pat(m1, gid, owner)).toMatchObject({ code: 0 });
    expect((await socket.waitFor(isPat)).data).toMatchObject({ type: 'event', content: `${m1.name}拍了拍 你 的肩膀` });
    // And a message sent after it, as ever.
    const sent = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content: 'after the pat' },
      callAs(m1),
    );
    expect((await socket.waitFor((f) => f.type === 'group' && f.data.msg_id === sent.data.msg_id)).data.content).toBe(
      'after the pat',
    );
    socket.close();
  });
});
