import fs from 'node:fs';
import path from 'node:path';
import { translate } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb, expectBadBodies, MISSING, signUp, startServer, type TestServer } from './harness';

describeEachDb('sendCode and verification codes', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('sysInfo.regauth', '3');
  });
  afterAll(async () => {
    await server.close();
  });

  const register = (account: string, code: string) =>
    server.call('register', { account, password: 'secret123', realname: 'R', code });
  const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  const codeRows = (account: string) =>
    server.ctx.db.selectFrom('verify_codes').selectAll().where('account', '=', account).orderBy('id').execute();

  it('delivers a six-digit code to the outbox, in the caller’s language, and stores only its hash', async () => {
    const res = await server.call('sendCode', { account: 'Ann@Example.com', type: 2 }, { lang: 'fr' });
    expect(res).toEqual({ code: 0, msg: 'Code de vérification envoyé', data: null });
    const outbox = path.join(server.dataDir, 'outbox');
    const letters = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    expect(letters).toHaveLength(1);
    const code = server.lastCode('Ann@Example.com');
    expect(code).toMatch(/^\d{6}$/);
    expect(letters[0]).toContain(translate('fr', 'code.body', { code, minutes: 5 }));
    expect(letters[0]).toContain('Subject: Code de vérification Sparrow');

    const rows = await codeRows('ann@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash).not.toBe(code);
    expect(rows[0]!.code_hash).not.toContain(code);
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code);

    expect((await register('ann@example.com', code)).code).toBe(0);
  });

  it('refuses a bad body, field by field', async () => {
    await expectBadBodies(server, 'sendCode', { account: 'badbody@example.com', type: 2 }, [
      { field: 'account', value: MISSING, key: 'validation.required' },
      { field: 'account', value: '   ', key: 'validation.required' },
      { field: 'account', value: `${'x'.repeat(120)}@example.com`, key: 'validation.tooLong', params: { max: 128 } },
      { field: 'account', value: { a: 1 }, key: 'validation.invalid' },
      { field: 'type', value: MISSING, key: 'validation.required' },
      { field: 'type', value: 0, key: 'validation.invalid' },
      { field: 'type', value: 5, key: 'validation.invalid' },
      { field: 'type', value: 'two', key: 'validation.invalid' },
      { field: 'type', value: 2.5, key: 'validation.invalid' },
    ]);
    expect(await codeRows('badbody@example.com')).toHaveLength(0);
  });

  it('sends once per 60 s per account, with HTTP 429', async () => {
    expect((await server.call('sendCode', { account: 'bea@example.com', type: 2 })).code).toBe(0);
    const first = server.lastCode('bea@example.com');
    server.clock.advance(30_000);
    const again = await server.callRaw('sendCode', { account: 'BEA@example.com', type: 2 });
    expect(again.status).toBe(429);
    expect(again.json).toEqual({ code: 429, msg: 'Sent too often, try again in 30 seconds', data: null });
    expect(again.headers['retry-after']).toBe('30');
    expect((await server.call('sendCode', { account: 'bea@example.com', type: 2 }, { lang: null })).msg).toBe(
      '发送太频繁，请 30 秒后再试',
    );
    expect((await server.call('sendCode', { account: 'bea2@example.com', type: 2 })).code).toBe(0);
    server.clock.advance(29_000);
    expect((await server.call('sendCode', { account: 'bea@example.com', type: 2 })).code).toBe(429);
    expect(await codeRows('bea@example.com')).toHaveLength(1);
    server.clock.advance(1_000);
    expect((await server.call('sendCode', { account: 'bea@example.com', type: 2 })).code).toBe(0);
    const second = server.lastCode('bea@example.com');
    expect(await codeRows('bea@example.com')).toHaveLength(2);
    if (first !== second) expect((await register('bea@example.com', first)).code).toBe(400);
    expect((await register('bea@example.com', second)).code).toBe(0);
  });

  it('expires a code after 300 s', async () => {
    await server.call('sendCode', { account: 'cal@example.com', type: 2 });
    await server.call('sendCode', { account: 'cat@example.com', type: 2 });
    const cal = server.lastCode('cal@example.com');
    const cat = server.lastCode('cat@example.com');
    server.clock.advance(299_000);
    expect((await register('cal@example.com', cal)).code).toBe(0);
    server.clock.advance(2_000);
    const late = await register('cat@example.com', cat);
    expect(late).toMatchObject({ code: 400, msg: 'The verification code is wrong or has expired', data: null });
  });

  it('burns a code after 5 wrong tries', async () => {
    await server.call('sendCode', { account: 'dee@example.com', type: 2 });
    const code = server.lastCode('dee@example.com');
    for (let i = 0; i < 5; i++) expect((await register('dee@example.com', otherThan(code))).code).toBe(400);
    expect((await register('dee@example.com', code)).code).toBe(400);
    expect((await codeRows('dee@example.com'))[0]!.tries).toBe(5);
  });

  it('still takes the right code after 4 wrong tries', async () => {
    await server.call('sendCode', { account: 'dot@example.com', type: 2 });
    const code = server.lastCode('dot@example.com');
    for (let i = 0; i < 4; i++) expect((await register('dot@example.com', otherThan(code))).code).toBe(400);
    expect((await register('dot@example.com', code)).code).toBe(0);
  });

  it('binds a code to its account', async () => {
    await server.call('sendCode', { account: 'eve@example.com', type: 2 });
    await server.call('sendCode', { account: 'eli@example.com', type: 2 });
    const eve = server.lastCode('eve@example.com');
    const eli = server.lastCode('eli@example.com');
    if (eve !== eli) expect((await register('eli@example.com', eve)).code).toBe(400);
    expect((await register('eli@example.com', eli)).code).toBe(0);
  });

  it('type 1: logs in by a code sent to the user’s address; the code is spent once', async () => {
    await register(
      'fay@example.com',
      await (async () => {
        await server.call('sendCode', { account: 'fay@example.com', type: 2 });
        return server.lastCode('fay@example.com');
      })(),
    );
    server.clock.advance(60_000);
    expect((await server.call('sendCode', { account: 'fay@example.com', type: 1 })).code).toBe(0);
    const code = server.lastCode('fay@example.com');
    const login = await server.call('login', { account: 'fay@example.com', code });
    expect(login.code).toBe(0);
    expect(login.data.userInfo.account).toBe('fay@example.com');
    expect((await server.call('checkuser', {}, { token: login.data.authToken })).code).toBe(0);
    const reuse = await server.call('login', { account: 'fay@example.com', code });
    expect(reuse).toMatchObject({ code: 400, msg: 'The verification code is wrong or has expired' });
  });

  it('type 1: a code works once even when two logins race for it', async () => {
    await server.call('sendCode', { account: 'gus@example.com', type: 2 });
    await register('gus@example.com', server.lastCode('gus@example.com'));
    server.clock.advance(60_000);
    await server.call('sendCode', { account: 'gus@example.com', type: 1 });
    const code = server.lastCode('gus@example.com');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => server.call('login', { account: 'gus@example.com', code })),
    );
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
  });

  it('type 1: sends to the email of an account named otherwise; refuses unknown and unreachable accounts', async () => {
    await server.ctx.config.set('sysInfo.regauth', '0');
    const hal = await signUp(server, 'hal_name');
    await server.ctx.config.set('sysInfo.regauth', '3');
    const unreachable = await server.call('sendCode', { account: 'hal_name', type: 1 });
    expect(unreachable).toMatchObject({ code: 400, data: { fields: ['account'] } });
    expect((await server.call('updateUserInfo', { email: 'hal@example.com' }, { token: hal.token })).code).toBe(0);
    expect((await server.call('sendCode', { account: 'hal_name', type: 1 })).code).toBe(0);
    const code = server.lastCode('hal@example.com');
    expect((await server.call('login', { account: 'hal_name', code })).code).toBe(0);
    const unknown = await server.call('sendCode', { account: 'nobody@example.com', type: 1 }, { lang: 'es' });
    expect(unknown).toMatchObject({ code: 400, data: { fields: ['account'] } });
    expect(unknown.msg).toBe(translate('es', 'errors.NoSuchAccount'));
  });

  it('type 2: refuses an address already registered', async () => {
    const res = await server.call('sendCode', { account: 'ann@example.com', type: 2 });
    expect(res).toMatchObject({ code: 400, msg: 'This account is already registered', data: { fields: ['account'] } });
  });

  it('types 3 and 4 need a session', async () => {
    expect((await server.call('sendCode', { account: 'ann@example.com', type: 3 })).code).toBe(-1);
    expect((await server.call('sendCode', { account: 'new@example.com', type: 4 })).code).toBe(-1);
  });

  it('a code serves only its purpose', async () => {
    server.clock.advance(60_000);
    const login = await server.call('login', { account: 'fay@example.com', password: 'secret123' });
    expect((await server.call('sendCode', { account: 'fay@example.com', type: 1 })).code).toBe(0);
    const code = server.lastCode('fay@example.com');
    const res = await server.call('editPassword', { password: 'newpass123', code }, { token: login.data.authToken });
    expect(res).toMatchObject({ code: 400, msg: 'The verification code is wrong or has expired' });
    expect((await server.call('login', { account: 'fay@example.com', code })).code).toBe(0);
  });
});
