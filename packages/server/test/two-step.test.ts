import { Secret, TOTP } from 'otpauth';
import {
  ErrorCodes,
  EXPORT_DOWNLOAD_PATH,
  LOGIN_TICKET_TRIES_MAX,
  LOGIN_TICKET_TTL_MS,
  RATE_LIMITS,
  RECOVERY_CODE_COUNT,
  SocketCloseCodes,
  TWO_STEP_TRIES_PER_USER_MAX,
  translate,
  type Envelope,
  type ErrorName,
} from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

/**
 * Two-step sign-in (issue 42 point 2): an authenticator app set up with a code, the sign-in's second
 * step (a ticket, then a code or a recovery code), each code and ticket good once also when answers
 * come at once (on PostgreSQL from two servers of one database too), wrong codes counted towards the
 * login lockout, turning it off with the password and a code, the policy requiring a second factor,
 * and old clients told to use the new one. Seeds sealed and recovery codes hashed at rest.
 */

type User = Awaited<ReturnType<typeof signUp>>;

function expectRefused(res: Envelope<any>, name: ErrorName) {
  expect({ code: res.code, msg: res.msg }).toEqual({ code: ErrorCodes[name], msg: translate('en', `errors.${name}`) });
}

describeEachDb('two-step sign-in', (target) => {
  let server: TestServer;
  let n = 0;
  let ip = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}ts`, 'secret123', `${name}${n}`);
  const as = (u: User) => ({ token: u.token });
  /** The code an authenticator app shows now (the server's clock) for a base32 secret. */
  const codeOf = (secret: string, offsetMs = 0) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: server.clock.now() + offsetMs });

  /** Sets up an authenticator app for `u`; answers its secret and recovery codes. */
  async function turnOn(u: User): Promise<{ secret: string; codes: string[] }> {
    const begin = await server.call('totpBegin', {}, as(u));
    expect(begin.code, begin.msg).toBe(0);
    const confirm = await server.call('totpConfirm', { code: codeOf(begin.data.secret) }, as(u));
    expect(confirm.code, confirm.msg).toBe(0);
    // The code just used is spent: the next one an app shows comes with the next step.
    server.clock.advance(30_000);
    return { secret: begin.data.secret, codes: confirm.data.codes };
  }

  /** The first step from an address of its own: the ticket. */
  async function firstStep(
    u: User,
    from = `10.1.0.${++ip}`,
  ): Promise<{ ticket: string; methods: string[]; from: string }> {
    const res = await server.call('login', { account: u.account, password: u.password, two_step: 1 }, { ip: from });
    expect(res.code, res.msg).toBe(0);
    expect(res.data.authToken).toBeUndefined();
    return { ...res.data.two_step, from };
  }

  const second = (ticket: string, code: string, from: string) =>
    server.call('loginTwoStep', { ticket, code }, { ip: from });

  const sessionsOf = async (userId: number) =>
    Number(
      (
        await server.ctx.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('set up: a secret as an otpauth:// address, a wrong code refused, the right one turns it on with ten recovery codes', async () => {
    const u = await fresh('setup');
    const begin = await server.call('totpBegin', {}, as(u));
    expect(begin.code, begin.msg).toBe(0);
    expect(begin.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(begin.data.uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(begin.data.secret);
    expect(decodeURIComponent(uri.pathname)).toContain(u.account);

    // Sealed at rest: the seed is nowhere in its row, and the row opens only under its own user's context.
    const row = await server.ctx.db
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', u.userId)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(begin.data.secret);
    expect(row.enabled_at).toBe(0);
    expect(server.ctx.sealer.open(row.secret, `totp:${u.userId}`)).toBe(begin.data.secret);
    expect(() => server.ctx.sealer.open(row.secret, `totp:${u.userId + 1}`)).toThrow();

    const wrongCode = codeOf(begin.data.secret, 5 * 60_000);
    expectRefused(await server.call('totpConfirm', { code: wrongCode }, as(u)), 'CodeInvalid');
    expect((await server.call('twoStepStatus', {}, as(u))).data).toEqual({
      totp: false,
      recoveryLeft: 0,
      passkeys: 0,
      required: false,
    });

    const confirm = await server.call('totpConfirm', { code: codeOf(begin.data.secret) }, as(u));
    expect(confirm.code, confirm.msg).toBe(0);
    const codes: string[] = confirm.data.codes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await server.call('twoStepStatus', {}, as(u))).data).toEqual({
      totp: true,
      recoveryLeft: RECOVERY_CODE_COUNT,
      passkeys: 0,
      required: false,
    });
    const user = await server.ctx.repos.users.byId(u.userId);
    expect(user?.two_step).toBe(1);

    // Hashed at rest: no code in its rows, in either form.
    const stored = await server.ctx.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', u.userId)
      .execute();
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    const text = JSON.stringify(stored);
    for (const c of codes) {
      expect(text).not.toContain(c);
      expect(text).not.toContain(c.replace('-', ''));
    }

    // Once on, a second setup is refused until it is turned off.
    expectRefused(await server.call('totpBegin', {}, as(u)), 'TwoStepAlreadyOn');
    expectRefused(await server.call('totpConfirm', { code: codeOf(begin.data.secret) }, as(u)), 'TwoStepAlreadyOn');

    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['admin_id', 'action', 'target'])
      .where('target', '=', String(u.userId))
      .where('action', '=', 'twoStepOn')
      .execute();
    expect(audit).toEqual([{ admin_id: u.userId, action: 'twoStepOn', target: String(u.userId) }]);
  });

  it('sign-in asks for the second step: a ticket, no session, and the code then signs in', async () => {
    const u = await fresh('signin');
    const { secret } = await turnOn(u);
    const before = await sessionsOf(u.userId);
    const { ticket, methods, from } = await firstStep(u);
    expect(methods).toEqual(['totp', 'recovery']);
    expect(await sessionsOf(u.userId)).toBe(before);

    const done = await second(ticket, codeOf(secret), from);
    expect(done.code, done.msg).toBe(0);
    expect(done.data.authToken).toMatch(/^bearer /);
    expect(done.data.userInfo.user_id).toBe(u.userId);
    const me = await server.call('checkuser', {}, { token: done.data.authToken });
    expect(me.data.user_id).toBe(u.userId);
    // The ticket is used up.
    server.clock.advance(30_000);
    expectRefused(await second(ticket, codeOf(secret), from), 'TwoStepTicketGone');
  });

  it('a code is accepted once: the same code again is refused, the next step’s code works', async () => {
    const u = await fresh('once');
    const { secret } = await turnOn(u);
    const code = codeOf(secret);
    const a = await firstStep(u);
    expect((await second(a.ticket, code, a.from)).code).toBe(0);
    const b = await firstStep(u);
    expectRefused(await second(b.ticket, code, b.from), 'CodeInvalid');
    // A code of the step before the one used is older still: refused too.
    expectRefused(await second(b.ticket, codeOf(secret, -30_000), b.from), 'CodeInvalid');
    server.clock.advance(30_000);
    expect((await second(b.ticket, codeOf(secret), b.from)).code).toBe(0);
  });

  it('a ticket expires after LOGIN_TICKET_TTL_MS', async () => {
    const u = await fresh('expire');
    const { secret } = await turnOn(u);
    const t = await firstStep(u);
    server.clock.advance(LOGIN_TICKET_TTL_MS + 1);
    expectRefused(await second(t.ticket, codeOf(secret), t.from), 'TwoStepTicketGone');
  });

  it('a recovery code signs in once, also when two sign-ins send it at once', async () => {
    const u = await fresh('recovery');
    const { codes } = await turnOn(u);
    const [first, next] = codes as [string, string];
    const a = await firstStep(u);
    // As typed: capitals and no dash are the same code.
    expect((await second(a.ticket, first.toUpperCase().replace('-', ''), a.from)).code).toBe(0);
    const b = await firstStep(u);
    expectRefused(await second(b.ticket, first, b.from), 'CodeInvalid');
    expect((await server.call('twoStepStatus', {}, as(u))).data.recoveryLeft).toBe(RECOVERY_CODE_COUNT - 1);

    // Two sign-ins, each with a ticket of its own, send the same unused code at once: one gets in.
    const tickets = await Promise.all(Array.from({ length: 6 }, () => firstStep(u)));
    const before = await sessionsOf(u.userId);
    const answers = await Promise.all(tickets.map((t) => second(t.ticket, next, t.from)));
    expect(answers.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of answers.filter((x) => x.code !== 0)) expectRefused(r, 'CodeInvalid');
    expect(await sessionsOf(u.userId)).toBe(before + 1);
  });

  it('one ticket answered by several good codes at once makes one session', async () => {
    const u = await fresh('race');
    const { codes } = await turnOn(u);
    const t = await firstStep(u);
    const before = await sessionsOf(u.userId);
    const answers = await Promise.all(codes.slice(0, 6).map((c) => second(t.ticket, c, t.from)));
    expect(answers.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of answers.filter((x) => x.code !== 0)) expectRefused(r, 'TwoStepTicketGone');
    expect(await sessionsOf(u.userId)).toBe(before + 1);
  });

  it('wrong codes count towards the login lockout, and a ticket dies after LOGIN_TICKET_TRIES_MAX of them', async () => {
    expect(LOGIN_TICKET_TRIES_MAX).toBeLessThanOrEqual(RATE_LIMITS.loginFailures.max);
    const u = await fresh('lockout');
    const { secret } = await turnOn(u);
    const t = await firstStep(u);
    const wrong = codeOf(secret, 10 * 60_000);
    for (let i = 0; i < LOGIN_TICKET_TRIES_MAX; i++)
      expectRefused(await second(t.ticket, wrong, t.from), 'CodeInvalid');
    // The ticket is gone, even for the right code, and the account is locked from that address.
    const right = await second(t.ticket, codeOf(secret), t.from);
    expect(right.code).not.toBe(0);
    const again = await server.call('login', { account: u.account, password: u.password, two_step: 1 }, { ip: t.from });
    expect(again.code).toBe(ErrorCodes.LoginLocked);
    // Another address is not locked.
    const elsewhere = await firstStep(u);
    expect((await second(elsewhere.ticket, codeOf(secret), elsewhere.from)).code).toBe(0);
  });

  it('turning it off takes the password and a code; then sign-in is one step again', async () => {
    const u = await fresh('off');
    const { secret, codes } = await turnOn(u);
    const from = `10.2.0.${++ip}`;
    const off = (body: Record<string, unknown>) => server.call('totpDisable', body, { ...as(u), ip: from });
    const wrongPassword = await off({ password: 'not-the-one', code: codeOf(secret) });
    expect(wrongPassword.code).toBe(ErrorCodes.OriginalPasswordWrong);
    expectRefused(await off({ password: u.password, code: codeOf(secret, 10 * 60_000) }), 'CodeInvalid');
    expect((await server.call('twoStepStatus', {}, as(u))).data.totp).toBe(true);
    // A recovery code does as well as the app's.
    expect((await off({ password: u.password, code: codes[0] })).code).toBe(0);
    expect((await server.call('twoStepStatus', {}, as(u))).data).toMatchObject({ totp: false, recoveryLeft: 0 });
    expect((await server.ctx.repos.users.byId(u.userId))?.two_step).toBe(0);
    expectRefused(await off({ password: u.password, code: codes[1] }), 'TwoStepOff');

    const login = await server.call('login', { account: u.account, password: u.password, two_step: 1 }, { ip: from });
    expect(login.code, login.msg).toBe(0);
    expect(login.data.authToken).toMatch(/^bearer /);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('admin_id')
      .where('target', '=', String(u.userId))
      .where('action', '=', 'twoStepOff')
      .execute();
    expect(audit).toEqual([{ admin_id: u.userId }]);
  });

  it('new recovery codes take a code of the app, and the old ones stop working', async () => {
    const u = await fresh('renew');
    const { secret, codes } = await turnOn(u);
    expectRefused(await server.call('recoveryCodesNew', { code: codeOf(secret, 10 * 60_000) }, as(u)), 'CodeInvalid');
    const renewed = await server.call('recoveryCodesNew', { code: codeOf(secret) }, as(u));
    expect(renewed.code, renewed.msg).toBe(0);
    expect(renewed.data.codes).toHaveLength(RECOVERY_CODE_COUNT);
    const t = await firstStep(u);
    expectRefused(await second(t.ticket, codes[0]!, t.from), 'CodeInvalid');
    expect((await second(t.ticket, renewed.data.codes[0], t.from)).code).toBe(0);
  });

  it('guessing at new recovery codes with a session counts as second-step answers: after TWO_STEP_TRIES_PER_USER_MAX it is locked', async () => {
    const u = await fresh('renewguess');
    const { secret } = await turnOn(u);
    const wrong = codeOf(secret, 10 * 60_000);
    const codes: number[] = [];
    for (let i = 0; i <= TWO_STEP_TRIES_PER_USER_MAX; i++)
      codes.push((await server.call('recoveryCodesNew', { code: wrong }, as(u))).code);
    expect(codes.slice(0, TWO_STEP_TRIES_PER_USER_MAX).every((c) => c === ErrorCodes.CodeInvalid)).toBe(true);
    expect(codes.at(-1)).toBe(ErrorCodes.LoginLocked);
    // The right code waits for the window too.
    expect((await server.call('recoveryCodesNew', { code: codeOf(secret) }, as(u))).code).toBe(ErrorCodes.LoginLocked);
    server.clock.advance(RATE_LIMITS.loginFailures.windowS * 1000 + 1000);
    expect((await server.call('recoveryCodesNew', { code: codeOf(secret) }, as(u))).code).toBe(0);
  });

  it('an old client (no two_step) is told to use the new one, in its language; one without a second factor signs in', async () => {
    const u = await fresh('old');
    const plain = await server.call('login', { account: u.account, password: u.password });
    expect(plain.code, plain.msg).toBe(0);
    await turnOn(u);
    const refused = await server.call('login', { account: u.account, password: u.password }, { lang: null });
    expect(refused).toMatchObject({
      code: ErrorCodes.TwoStepClientTooOld,
      msg: '需要二次验证，请使用新版客户端',
    });
    expect(refused.data?.authToken).toBeUndefined();
  });

  it('the policy: admins required → an admin without a factor may only set one up, then everything', async () => {
    const admin = await fresh('admin');
    const plain = await fresh('plain');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
    await server.ctx.config.set('account.twoStepRequired', '1');
    try {
      expectRefused(await server.call('getContacts', {}, as(admin)), 'TwoStepSetupRequired');
      expectRefused(await server.call('manageStats', {}, as(admin)), 'TwoStepSetupRequired');
      expect((await server.call('getContacts', {}, as(plain))).code).toBe(0);
      expect((await server.call('checkuser', {}, as(admin))).code).toBe(0);
      expect((await server.call('twoStepStatus', {}, as(admin))).data).toMatchObject({ totp: false, required: true });
      expect((await server.call('twoStepStatus', {}, as(plain))).data).toMatchObject({ required: false });
      // Its sign-in goes through (it has no second factor to ask for) and lands on the same gate.
      const login = await server.call('login', { account: admin.account, password: admin.password, two_step: 1 });
      expect(login.code, login.msg).toBe(0);
      // The user's record tells the client to open the setup.
      expect(login.data.userInfo.two_step_setup).toBe(1);
      expect((await server.call('checkuser', {}, as(plain))).data.two_step_setup).toBeUndefined();
      expectRefused(await server.call('getContacts', {}, { token: login.data.authToken }), 'TwoStepSetupRequired');

      await turnOn(admin);
      expect((await server.call('checkuser', {}, as(admin))).data.two_step_setup).toBeUndefined();
      expect((await server.call('getContacts', {}, as(admin))).code).toBe(0);
      expect((await server.call('manageStats', {}, as(admin))).code).toBe(0);

      // Everyone: the plain user is now led to the setup too.
      await server.ctx.config.set('account.twoStepRequired', '2');
      expectRefused(await server.call('getContacts', {}, as(plain)), 'TwoStepSetupRequired');
      expect((await server.call('logout', {}, as(plain))).code).toBe(0);
    } finally {
      await server.ctx.config.set('account.twoStepRequired', '0');
    }
  });

  it('the setup routes are the user’s own: signed out refused, and a ticket is no session', async () => {
    for (const name of ['twoStepStatus', 'totpBegin', 'totpConfirm', 'totpDisable', 'recoveryCodesNew'] as const) {
      expect((await server.call(name, { code: '123456', password: 'secret123' })).code).toBe(ErrorCodes.NoSession);
    }
    const u = await fresh('ticket');
    await turnOn(u);
    const t = await firstStep(u);
    expect((await server.call('checkuser', {}, { token: `bearer ${t.ticket}` })).code).toBe(ErrorCodes.NoSession);
    expectRefused(await second('A'.repeat(43), '123456', t.from), 'TwoStepTicketGone');
  });

  it('40 wrong codes at once on one ticket: at most LOGIN_TICKET_TRIES_MAX are checked, the rest refused, the ticket gone', async () => {
    const u = await fresh('burst');
    const { secret } = await turnOn(u);
    const t = await firstStep(u);
    const wrong = codeOf(secret, 10 * 60_000);
    const answers = await Promise.all(Array.from({ length: 40 }, () => second(t.ticket, wrong, t.from)));
    const named = (name: ErrorName) => answers.filter((r) => r.msg === translate('en', `errors.${name}`)).length;
    // Error codes are shared (400): the answers are told apart by their message.
    expect(named('CodeInvalid')).toBeGreaterThan(0);
    expect(named('CodeInvalid')).toBeLessThanOrEqual(LOGIN_TICKET_TRIES_MAX);
    const locked = answers.filter((r) => r.code === ErrorCodes.LoginLocked).length;
    expect(named('CodeInvalid') + named('TwoStepTicketGone') + locked).toBe(40);
    // The right code no longer answers it, and the ticket's row is gone.
    expectRefused(await second(t.ticket, codeOf(secret), `10.4.0.${++ip}`), 'TwoStepTicketGone');
    const left = await server.ctx.db.selectFrom('login_tickets').select('id').where('user_id', '=', u.userId).execute();
    expect(left).toEqual([]);
  });

  it('a user’s second step is capped across addresses: after TWO_STEP_TRIES_PER_USER_MAX answers it is locked', async () => {
    const u = await fresh('spread');
    const { secret } = await turnOn(u);
    const wrong = codeOf(secret, 10 * 60_000);
    const refused: string[] = [];
    // Each ticket from an address of its own, each answer from yet another (X-Forwarded-For, as login-abuse.test.ts).
    for (let i = 0; i < 3; i++) {
      const t = await firstStep(u);
      for (let j = 0; j < 4; j++) refused.push((await second(t.ticket, wrong, `10.5.${i}.${j + 1}`)).msg);
    }
    const invalid = translate('en', 'errors.CodeInvalid');
    const locked = translate('en', 'errors.LoginLocked', { minutes: 1, seconds: 1 }).slice(0, 8);
    expect(refused.slice(0, TWO_STEP_TRIES_PER_USER_MAX).every((m) => m === invalid)).toBe(true);
    expect(refused.slice(TWO_STEP_TRIES_PER_USER_MAX).every((m) => m.startsWith(locked))).toBe(true);
    // Even the right code, on a new ticket from a new address, waits for the window.
    const t = await firstStep(u);
    const late = await second(t.ticket, codeOf(secret), t.from);
    expect(late.code).toBe(ErrorCodes.LoginLocked);
    expect(late.msg.startsWith(locked)).toBe(true);
    server.clock.advance(RATE_LIMITS.loginFailures.windowS * 1000 + 1000);
    const later = await firstStep(u);
    expect((await second(later.ticket, codeOf(secret), later.from)).code).toBe(0);
  });

  it('a user who must set up a factor: login with client_id binds no socket, a socket bound before is closed at its heartbeat', async () => {
    const u = await fresh('nosock');
    const before = await TestSocket.bound(server, u.userId, u.token);
    await server.ctx.config.set('account.twoStepRequired', '2');
    try {
      before.send({ type: 'ping' });
      expect(await before.waitClosed()).toBe(SocketCloseCodes.SessionEnded);

      const sock = await TestSocket.open(server);
      const login = await server.call('login', {
        account: u.account,
        password: u.password,
        two_step: 1,
        client_id: sock.clientId,
      });
      expect(login.code, login.msg).toBe(0);
      expect(login.data.userInfo.two_step_setup).toBe(1);
      // The socket stays a stranger's: nothing is pushed to it.
      expect(server.ctx.realtime.hub.get(sock.clientId)?.userId ?? null).toBeNull();
      sock.close();

      // An old client of such a user cannot set a factor up: it is told to use the new one.
      expectRefused(await server.call('login', { account: u.account, password: u.password }), 'TwoStepClientTooOld');

      // The data export's download is behind the same gate.
      const download = await fetch(`${server.url}${EXPORT_DOWNLOAD_PATH}?id=1`, {
        headers: { authorization: login.data.authToken, 'accept-language': 'en' },
      });
      expect(download.status).toBe(403);
      expectRefused((await download.json()) as Envelope<null>, 'TwoStepSetupRequired');
    } finally {
      await server.ctx.config.set('account.twoStepRequired', '0');
    }
  });

  it('an account with no password (made through a provider) turns the app off with a code and a recovery code', async () => {
    const u = await fresh('nopass');
    const { secret, codes } = await turnOn(u);
    await server.ctx.db.updateTable('users').set({ password_hash: '' }).where('id', '=', u.userId).execute();
    const from = `10.6.0.${++ip}`;
    const off = (body: Record<string, unknown>) => server.call('totpDisable', body, { ...as(u), ip: from });
    expectRefused(await off({ password: 'abcde-fghjk', code: codes[0] }), 'OriginalPasswordWrong');
    const done = await off({ password: codeOf(secret), code: codes[1] });
    expect(done.code, done.msg).toBe(0);
    expect((await server.ctx.repos.users.byId(u.userId))?.two_step).toBe(0);
  });

  it('confirming turns on only the seed the code was checked against', async () => {
    const u = await fresh('seed');
    const begin = await server.call('totpBegin', {}, as(u));
    expect(begin.code, begin.msg).toBe(0);
    const row = await server.ctx.repos.twoStep.totpOf(u.userId);
    const step = Math.floor(server.clock.now() / 30_000);
    expect(
      await server.ctx.repos.twoStep.enableTotp(u.userId, `${row!.secret}x`, step, ['h'], server.clock.now()),
    ).toBe(false);
    expect(await server.ctx.repos.twoStep.enableTotp(u.userId, row!.secret, step, ['h'], server.clock.now())).toBe(
      true,
    );
  });

  it('turning the app off while a passkey is added at once leaves two_step on', async () => {
    for (let i = 0; i < 5; i++) {
      const u = await fresh('race');
      await turnOn(u);
      const { repos } = server.ctx;
      await Promise.all([
        repos.twoStep.disableTotp(u.userId),
        repos.passkeys.add(
          { user_id: u.userId, credential_id: `race-${u.userId}`, public_key: 'k', create_time: server.clock.now() },
          10,
          (trx) => repos.factors.refreshTwoStep(u.userId, trx),
        ),
      ]);
      expect((await repos.users.byId(u.userId))?.two_step).toBe(1);
    }
  });

  if (target === 'postgres') {
    describe('two servers of one database', () => {
      it('a ticket asked of one is answered on both at once: one session; a code is used once across them', async () => {
        const redisUrl = process.env.REDIS_URL;
        const env = { ...loadConfig({}), port: 0, dataDir: server.dataDir, databaseUrl: server.ctx.env.databaseUrl };
        const other = await buildApp(
          { ...env, logLevel: 'silent', redisUrl },
          { now: server.clock.now, logger: false },
        );
        try {
          const u = await fresh('nodes');
          const { secret, codes } = await turnOn(u);
          const viaOther = async (path: string, body: object) =>
            (
              await other.app.inject({
                method: 'POST',
                url: path,
                headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.3.0.1' },
                payload: JSON.stringify(body),
              })
            ).json() as Envelope<any>;
          const t = await firstStep(u);
          const before = await sessionsOf(u.userId);
          const answers = await Promise.all(
            codes
              .slice(0, 8)
              .map((c, i) =>
                i % 2
                  ? viaOther('/common/Pub/loginTwoStep', { ticket: t.ticket, code: c })
                  : second(t.ticket, c, t.from),
              ),
          );
          expect(answers.filter((r) => r.code === 0)).toHaveLength(1);
          expect(await sessionsOf(u.userId)).toBe(before + 1);

          // The same app code sent to both servers for two tickets: one sign-in.
          const [a, b] = await Promise.all([firstStep(u), firstStep(u)]);
          const code = codeOf(secret);
          const both = await Promise.all([
            second(a.ticket, code, a.from),
            viaOther('/common/Pub/loginTwoStep', { ticket: b.ticket, code }),
          ]);
          expect(both.filter((r) => r.code === 0)).toHaveLength(1);
        } finally {
          await other.app.close();
        }
      });
    });
  }
});
