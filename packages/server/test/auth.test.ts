import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminService } from '../src/modules/admin';
import { TOUCH_EVERY_MS } from '../src/modules/auth/session';
import { PICTURES, SESSION_TTL_MS } from '@sparrow/protocol';
import {
  describeEachDb,
  expectBadBodies,
  logIn,
  MISSING,
  signUp,
  startServer,
  TestSocket,
  type TestServer,
} from './harness';

describeEachDb('register', (target) => {
  let server: TestServer;
  let admin: AdminService;
  beforeAll(async () => {
    server = await startServer(target);
    admin = new AdminService(server.ctx.repos, server.ctx.config, server.clock.now);
  });
  afterAll(async () => {
    await server.close();
  });

  const userCount = async () =>
    Number(
      (
        await server.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates the user and answers its userInfo, the password stored as scrypt', async () => {
    const res = await server.call('register', {
      account: '  Alice_01  ',
      password: 'secret123',
      repassword: 'secret123',
      realname: ' Alice ',
      email: 'Alice@Example.com',
    });
    expect(res.code).toBe(0);
    expect(res.msg).toBe('Registered');
    expect(res.data).toMatchObject({
      account: 'alice_01',
      realname: 'Alice',
      displayName: 'Alice',
      email: 'alice@example.com',
      phone: '',
      avatar: PICTURES.person,
      sex: 2,
      motto: '',
      is_auth: 0,
      role: 0,
      setting: { voiceStatus: true, vibrateStatus: false, circleAvatar: false },
    });
    expect(res.data.user_id).toBe(res.data.id);
    // My QR code (docs/protocol.md §6): a link to the landing page with a token naming me.
    expect(res.data.qrUrl).toMatch(new RegExp(`/scan/u/u${res.data.user_id}\\.`));
    expect(Object.keys(res.data)).not.toContain('password');
    const row = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', res.data.user_id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$[A-Za-z0-9+/=]{20,}\$[A-Za-z0-9+/=]{40,}$/);
    expect(row.password_hash).not.toContain('secret123');
    expect((await server.call('login', { account: 'alice_01', password: 'secret123' })).code).toBe(0);
  });

  it('refuses a bad body, field by field, in the caller’s language, and creates nothing', async () => {
    const before = await userCount();
    const valid = { account: 'bobby', password: 'secret123', repassword: 'secret123', realname: 'Bob' };
    await expectBadBodies(server, 'register', valid, [
      { field: 'account', value: MISSING, key: 'validation.required' },
      { field: 'account', value: 'abc', key: 'validation.tooShort', params: { min: 4 } },
      { field: 'account', value: '   ab   ', key: 'validation.tooShort', params: { min: 4 } },
      { field: 'account', value: 'a'.repeat(33), key: 'validation.tooLong', params: { max: 32 } },
      { field: 'account', value: 12345, key: 'validation.invalid' },
      { field: 'account', value: ['bobby'], key: 'validation.invalid' },
      { field: 'password', value: MISSING, key: 'validation.required' },
      { field: 'password', value: 'abc12', key: 'validation.tooShort', params: { min: 6 } },
      { field: 'password', value: 'x'.repeat(17), key: 'validation.tooLong', params: { max: 16 } },
      { field: 'password', value: 12345678, key: 'validation.invalid' },
      { field: 'realname', value: MISSING, key: 'validation.required' },
      { field: 'realname', value: '   ', key: 'validation.required' },
      { field: 'realname', value: 'x'.repeat(33), key: 'validation.tooLong', params: { max: 32 } },
      { field: 'realname', value: { first: 'Bob' }, key: 'validation.invalid' },
      { field: 'repassword', value: 'other123', key: 'validation.mismatch' },
      { field: 'email', value: 'not-an-email', key: 'validation.invalid' },
      { field: 'email', value: 42, key: 'validation.invalid' },
      { field: 'code', value: '12ab56', key: 'validation.invalid' },
      { field: 'inviteCode', value: 'x'.repeat(65), key: 'validation.tooLong', params: { max: 64 } },
    ]);
    expect(await userCount()).toBe(before);
  });

  it('answers a validation failure in zh-Hans without Accept-Language, and in the asked language', async () => {
    const body = { account: 'ab', password: 'secret123', realname: 'X' };
    expect((await server.call('register', body, { lang: null })).msg).toBe('账号至少 4 个字符');
    expect((await server.call('register', body, { lang: 'en' })).msg).toBe('Account must be at least 4 characters');
    expect((await server.call('register', body, { lang: 'fr-FR' })).msg).toBe(
      'Compte doit contenir au moins 4 caractères',
    );
    expect((await server.call('register', body, { lang: 'es' })).msg).toBe('Cuenta debe tener al menos 4 caracteres');
    expect((await server.call('register', body, { lang: 'zh-TW' })).msg).toBe('帳號至少 4 個字元');
    expect((await server.call('register', body, { lang: 'de' })).msg).toBe('Account must be at least 4 characters');
  });

  it('refuses a duplicate account, whatever its case, and an address already someone’s', async () => {
    await signUp(server, 'carol');
    const dup = await server.call(
      'register',
      { account: 'CAROL', password: 'secret123', realname: 'C2' },
      { lang: 'es' },
    );
    expect(dup).toMatchObject({ code: 400, msg: 'Esta cuenta ya está registrada', data: { fields: ['account'] } });
    const byMail = await server.call('register', {
      account: 'Alice@example.com',
      password: 'secret123',
      realname: 'A2',
    });
    expect(byMail).toMatchObject({ code: 400, data: { fields: ['account'] } });
    const mailTaken = await server.call('register', {
      account: 'carol2',
      password: 'secret123',
      realname: 'C2',
      email: 'alice@example.com',
    });
    expect(mailTaken).toMatchObject({ code: 400, data: { fields: ['email'] } });
  });

  it('refuses characters outside the account alphabet when any account form is allowed', async () => {
    const res = await server.call('register', { account: 'bad name!', password: 'secret123', realname: 'B' });
    expect(res).toMatchObject({ code: 400, data: { fields: ['account'] } });
  });

  describe('regauth', () => {
    afterAll(async () => {
      await server.ctx.config.set('sysInfo.regauth', '0');
    });

    it('1: a phone number with a register code', async () => {
      await server.ctx.config.set('sysInfo.regauth', '1');
      const plain = await server.call('register', { account: 'erin1', password: 'secret123', realname: 'E' });
      expect(plain).toMatchObject({
        code: 400,
        msg: 'The account must be a phone number',
        data: { fields: ['account'] },
      });
      const mail = await server.call('register', { account: 'erin@example.com', password: 'secret123', realname: 'E' });
      expect(mail).toMatchObject({ code: 400, data: { fields: ['account'] } });
      expect((await server.call('sendCode', { account: 'erin@example.com', type: 2 })).code).toBe(400);

      const phone = '+8613800000001';
      const noCode = await server.call('register', { account: phone, password: 'secret123', realname: 'E' });
      expect(noCode).toMatchObject({ code: 400, msg: 'Enter the verification code', data: { fields: ['code'] } });
      expect((await server.call('sendCode', { account: phone, type: 2 })).code).toBe(0);
      const code = server.lastCode(phone);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const bad = await server.call('register', { account: phone, password: 'secret123', realname: 'E', code: wrong });
      expect(bad).toMatchObject({ code: 400, msg: 'The verification code is wrong or has expired' });
      const ok = await server.call('register', { account: phone, password: 'secret123', realname: 'E', code });
      expect(ok.code).toBe(0);
      expect(ok.data).toMatchObject({ account: phone, phone, is_auth: 1 });
      expect((await server.call('login', { account: phone, password: 'secret123' })).code).toBe(0);
    });

    it('2: an email address with a register code', async () => {
      await server.ctx.config.set('sysInfo.regauth', '2');
      const phone = await server.call(
        'register',
        { account: '+8613800000002', password: 'secret123', realname: 'F' },
        { lang: 'fr' },
      );
      expect(phone).toMatchObject({ code: 400, msg: 'Le compte doit être un adresse e-mail' });
      expect((await server.call('sendCode', { account: 'frank@example.com', type: 2 })).code).toBe(0);
      const code = server.lastCode('frank@example.com');
      const ok = await server.call('register', {
        account: 'Frank@Example.com',
        password: 'secret123',
        realname: 'F',
        code,
      });
      expect(ok.code).toBe(0);
      expect(ok.data).toMatchObject({ account: 'frank@example.com', email: 'frank@example.com', is_auth: 1 });
    });

    it('3: a phone number or an email address, each with its own code', async () => {
      await server.ctx.config.set('sysInfo.regauth', '3');
      const plain = await server.call('register', { account: 'gina1', password: 'secret123', realname: 'G' });
      expect(plain).toMatchObject({ code: 400, msg: 'The account must be a phone number or email address' });
      expect((await server.call('sendCode', { account: 'gina@example.com', type: 2 })).code).toBe(0);
      expect((await server.call('sendCode', { account: '+8613800000003', type: 2 })).code).toBe(0);
      const mailCode = server.lastCode('gina@example.com');
      const phoneCode = server.lastCode('+8613800000003');
      if (mailCode !== phoneCode) {
        const swapped = await server.call('register', {
          account: '+8613800000003',
          password: 'secret123',
          realname: 'G',
          code: mailCode,
        });
        expect(swapped.code).toBe(400);
      }
      expect(
        (
          await server.call('register', {
            account: 'gina@example.com',
            password: 'secret123',
            realname: 'G',
            code: mailCode,
          })
        ).code,
      ).toBe(0);
      expect(
        (
          await server.call('register', {
            account: '+8613800000003',
            password: 'secret123',
            realname: 'G',
            code: phoneCode,
          })
        ).code,
      ).toBe(0);
    });
  });

  describe('regtype 2 (invite codes)', () => {
    afterAll(async () => {
      await server.ctx.config.set('sysInfo.regtype', '1');
    });

    it('needs a valid invite code, uses it up, and refuses it once expired', async () => {
      await server.ctx.config.set('sysInfo.regtype', '2');
      const body = { password: 'secret123', realname: 'I' };
      const none = await server.call('register', { account: 'ivan1', ...body });
      expect(none).toMatchObject({ code: 400, msg: 'The invite code is not valid', data: { fields: ['inviteCode'] } });
      const bogus = await server.call('register', { account: 'ivan1', ...body, inviteCode: 'nope-nope' });
      expect(bogus).toMatchObject({ code: 400, data: { fields: ['inviteCode'] } });

      const twice = await admin.site.createInvite(2, 1);
      expect((await server.call('register', { account: 'ivan1', ...body, inviteCode: twice })).code).toBe(0);
      expect((await server.call('register', { account: 'ivan2', ...body, inviteCode: twice })).code).toBe(0);
      const spent = await server.call('register', { account: 'ivan3', ...body, inviteCode: twice });
      expect(spent).toMatchObject({ code: 400, data: { fields: ['inviteCode'] } });

      await server.ctx.db
        .insertInto('invite_codes')
        .values({
          code: 'direct-code',
          created_by: 0,
          uses_left: 5,
          expires_at: server.clock.now() + 3_600_000,
          create_time: server.clock.now(),
        })
        .execute();
      const dup = await server.call('register', { account: 'ivan1', ...body, inviteCode: 'direct-code' });
      expect(dup.code).toBe(400);
      const left = await server.ctx.db
        .selectFrom('invite_codes')
        .select('uses_left')
        .where('code', '=', 'direct-code')
        .executeTakeFirstOrThrow();
      expect(left.uses_left).toBe(5);
      server.clock.advance(3_600_001);
      const expired = await server.call('register', { account: 'ivan4', ...body, inviteCode: 'direct-code' });
      expect(expired).toMatchObject({ code: 400, data: { fields: ['inviteCode'] } });
    });
  });

  describe('registerInterval', () => {
    afterAll(async () => {
      await server.ctx.config.set('sysInfo.registerInterval', '0');
      await server.ctx.config.set('sysInfo.regtype', '1');
    });

    it('allows one registration per interval from one IP, without spending the invite of a refused one', async () => {
      await server.ctx.config.set('sysInfo.registerInterval', '60');
      const body = { password: 'secret123', realname: 'J' };
      const ip = '10.9.0.1';
      expect((await server.call('register', { account: 'jack1', ...body }, { ip })).code).toBe(0);
      const again = await server.callRaw('register', { account: 'jack2', ...body }, { ip });
      expect(again.status).toBe(429);
      expect(again.json).toMatchObject({ code: 429, msg: 'Too many registrations, please try again later' });
      expect((await server.call('register', { account: 'jack3', ...body }, { ip: '10.9.0.2' })).code).toBe(0);

      await server.ctx.config.set('sysInfo.regtype', '2');
      const invite = await admin.site.createInvite(1, 1);
      expect((await server.call('register', { account: 'jack2', ...body, inviteCode: invite }, { ip })).code).toBe(429);
      server.clock.advance(61_000);
      expect((await server.call('register', { account: 'jack2', ...body, inviteCode: invite }, { ip })).code).toBe(0);
    });

    it('does not count a registration that failed', async () => {
      await server.ctx.config.set('sysInfo.regtype', '1');
      server.clock.advance(61_000);
      const ip = '10.9.0.3';
      const body = { password: 'secret123', realname: 'K' };
      expect((await server.call('register', { account: 'jack1', ...body }, { ip })).code).toBe(400);
      expect((await server.call('register', { account: 'kate1', ...body }, { ip })).code).toBe(0);
    });
  });
});

