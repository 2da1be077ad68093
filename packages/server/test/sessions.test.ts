import { ErrorCodes, SocketCloseCodes, translate, routes, type Envelope, type RouteName } from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import { Cluster, describeWithRedis, type Node } from './cluster';
import { describeEachDb, dbTargets, signUp, startServer, TestSocket, type TestServer } from './harness';

/**
 * 登录设备 (issue 42 points 1 and 6): a user's live sessions with their devices, ending one or all
 * the others (the ended device's sockets closed at once, across nodes too), the notice of a sign-in
 * from a new device (once, however many sign-ins of it arrive at once), and the console's view of a
 * user's sessions and factors with its audited end and reset.
 */

const WINDOWS_CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MAC_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const IPHONE_APP =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 uni-app Html5Plus/1.0';
const SHENZHEN = '120.24.78.68';

type User = Awaited<ReturnType<typeof signUp>>;

const isNotice = (f: any) => f.type === 'simple' && f.data?.extends?.event === 'signInNewDevice';

/** Fails unless the answer is the named error, in English. */
function expectRefused(res: Envelope<any>, name: 'NotFound' | 'UserNotFound') {
  expect({ code: res.code, msg: res.msg }).toEqual({ code: ErrorCodes[name], msg: translate('en', `errors.${name}`) });
}

