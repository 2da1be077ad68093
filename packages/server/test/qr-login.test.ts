import {
  ErrorCodes,
  parseQrLink,
  QR_LOGIN_VALID_MS,
  RATE_LIMITS,
  translate,
  type Envelope,
  type ErrorName,
} from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

/**
 * QR login (扫码登录, issue 40 point 4): a signed-out page's code, scanned and confirmed by a
 * signed-in phone, signs the page in with a session of its own that the phone lists and may end.
 * Single use under confirms fired at once (on PostgreSQL also from a second server on the same
 * database), expiry, and the rules from outside: a stranger, another user, a wrong secret.
 */

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type User = Awaited<ReturnType<typeof signUp>>;

/** Fails unless the answer is the named error, in English (the harness's language). */
function expectRefused(res: Envelope<any>, name: ErrorName) {
  expect({ code: res.code, msg: res.msg }).toEqual({ code: ErrorCodes[name], msg: translate('en', `errors.${name}`) });
}

describeEachDb('QR login', (target) => {
  let server: TestServer;
  let n = 0;
  let ip = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}ql`, 'secret123', `${name}${n}`);
  /** A code as a desktop asks for one, each from an address of its own (the per-address limit has its own test). */
  const desktop = async () => {
    const res = await server.call('qrLoginCreate', {}, { ip: `10.0.0.${++ip}`, headers: { 'user-agent': DESKTOP_UA } });
    expect(res.code, res.msg).toBe(0);
    return res.data as { qrUrl: string; code: string; secret: string; expires: number };
  };
  const state = (d: { code: string; secret: string }) =>
    server.call('qrLoginState', { code: d.code, secret: d.secret });
  const as = (u: User) => ({ token: u.token });

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('show → scan → confirm: the page is signed in with a session of its own, which the phone lists and ends', async () => {
    const phone = await fresh('phone');
    const d = await desktop();
    // The QR holds the code only: the secret the page polls with is nowhere in it.
    expect(parseQrLink(d.qrUrl)).toMatchObject({ kind: 'login', token: d.code });
    expect(d.qrUrl).not.toContain(d.secret);
    expect(d.expires).toBe(server.clock.now() + QR_LOGIN_VALID_MS);
    expect((await state(d)).data).toEqual({ state: 'waiting' });

    const scan = await server.call('qrLoginScan', { code: d.code }, as(phone));
    expect(scan.data.device).toEqual({ browser: 'Chrome', os: 'Linux' });
    // The address the page asked from, for the phone to show beside the device.
    expect(scan.data.ip).toBe(`10.0.0.${ip}`);
    expect((await state(d)).data).toEqual({
      state: 'scanned',
      scanner: { realname: `phone${n}`, avatar: expect.any(String) },
    });

    const confirm = await server.call('qrLoginConfirm', { code: d.code }, as(phone));
    expect({ code: confirm.code, msg: confirm.msg }).toEqual({ code: 0, msg: translate('en', 'ok.qrLoginConfirmed') });
    const done = (await state(d)).data;
    expect(done.state).toBe('confirmed');
    expect(done.login.authToken).toBe(`bearer ${d.secret}`);
    expect(done.login.userInfo.user_id).toBe(phone.userId);

    // The page's token works, and its session is a row of its own made by QR login with the page's device.
    const me = await server.call('checkuser', {}, { token: done.login.authToken });
    expect(me.data.user_id).toBe(phone.userId);
    const row = await server.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', done.login.sessionId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: phone.userId, via: 'qr', user_agent: DESKTOP_UA, is_mobile: 0 });
    const phoneSession = await server.ctx.sessions.fromToken(phone.token);
    expect(row.approved_by).toBe(phoneSession!.id);

    const listed = await server.call('webSessions', {}, as(phone));
    expect(listed.data).toEqual([
      {
        session_id: done.login.sessionId,
        device: { browser: 'Chrome', os: 'Linux' },
        via: 'qr',
        place: '',
        lan: false,
        create_time: server.clock.now(),
        last_seen: server.clock.now(),
        current: false,
      },
    ]);
    // The web session does not list itself.
    expect((await server.call('webSessions', {}, { token: done.login.authToken })).data).toEqual([]);
    const end = await server.call('webSessionEnd', { session_id: done.login.sessionId }, as(phone));
    expect(end.code, end.msg).toBe(0);
    expect((await server.call('checkuser', {}, { token: done.login.authToken })).code).toBe(ErrorCodes.NoSession);
    expect((await server.call('webSessions', {}, as(phone))).data).toEqual([]);
    expect((await state(d)).data).toEqual({ state: 'expired' });
    // The code was used: scanning or confirming it again is refused.
    expectRefused(await server.call('qrLoginScan', { code: d.code }, as(phone)), 'QrLoginGone');
    expectRefused(await server.call('qrLoginConfirm', { code: d.code }, as(phone)), 'QrLoginGone');
  });

  it('cancel on the phone: the page shows it cancelled, and the code signs no one in', async () => {
    const phone = await fresh('phone');
    const d = await desktop();
    await server.call('qrLoginScan', { code: d.code }, as(phone));
    expect((await server.call('qrLoginCancel', { code: d.code }, as(phone))).code).toBe(0);
    expect((await state(d)).data).toEqual({ state: 'cancelled' });
    expectRefused(await server.call('qrLoginConfirm', { code: d.code }, as(phone)), 'QrLoginGone');
  });

  it('expires about two minutes after it is shown, or after it is scanned', async () => {
    const phone = await fresh('phone');
    const d = await desktop();
    server.clock.advance(QR_LOGIN_VALID_MS);
    expect((await state(d)).data).toEqual({ state: 'expired' });
    expectRefused(await server.call('qrLoginScan', { code: d.code }, as(phone)), 'QrLoginGone');

    const d2 = await desktop();
    server.clock.advance(QR_LOGIN_VALID_MS - 1000);
    await server.call('qrLoginScan', { code: d2.code }, as(phone));
    server.clock.advance(QR_LOGIN_VALID_MS);
    expect((await state(d2)).data).toEqual({ state: 'expired' });
    expectRefused(await server.call('qrLoginConfirm', { code: d2.code }, as(phone)), 'QrLoginGone');
  });

  it('from outside: another user, a wrong secret and a code that does not exist are answered alike', async () => {
    const [phone, other] = [await fresh('phone'), await fresh('other')];
    const missing = { code: 'AAAAAAAAAAAAAAAAAAAAAA' };
    const d = await desktop();
    await server.call('qrLoginScan', { code: d.code }, as(phone));

    // A code scanned by one user is no one else's to scan, confirm or cancel.
    for (const route of ['qrLoginScan', 'qrLoginConfirm', 'qrLoginCancel'] as const) {
      expectRefused(await server.call(route, { code: d.code }, as(other)), 'QrLoginGone');
      expectRefused(await server.call(route, missing, as(other)), 'QrLoginGone');
    }
    // Confirming is only for the one who scanned: a code no one scanned is refused too.
    const unscanned = await desktop();
    expectRefused(await server.call('qrLoginConfirm', { code: unscanned.code }, as(phone)), 'QrLoginGone');
    // Without a session, nothing but the page's own calls.
    expect((await server.call('qrLoginScan', { code: d.code })).code).toBe(ErrorCodes.NoSession);
    expect((await server.call('qrLoginConfirm', { code: d.code })).code).toBe(ErrorCodes.NoSession);

    // Who sees the QR knows the code, not the secret.
    const wrongSecret = await server.call('qrLoginState', { code: d.code, secret: 'x'.repeat(43) });
    expectRefused(wrongSecret, 'QrLoginGone');
    expectRefused(await server.call('qrLoginState', { ...missing, secret: d.secret }), 'QrLoginGone');
    expect((await state(d)).data.state).toBe('scanned');

    // A web session is its own user's to end; another's and a password session answer as none.
    await server.call('qrLoginConfirm', { code: d.code }, as(phone));
    const sessionId = (await state(d)).data.login.sessionId as number;
    const phoneSession = (await server.ctx.sessions.fromToken(phone.token))!.id;
    for (const id of [sessionId, phoneSession, 9_999_999]) {
      expectRefused(await server.call('webSessionEnd', { session_id: id }, as(other)), 'NotFound');
    }
    expectRefused(await server.call('webSessionEnd', { session_id: phoneSession }, as(phone)), 'NotFound');
    expect((await server.call('webSessions', {}, as(other))).data).toEqual([]);
    expect((await server.call('checkuser', {}, { token: `bearer ${d.secret}` })).data.user_id).toBe(phone.userId);
  });

  it('a session made by QR login may neither scan nor confirm another code', async () => {
    const phone = await fresh('phone');
    const first = await desktop();
    await server.call('qrLoginScan', { code: first.code }, as(phone));
    await server.call('qrLoginConfirm', { code: first.code }, as(phone));
    const web = { token: `bearer ${first.secret}` };
    expect((await server.call('checkuser', {}, web)).data.user_id).toBe(phone.userId);

    // The web session cannot claim a code, nor confirm one its user's phone scanned.
    const d = await desktop();
    expectRefused(await server.call('qrLoginScan', { code: d.code }, web), 'QrLoginGone');
    expect((await state(d)).data).toEqual({ state: 'waiting' });
    await server.call('qrLoginScan', { code: d.code }, as(phone));
    expectRefused(await server.call('qrLoginConfirm', { code: d.code }, web), 'QrLoginGone');
    expect((await state(d)).data.state).toBe('scanned');
    const rows = () =>
      server.ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', phone.userId)
        .where('via', '=', 'qr')
        .execute();
    expect(await rows()).toHaveLength(1);

    // The phone's own session still confirms it.
    expect((await server.call('qrLoginConfirm', { code: d.code }, as(phone))).code).toBe(0);
    expect(await rows()).toHaveLength(2);
  });

  it('confirms fired at once from two of the scanner’s devices make one session', async () => {
    const phone = await fresh('phone');
    const tablet = await server.ctx.sessions.create(phone.userId, {
      cid: '',
      isMobile: true,
      userAgent: 'test',
      ip: '127.0.0.1',
    });
    for (let t = 0; t < 3; t++) {
      const d = await desktop();
      await server.call('qrLoginScan', { code: d.code }, as(phone));
      const tokens = [phone.token, `bearer ${tablet.token}`];
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => server.call('qrLoginConfirm', { code: d.code }, { token: tokens[i % 2] })),
      );
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
      for (const a of answers.filter((x) => x.code !== 0)) expectRefused(a, 'QrLoginGone');
    }
    const rows = await server.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', phone.userId)
      .where('via', '=', 'qr')
      .execute();
    expect(rows).toHaveLength(3);
  });

  if (target === 'postgres') {
    it('on two servers of one database: a code made on one is scanned and confirmed on the other, once', async () => {
      const second = await buildApp(
        {
          ...loadConfig({}),
          port: 0,
          dataDir: server.dataDir,
          databaseUrl: server.ctx.env.databaseUrl,
          logLevel: 'silent',
        },
        { now: server.clock.now, logger: false },
      );
      try {
        const phone = await fresh('phone');
        const d = await desktop();
        const other = async (path: string, body: object, token?: string) =>
          (
            await second.app.inject({
              method: 'POST',
              url: path,
              headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
              payload: JSON.stringify(body),
            })
          ).json() as Envelope<any>;
        expect((await other('/enterprise/im/qrLoginScan', { code: d.code }, phone.token)).code).toBe(0);
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            i % 2
              ? other('/enterprise/im/qrLoginConfirm', { code: d.code }, phone.token)
              : server.call('qrLoginConfirm', { code: d.code }, as(phone)),
          ),
        );
        expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
        const seen = await other('/common/Pub/qrLoginState', { code: d.code, secret: d.secret });
        expect(seen.data.state).toBe('confirmed');
      } finally {
        await second.app.close();
      }
    });
  }

  it('one address may ask for rateLimits.qrLogin.perMinute codes a minute, and a changed setting applies at once', async () => {
    const ask = (ip: string) => server.call('qrLoginCreate', {}, { ip });
    expect(server.ctx.config.get().rateLimits.qrLogin.perMinute).toBe(RATE_LIMITS.qrLogin.perMinute);
    for (let i = 0; i < RATE_LIMITS.qrLogin.perMinute; i++) {
      expect((await ask('10.9.9.9')).code).toBe(0);
    }
    expect((await ask('10.9.9.9')).code).toBe(ErrorCodes.TooMany);
    // Another address keeps a budget of its own.
    expect((await ask('10.9.9.10')).code).toBe(0);

    try {
      // Lowered: the address at 1 is refused its next code within the same minute, without a restart.
      await server.ctx.config.set('rateLimits.qrLogin.perMinute', '2');
      expect((await ask('10.9.9.10')).code).toBe(0);
      expect((await ask('10.9.9.10')).code).toBe(ErrorCodes.TooMany);
      // Raised: the address that ran out may ask again until the new number.
      await server.ctx.config.set('rateLimits.qrLogin.perMinute', String(RATE_LIMITS.qrLogin.perMinute + 2));
      expect((await ask('10.9.9.9')).code).toBe(0);
      expect((await ask('10.9.9.9')).code).toBe(ErrorCodes.TooMany);
    } finally {
      await server.ctx.config.set('rateLimits.qrLogin.perMinute', String(RATE_LIMITS.qrLogin.perMinute));
    }
  });
});