describeEachDb('login, checkuser, logout', (target) => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer(target);
    alice = await signUp(server, 'alice');
  });
  afterAll(async () => {
    await server.close();
  });

  it('logs in by password: a bearer token, its session id, the userInfo; the token stored hashed', async () => {
    const res = await server.call('login', { account: 'ALICE', password: 'secret123' });
    expect(res.code).toBe(0);
    expect(res.msg).toBe('Logged in');
    expect(res.data.authToken).toMatch(/^bearer [A-Za-z0-9_-]{40,}$/);
    expect(res.data.userInfo).toMatchObject({ user_id: alice.userId, account: 'alice' });
    const token = res.data.authToken.slice('bearer '.length);
    const row = await server.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', res.data.sessionId)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(alice.userId);
    expect(row.token_hash).not.toBe(token);
    expect(row.token_hash).not.toContain(token);
    const stored = await server.ctx.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.some((s) => s.token_hash.includes(token))).toBe(false);
    expect((await server.call('checkuser', {}, { token: res.data.authToken })).data.account).toBe('alice');
    expect((await server.call('checkuser', {}, { token })).code).toBe(0);
  });

  it('slides a session’s expiry on when it is used, at most once in TOUCH_EVERY_MS', async () => {
    const res = await server.call('login', { account: 'alice', password: 'secret123' });
    const stored = () =>
      server.ctx.db
        .selectFrom('sessions')
        .select(['last_seen', 'expires_at'])
        .where('id', '=', res.data.sessionId)
        .executeTakeFirstOrThrow();
    const first = await stored();
    server.clock.advance(TOUCH_EVERY_MS - 1000);
    expect((await server.call('checkuser', {}, { token: res.data.authToken })).code).toBe(0);
    expect(await stored()).toEqual(first);
    server.clock.advance(2000);
    expect((await server.call('checkuser', {}, { token: res.data.authToken })).code).toBe(0);
    expect(await stored()).toEqual({ last_seen: server.clock.now(), expires_at: server.clock.now() + SESSION_TTL_MS });
  });

  it('looks up the sessions of calls that arrive together by one statement on PostgreSQL, each its own', async () => {
    const people = await Promise.all(['bo_batch', 'cy_batch', 'di_batch'].map((name) => signUp(server, name)));
    expect((await server.call('logout', {}, { token: people[2]!.token })).code).toBe(0);
    const statements = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(/^sparrow_db_queries_total (\S+)/m.exec(text)![1]);
    };
    const tokens = [...people.map((p) => p.token), people[0]!.token, 'no-such-token-0123456789'];
    const before = await statements();
    const answers = await Promise.all(tokens.map((token) => server.call('checkuser', {}, { token })));
    // One lookup for the five calls (each checkuser reads nothing else); on SQLite one each.
    expect((await statements()) - before).toBe(target === 'postgres' ? 1 : tokens.length);
    expect(answers.map((a) => a.code)).toEqual([0, 0, -1, 0, -1]);
    expect([answers[0], answers[1], answers[3]].map((a) => a!.data.user_id)).toEqual(
      [people[0], people[1], people[0]].map((p) => p!.userId),
    );
  });

  it('refuses a bad body, field by field', async () => {
    await expectBadBodies(server, 'login', { account: 'alice', password: 'secret123' }, [
      { field: 'account', value: MISSING, key: 'validation.required' },
      { field: 'account', value: 'abc', key: 'validation.tooShort', params: { min: 4 } },
      { field: 'account', value: 'a'.repeat(33), key: 'validation.tooLong', params: { max: 32 } },
      { field: 'account', value: 1234, key: 'validation.invalid' },
      { field: 'password', value: MISSING, key: 'validation.required' },
      { field: 'password', value: '', key: 'validation.required' },
      { field: 'password', value: 'x'.repeat(129), key: 'validation.tooLong', params: { max: 128 } },
      { field: 'password', value: true, key: 'validation.invalid' },
      { field: 'code', value: 'abcdef', key: 'validation.invalid' },
      { field: 'client_id', value: 'x'.repeat(65), key: 'validation.tooLong', params: { max: 64 } },
    ]);
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const wrong = await server.call('login', { account: 'alice', password: 'wrong-pass' }, { ip: '10.2.0.1' });
    const unknown = await server.call('login', { account: 'nobody', password: 'wrong-pass' }, { ip: '10.2.0.1' });
    expect(wrong).toEqual({ code: 400, msg: 'Wrong account or password', data: null });
    expect(unknown).toEqual(wrong);
    expect((await server.call('login', { account: 'alice', password: 'wrong-pass' }, { lang: null })).msg).toBe(
      '账号或密码错误',
    );
  });

  it('locks an account+IP out after 5 failures, for 300 s, with HTTP 429', async () => {
    const bob = await signUp(server, 'bob_lock');
    const ip = '10.3.0.1';
    for (let i = 0; i < 5; i++) {
      const res = await server.callRaw('login', { account: 'bob_lock', password: 'wrong-pass' }, { ip });
      expect(res.status).toBe(200);
      expect(res.json.code).toBe(400);
    }
    const locked = await server.callRaw('login', { account: 'bob_lock', password: bob.password }, { ip });
    expect(locked.status).toBe(429);
    expect(locked.json).toMatchObject({ code: 429, msg: 'Too many failed logins, try again in 5 minutes', data: null });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const zh = await server.callRaw('login', { account: 'BOB_LOCK', password: bob.password }, { ip, lang: 'zh-Hant' });
    expect(zh.json.msg).toBe('登入失敗次數過多，請 5 分鐘後再試');

    expect((await server.call('login', { account: 'bob_lock', password: bob.password }, { ip: '10.3.0.2' })).code).toBe(
      0,
    );
    expect((await server.call('login', { account: 'alice', password: alice.password }, { ip })).code).toBe(0);

    server.clock.advance(299_000);
    expect((await server.callRaw('login', { account: 'bob_lock', password: bob.password }, { ip })).status).toBe(429);
    server.clock.advance(2_000);
    expect((await server.call('login', { account: 'bob_lock', password: bob.password }, { ip })).code).toBe(0);
  });

  it('does not let a client off the lockout by forging X-Forwarded-For', async () => {
    const eve = await signUp(server, 'eve_forger');
    const attempt = (password: string, i: number) =>
      server.app.inject({
        method: 'POST',
        url: '/common/Pub/login',
        remoteAddress: '203.0.113.9',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        payload: JSON.stringify({ account: 'eve_forger', password }),
      });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-pass', i)).json().code).toBe(400);
    const locked = await attempt(eve.password, 99);
    expect(locked.statusCode).toBe(429);
    server.bodies.push(locked.body);
  });

  it('forgets earlier failures after a successful login', async () => {
    const ip = '10.3.0.3';
    for (let i = 0; i < 4; i++) await server.call('login', { account: 'alice', password: 'wrong-pass' }, { ip });
    expect((await server.call('login', { account: 'alice', password: alice.password }, { ip })).code).toBe(0);
    // Counted on top of the four before, this failure would be the fifth and lock the pair.
    expect((await server.call('login', { account: 'alice', password: 'wrong-pass' }, { ip })).code).toBe(400);
    expect((await server.call('login', { account: 'alice', password: alice.password }, { ip })).code).toBe(0);
  });

  it('checkuser: my userInfo with a session, code -1 without one, with a bad one or a revoked one', async () => {
    const me = await server.call('checkuser', {}, { token: alice.token });
    expect(me).toMatchObject({ code: 0, data: { user_id: alice.userId, account: 'alice' } });

    const none = await server.callRaw('checkuser', {}, { lang: null });
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ code: -1, msg: '登录已失效，请重新登录', data: [] });
    expect((await server.call('checkuser', {}, { lang: 'es' })).msg).toBe(
      'Tu sesión ha caducado, vuelve a iniciar sesión',
    );
    expect((await server.call('checkuser', {}, { token: 'bearer not-a-real-token-at-all-000000' })).code).toBe(-1);
    expect((await server.call('checkuser', {}, { token: 'bearer x' })).code).toBe(-1);
    const flipped = alice.token.slice(0, -1) + (alice.token.endsWith('A') ? 'B' : 'A');
    expect((await server.call('checkuser', {}, { token: flipped })).code).toBe(-1);
  });

  it('logout revokes the token for real and closes its socket, not another session’s', async () => {
    const first = await logIn(server, 'alice', alice.password);
    const second = await logIn(server, 'alice', alice.password);
    const s1 = await TestSocket.bound(server, alice.userId, first);
    const s2 = await TestSocket.bound(server, alice.userId, second);

    const out = await server.call('logout', {}, { token: first });
    expect(out).toEqual({ code: 0, msg: 'Logged out', data: null });
    expect(await s1.waitClosed()).toBe(4004);
    expect((await server.call('checkuser', {}, { token: first })).code).toBe(-1);
    expect((await server.call('logout', {}, { token: first })).code).toBe(-1);
    expect((await server.call('getUserInfo', { user_id: alice.userId }, { token: first })).code).toBe(-1);

    expect((await s2.roundTrip()).type).toBe('pong');
    expect((await server.call('checkuser', {}, { token: second })).code).toBe(0);
    const again = await TestSocket.open(server);
    again.send({ type: 'bindUid', user_id: alice.userId, token: first });
    expect(await again.waitClosed()).toBe(4001);
    s2.close();
  });

  it('logout without a session is code -1', async () => {
    expect((await server.call('logout', {})).code).toBe(-1);
  });

  it('refuses a disabled user and ends its sessions; enabling lets it back in', async () => {
    const dan = await signUp(server, 'dan_disabled');
    const admin = new AdminService(server.ctx.repos, server.ctx.config, server.clock.now);
    await admin.users.setStatus('dan_disabled', false);
    expect((await server.call('checkuser', {}, { token: dan.token })).code).toBe(-1);
    const res = await server.call('login', { account: 'dan_disabled', password: dan.password });
    expect(res).toMatchObject({ code: 400, msg: 'This account has been disabled' });
    await admin.users.setStatus('dan_disabled', true);
    expect((await server.call('login', { account: 'dan_disabled', password: dan.password })).code).toBe(0);
  });

  it('ends a session unused for 30 days; use renews it', async () => {
    const token = await logIn(server, 'alice', alice.password);
    const day = 86_400_000;
    server.clock.advance(29 * day);
    expect((await server.call('checkuser', {}, { token })).code).toBe(0);
    server.clock.advance(29 * day);
    expect((await server.call('checkuser', {}, { token })).code).toBe(0);
    server.clock.advance(31 * day);
    expect((await server.call('checkuser', {}, { token })).code).toBe(-1);
  });
});