describeEachDb('sessions and devices (登录设备)', (target) => {
  let server: TestServer;
  let n = 0;
  let ip = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}dv`, 'secret123', `${name}${n}`);
  /** Signs in with a password from a device: its user agent, install id and address. */
  const login = async (u: User, ua: string, cid: string, from = `10.9.0.${++ip}`, clientId?: string) => {
    const res = await server.call(
      'login',
      { account: u.account, password: u.password, ...(clientId && { client_id: clientId }) },
      { ip: from, lang: 'en', headers: { 'user-agent': ua, cid } },
    );
    expect(res.code, res.msg).toBe(0);
    return res.data as { authToken: string; sessionId: number };
  };
  const call = (name: RouteName, body: object, token: string) => server.call(name, body, { token, lang: 'en' });
  const audit = (action: string, userId: number) =>
    server.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .where('target', '=', `user:${userId}`)
      .execute();

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists my live sessions with device, way in and this one marked; the place only while ipregion is on', async () => {
    const u = await fresh('lister');
    const pc = await login(u, WINDOWS_CHROME, 'pc-1', SHENZHEN);
    const phone = await login(u, IPHONE_APP, 'phone-1', '192.168.1.20');
    await server.ctx.config.set('sysInfo.ipregion', '1');
    try {
      const list = (await call('sessions', {}, pc.authToken)).data;
      expect(list.map((s: any) => s.session_id)).toEqual([phone.sessionId, pc.sessionId, expect.any(Number)]);
      expect(list[0]).toMatchObject({
        device: { browser: 'Sparrow', os: 'iPhone' },
        via: '',
        place: '',
        lan: true,
        current: false,
      });
      expect(list[1]).toMatchObject({
        device: { browser: 'Chrome', os: 'Windows' },
        place: '广东省 深圳市',
        lan: false,
        current: true,
      });
      expect(list[1].last_seen).toBe(server.clock.now());
      // The user's own list says where, not the address.
      expect(JSON.stringify(list)).not.toContain(SHENZHEN);
    } finally {
      await server.ctx.config.set('sysInfo.ipregion', '0');
    }
    const off = (await call('sessions', {}, phone.authToken)).data;
    expect(off[0]).toMatchObject({ place: '', lan: false, current: true });
    expect(off[1]).toMatchObject({ place: '', lan: false, current: false });
  });

  it('ends one session: its socket is closed as ended from another device, its token no longer works', async () => {
    const u = await fresh('ender');
    const mine = await login(u, WINDOWS_CHROME, 'pc-2');
    const other = await login(u, MAC_SAFARI, 'mac-2');
    const sock = await TestSocket.bound(server, u.userId, other.authToken);
    const end = await call('sessionEnd', { session_id: other.sessionId }, mine.authToken);
    expect({ code: end.code, msg: end.msg }).toEqual({ code: 0, msg: translate('en', 'ok.sessionEnded') });
    expect(await sock.waitClosed()).toBe(SocketCloseCodes.SessionEnded);
    expect(sock.frames.find((f) => f.type === 'offline')?.data).toMatchObject({ id: u.userId, reason: 'device' });
    expect((await call('checkuser', {}, other.authToken)).code).toBe(-1);
    expect((await call('sessions', {}, mine.authToken)).data.map((s: any) => s.session_id)).not.toContain(
      other.sessionId,
    );
  });

  it('answers an ended session, a missing one and another user’s alike, leaving the other user’s live', async () => {
    const u = await fresh('owner');
    const stranger = await fresh('stranger');
    const theirs = await login(stranger, MAC_SAFARI, 'mac-3');
    const ended = await login(u, MAC_SAFARI, 'mac-4');
    expect((await call('sessionEnd', { session_id: ended.sessionId }, u.token)).code).toBe(0);
    expectRefused(await call('sessionEnd', { session_id: ended.sessionId }, u.token), 'NotFound');
    expectRefused(await call('sessionEnd', { session_id: 999_999_999 }, u.token), 'NotFound');
    expectRefused(await call('sessionEnd', { session_id: theirs.sessionId }, u.token), 'NotFound');
    expect((await call('checkuser', {}, theirs.authToken)).code).toBe(0);
    // QR login's own end refuses a session not made by QR login, the same way.
    expectRefused(await call('webSessionEnd', { session_id: theirs.sessionId }, u.token), 'NotFound');
  });

  it('ends every other session at once and keeps mine', async () => {
    const u = await fresh('others');
    const mine = await login(u, WINDOWS_CHROME, 'pc-5');
    const a = await login(u, MAC_SAFARI, 'mac-5');
    const b = await login(u, IPHONE_APP, 'phone-5');
    const sockA = await TestSocket.bound(server, u.userId, a.authToken);
    const sockMine = await TestSocket.bound(server, u.userId, mine.authToken);
    const res = await call('sessionEndOthers', {}, mine.authToken);
    // signUp's session, a and b.
    expect({ code: res.code, data: res.data, msg: res.msg }).toEqual({
      code: 0,
      data: 3,
      msg: translate('en', 'ok.sessionsEnded'),
    });
    expect(await sockA.waitClosed()).toBe(SocketCloseCodes.SessionEnded);
    for (const token of [a.authToken, b.authToken, u.token]) expect((await call('checkuser', {}, token)).code).toBe(-1);
    expect((await call('sessions', {}, mine.authToken)).data).toEqual([
      expect.objectContaining({ session_id: mine.sessionId, current: true }),
    ]);
    await sockMine.roundTrip();
    sockMine.close();
  });

  it('tells my other devices of a sign-in from a new device, once; not of a device signed in on before', async () => {
    const u = await fresh('notice');
    // The first device of an account is no one's news.
    const first = await login(u, WINDOWS_CHROME, 'pc-6', SHENZHEN);
    expect(await audit('signInNewDevice', u.userId)).toEqual([]);
    const sock = await TestSocket.bound(server, u.userId, first.authToken);
    // The new device's own socket, joined by its login: it is not told of itself.
    const newcomer = await TestSocket.open(server);
    await server.ctx.config.set('sysInfo.ipregion', '1');
    try {
      const made = await login(u, MAC_SAFARI, 'mac-6', SHENZHEN, newcomer.clientId);
      const notice = await sock.waitFor(isNotice);
      expect(notice.data).toMatchObject({
        toContactId: 'system',
        fromUser: { id: 'system' },
        extends: {
          event: 'signInNewDevice',
          session_id: made.sessionId,
          browser: 'Safari',
          os: 'macOS',
          place: '广东省 深圳市',
          lan: false,
          at: server.clock.now(),
        },
      });
      expect(notice.data.content).toBe(
        translate('en', 'notice.signInNewDevice', { device: 'Safari on macOS', place: ', 广东省 深圳市' }),
      );
      await newcomer.roundTrip();
      expect(newcomer.frames.filter(isNotice)).toEqual([]);
      const rows = await audit('signInNewDevice', u.userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ admin_id: u.userId, ip: SHENZHEN });
      expect(JSON.parse(rows[0]!.detail)).toMatchObject({ session_id: made.sessionId, browser: 'Safari', via: '' });

      // The same browser again (same install): nothing new. The same browser and system with
      // another install id (its storage cleared, another profile) is another device.
      await login(u, MAC_SAFARI, 'mac-6');
      await login(u, WINDOWS_CHROME, 'pc-6');
      await sock.roundTrip();
      expect(sock.frames.filter(isNotice)).toHaveLength(1);
      await login(u, MAC_SAFARI, 'mac-6b');
      await sock.waitFor((f) => isNotice(f) && f.data.extends.session_id !== made.sessionId);
      expect(await audit('signInNewDevice', u.userId)).toHaveLength(2);
    } finally {
      await server.ctx.config.set('sysInfo.ipregion', '0');
      sock.close();
      newcomer.close();
    }
  });

  it('of sign-ins from one new device at once, one tells the other devices and one is audited', async () => {
    const u = await fresh('race');
    const first = await login(u, WINDOWS_CHROME, 'pc-7');
    const sock = await TestSocket.bound(server, u.userId, first.authToken);
    const made = await Promise.all(Array.from({ length: 6 }, () => login(u, IPHONE_APP, 'phone-7')));
    expect(new Set(made.map((m) => m.sessionId)).size).toBe(6);
    await sock.waitFor(isNotice);
    await sock.roundTrip();
    expect(sock.frames.filter(isNotice)).toHaveLength(1);
    expect(await audit('signInNewDevice', u.userId)).toHaveLength(1);
    sock.close();
  });

  it('QR login audits a new device but tells no one: the phone that confirmed it is theirs', async () => {
    const u = await fresh('qr');
    const phone = await login(u, IPHONE_APP, 'phone-8');
    const sock = await TestSocket.bound(server, u.userId, phone.authToken);
    const code = await server.call(
      'qrLoginCreate',
      {},
      { ip: `10.8.0.${++ip}`, headers: { 'user-agent': WINDOWS_CHROME, cid: 'pc-8' } },
    );
    expect((await call('qrLoginScan', { code: code.data.code }, phone.authToken)).code).toBe(0);
    expect((await call('qrLoginConfirm', { code: code.data.code }, phone.authToken)).code).toBe(0);
    const rows = await audit('signInNewDevice', u.userId);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ via: 'qr', browser: 'Chrome', os: 'Windows' });
    await sock.roundTrip();
    expect(sock.frames.filter(isNotice)).toEqual([]);
    // The page's session is listed by both lists; its install id makes a later password sign-in there no news.
    const web = (await call('webSessions', {}, phone.authToken)).data;
    expect(web).toEqual([expect.objectContaining({ device: { browser: 'Chrome', os: 'Windows' }, via: 'qr' })]);
    const all = (await call('sessions', {}, phone.authToken)).data;
    expect(all.find((s: any) => s.via === 'qr')?.session_id).toBe(web[0].session_id);
    await login(u, WINDOWS_CHROME, 'pc-8');
    expect(await audit('signInNewDevice', u.userId)).toHaveLength(1);
    sock.close();
  });

  describe('the console', () => {
    let root: User;
    const asRoot = () => ({ token: root.token, lang: 'en' });

    beforeAll(async () => {
      root = await fresh('root');
      await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setUserRole(
        root.userId,
        true,
      );
    });

    it('shows a user’s factors and sessions with their addresses, and ends one, audited', async () => {
      const u = await fresh('managed');
      const pc = await login(u, WINDOWS_CHROME, 'pc-9', SHENZHEN);
      const sock = await TestSocket.bound(server, u.userId, pc.authToken);
      const seen = await server.call('manageUserSecurity', { user_id: u.userId }, asRoot());
      expect(seen.data).toMatchObject({ two_step: 0, totp: false, recovery_left: 0, passkeys: 0 });
      expect(seen.data.sessions[0]).toMatchObject({
        session_id: pc.sessionId,
        device: { browser: 'Chrome', os: 'Windows' },
        ip: SHENZHEN,
        current: false,
      });
      const end = await server.call('manageSessionEnd', { user_id: u.userId, session_id: pc.sessionId }, asRoot());
      expect(end.code, end.msg).toBe(0);
      expect(await sock.waitClosed()).toBe(SocketCloseCodes.SessionEnded);
      expect(sock.frames.find((f) => f.type === 'offline')?.data).toMatchObject({ reason: 'ended' });
      const rows = await audit('sessionEnd', u.userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ admin_id: root.userId });
      expect(JSON.parse(rows[0]!.detail)).toMatchObject({ session_id: pc.sessionId });
      // Another user's session named with this user, or one already ended, answers as a missing one.
      const other = await login(root, MAC_SAFARI, 'mac-9');
      expectRefused(
        await server.call('manageSessionEnd', { user_id: u.userId, session_id: other.sessionId }, asRoot()),
        'NotFound',
      );
      expectRefused(
        await server.call('manageSessionEnd', { user_id: u.userId, session_id: pc.sessionId }, asRoot()),
        'NotFound',
      );
      expect((await call('checkuser', {}, other.authToken)).code).toBe(0);
      expectRefused(await server.call('manageUserSecurity', { user_id: 999_999 }, asRoot()), 'UserNotFound');
    });

    it('resets the second factor: factors gone, two_step 0, every session ended, audited', async () => {
      const u = await fresh('reset');
      const pc = await login(u, WINDOWS_CHROME, 'pc-10');
      const now = server.clock.now();
      await server.ctx.db
        .insertInto('passkeys')
        .values({ user_id: u.userId, credential_id: `reset-${u.userId}`, public_key: 'AA', create_time: now })
        .execute();
      await server.ctx.db
        .insertInto('recovery_codes')
        .values({ user_id: u.userId, code_hash: 'x'.repeat(64), create_time: now })
        .execute();
      await server.ctx.repos.factors.refreshTwoStep(u.userId);
      expect((await server.call('manageUserSecurity', { user_id: u.userId }, asRoot())).data).toMatchObject({
        two_step: 1,
        passkeys: 1,
        recovery_left: 1,
      });
      const sock = await TestSocket.bound(server, u.userId, pc.authToken);
      const res = await server.call('manageTwoStepReset', { user_id: u.userId }, asRoot());
      expect({ code: res.code, msg: res.msg }).toEqual({ code: 0, msg: translate('en', 'ok.twoStepReset') });
      expect(await sock.waitClosed()).toBe(SocketCloseCodes.SessionEnded);
      const after = (await server.call('manageUserSecurity', { user_id: u.userId }, asRoot())).data;
      expect(after).toEqual({ two_step: 0, totp: false, recovery_left: 0, passkeys: 0, sessions: [], tokens: [] });
      const row = await server.ctx.db
        .selectFrom('users')
        .select('two_step')
        .where('id', '=', u.userId)
        .executeTakeFirst();
      expect(row?.two_step).toBe(0);
      const rows = await audit('twoStepReset', u.userId);
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.detail)).toMatchObject({ sessions: 2 });
      expect(routes.manageTwoStepReset.admin).toBe(true);
    });
  });
});

describeWithRedis('sessions across two nodes', (redisUrl) => {
  if (!dbTargets().includes('postgres')) return;
  let cluster: Cluster;
  let a: Node;
  let b: Node;

  const post = async (node: Node, name: RouteName, body: object, headers: Record<string, string> = {}) => {
    const res = await fetch(`${node.url}${routes[name].path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Envelope<any>;
  };
  const login = async (node: Node, ua: string, cid: string) => {
    const res = await post(node, 'login', { account: 'twonodes', password: 'secret123' }, { 'user-agent': ua, cid });
    expect(res.code, res.msg).toBe(0);
    return res.data as { authToken: string; sessionId: number; userInfo: { user_id: number } };
  };

  beforeAll(async () => {
    cluster = await Cluster.start('postgres', redisUrl, 2);
    [a, b] = cluster.nodes as [Node, Node];
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('ends a session held on the other node, and tells the other node’s socket of a new device once', async () => {
    const reg = await post(a, 'register', { account: 'twonodes', password: 'secret123', realname: 'Two' });
    expect(reg.code, reg.msg).toBe(0);
    const userId = reg.data.user_id as number;
    const pc = await login(a, WINDOWS_CHROME, 'pc-c');
    const sock = await TestSocket.bound(b, userId, pc.authToken);

    // Sign-ins of one new device at once, half on each node: one notice reaches the socket on b.
    const made = await Promise.all(Array.from({ length: 6 }, (_, i) => login(i % 2 ? a : b, MAC_SAFARI, 'mac-c')));
    await sock.waitFor(isNotice, 5000);
    await sock.roundTrip();
    await new Promise((r) => setTimeout(r, 300));
    expect(sock.frames.filter(isNotice)).toHaveLength(1);

    const end = await post(a, 'sessionEnd', { session_id: pc.sessionId }, { authorization: made[0]!.authToken });
    expect(end.code, end.msg).toBe(0);
    expect(await sock.waitClosed(5000)).toBe(SocketCloseCodes.SessionEnded);
    expect((await post(b, 'checkuser', {}, { authorization: pc.authToken })).code).toBe(-1);
  });
});
