import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICTURES, routes } from '@sparrow/protocol';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' };

describeEachDb('HTTP conventions', (target) => {
  let server: TestServer;
  let alice: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    server = await startServer(target, {
      extraRoutes: (app) => {
        app.post('/test/echo', async (req) => ({ code: 0, msg: '', data: req.body }));
      },
    });
    alice = await signUp(server, 'alice_http');
  });
  afterAll(async () => {
    await server.close();
  });

  describe('bodies', () => {
    it('takes form-encoded bodies like JSON ones', async () => {
      const login = await server.post('/common/Pub/login', 'account=alice_http&password=secret123', FORM);
      expect(login.json.code).toBe(0);
      const token = login.json.data.authToken as string;
      const update = await server.post(
        '/enterprise/im/updateUserInfo',
        'motto=hello+world&sex=1&realname=%E5%B0%8F%E7%BA%A2',
        {
          ...FORM,
          authorization: token,
        },
      );
      expect(update.json).toMatchObject({ code: 0, data: { motto: 'hello world', sex: 1, realname: '小红' } });
      const info = await server.post('/enterprise/im/getUserInfo', `user_id=${alice.userId}`, {
        ...FORM,
        authorization: token,
      });
      expect(info.json.data.user_id).toBe(alice.userId);
      const bad = await server.post('/common/Pub/login', 'account=ab&password=secret123', FORM);
      expect(bad.json).toMatchObject({
        code: 400,
        msg: 'Account must be at least 4 characters',
        data: { fields: ['account'] },
      });
    });

    it('parses bracketed form fields into arrays and objects', async () => {
      const res = await server.post(
        '/test/echo',
        'user_ids%5B0%5D=3&user_ids%5B1%5D=4&fromUser[id]=1&fromUser[realname]=A&setting[invite]=1',
        FORM,
      );
      expect(res.json.data).toEqual({
        user_ids: ['3', '4'],
        fromUser: { id: '1', realname: 'A' },
        setting: { invite: '1' },
      });
      const ok = await server.post(
        '/enterprise/im/updateUserInfo',
        'motto=nested+ignored&setting[language]=fr&role[0]=1',
        { ...FORM, authorization: alice.token },
      );
      expect(ok.json).toMatchObject({ code: 0, data: { motto: 'nested ignored', role: 0 } });
    });

    it('answers a body that is not JSON, not an object or of an unknown type with 400', async () => {
      const broken = await server.post('/common/Pub/login', '{"account": "alice_http",', {
        'content-type': 'application/json',
        'accept-language': 'fr',
      });
      expect(broken.status).toBe(200);
      expect(broken.json).toEqual({ code: 400, msg: 'Requête invalide', data: { fields: ['body'] } });
      const list = await server.post('/common/Pub/login', '[1,2]', { 'content-type': 'application/json' });
      expect(list.json).toMatchObject({ code: 400, data: { fields: ['body'] } });
      const text = await server.post('/common/Pub/login', 'account=alice', { 'content-type': 'text/plain' });
      expect(text.json).toMatchObject({ code: 400, data: { fields: ['body'] } });
      const empty = await server.post('/common/Pub/login', '', {
        'content-type': 'application/json',
        'accept-language': 'en',
      });
      expect(empty.json).toMatchObject({ code: 400, msg: 'Account is required' });
      const none = await server.post('/common/Pub/getSystemInfo', '', {});
      expect(none.json.code).toBe(0);
    });

    it('refuses a body over its route’s limit with 413 without reading it into a handler', async () => {
      const res = await server.post(
        '/common/Pub/login',
        { account: 'alice_http', password: 'x'.repeat(routes.login.bodyLimit) },
        { 'accept-language': 'en' },
      );
      expect(res.status).toBe(413);
      expect(res.json).toMatchObject({
        code: 400,
        msg: 'The request is too large',
        data: { fields: ['body'] },
      });
    });

    it('drops unknown keys: register cannot make an administrator or set a hash', async () => {
      const res = await server.call('register', {
        account: 'mallory',
        password: 'secret123',
        realname: 'M',
        role: 1,
        is_auth: 1,
        status: 1,
        password_hash: 'scrypt-chosen-by-me',
        avatar: 'javascript:alert(1)',
        id: 1,
      });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({ role: 0, is_auth: 0, avatar: PICTURES.person });
      expect(res.data.user_id).not.toBe(1);
      const row = await server.ctx.db
        .selectFrom('users')
        .selectAll()
        .where('account', '=', 'mallory')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role: 0, is_auth: 0, avatar: PICTURES.person });
      expect(row.password_hash.startsWith('scrypt$')).toBe(true);
    });
  });

  describe('paths', () => {
    it('match case-insensitively and with repeated slashes', async () => {
      for (const path of ['/common/pub/login', '/COMMON/PUB/LOGIN', '//common//Pub///login', '/Common/pUb/LogIn']) {
        const res = await server.post(path, { account: 'alice_http', password: 'secret123' });
        expect(res.json.code, path).toBe(0);
      }
      for (const path of ['/enterprise/IM/getuserinfo', '//enterprise/im//getUserInfo']) {
        const res = await server.post(path, { user_id: alice.userId }, { authorization: alice.token });
        expect(res.json.code, path).toBe(0);
      }
      expect((await server.post('/common/Pub/checkVersion', { release: '6.1.0' })).json.code).toBe(0);
    });

    it('answers an unknown path with a 404 envelope in the caller’s language', async () => {
      const res = await server.post('/common/Pub/nothing', {}, { 'accept-language': 'es' });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ code: 404, msg: 'No encontrado', data: null });
    });
  });

  describe('rate limits', () => {
    it('limits any call to rateLimits.anyCall.perMinute per user, then HTTP 429 until the minute ends', async () => {
      const bob = await signUp(server, 'bob_rate');
      const cat = await signUp(server, 'cat_rate');
      server.clock.advance(60_000);
      await server.ctx.config.set('rateLimits.anyCall.perMinute', '5');
      try {
        for (let i = 0; i < 5; i++) expect((await server.call('checkuser', {}, { token: bob.token })).code).toBe(0);
        const over = await server.callRaw('getUserInfo', { user_id: cat.userId }, { token: bob.token });
        expect(over.status).toBe(429);
        expect(over.json).toEqual({ code: 429, msg: 'Too many requests, please try again later', data: null });
        expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
        expect((await server.call('checkuser', {}, { token: bob.token, lang: 'zh-Hant' })).msg).toBe(
          '操作太頻繁，請稍後再試',
        );
        expect((await server.call('checkuser', {}, { token: cat.token })).code).toBe(0);
        server.clock.advance(60_000);
        expect((await server.call('checkuser', {}, { token: bob.token })).code).toBe(0);
      } finally {
        await server.ctx.config.set('rateLimits.anyCall.perMinute', '600');
      }
    });

    it('limits calls without a session per IP', async () => {
      server.clock.advance(60_000);
      await server.ctx.config.set('rateLimits.anyCall.perMinute', '3');
      try {
        for (let i = 0; i < 3; i++) expect((await server.call('getSystemInfo', {}, { ip: '10.7.0.1' })).code).toBe(0);
        expect((await server.callRaw('getSystemInfo', {}, { ip: '10.7.0.1' })).status).toBe(429);
        expect(
          (await server.call('login', { account: 'alice_http', password: 'secret123' }, { ip: '10.7.0.1' })).code,
        ).toBe(429);
        expect((await server.call('getSystemInfo', {}, { ip: '10.7.0.2' })).code).toBe(0);
      } finally {
        await server.ctx.config.set('rateLimits.anyCall.perMinute', '600');
      }
    });
  });

  it('no response of this suite carried a password hash, its salt or its key', async () => {
    await server.call('checkuser', {}, { token: alice.token });
    await server.call('searchUser', { keywords: 'alice_http' }, { token: alice.token });
    expect(server.bodies.length).toBeGreaterThan(20);
    await server.assertNoSecretsLeaked();
  });
});

describeEachDb('unexpected errors', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answer code 502 with HTTP 500, a request id and no details', async () => {
    const { token } = await signUp(server, 'err_user');
    await sql`ALTER TABLE users RENAME TO users_gone`.execute(server.ctx.db);
    try {
      const first = await server.callRaw('checkuser', {}, { token });
      const second = await server.callRaw('checkuser', {}, { token, lang: null });
      expect(first.status).toBe(500);
      expect(first.json.code).toBe(502);
      expect(first.json.data).toBeNull();
      const id = /^Something went wrong on the server, please try again \(([a-z0-9]{4,})\)$/.exec(first.json.msg)?.[1];
      expect(id).toBeTruthy();
      expect(second.json.msg).toMatch(/^服务器开小差了，请稍后再试（[a-z0-9]{4,}）$/);
      expect(second.json.msg).not.toContain(id);
      for (const res of [first, second]) {
        const text = JSON.stringify(res.json);
        for (const leak of ['users', 'SELECT', 'relation', 'no such table', 'Error', ' at ', '.ts', 'stack']) {
          expect(text).not.toContain(leak);
        }
      }
    } finally {
      await sql`ALTER TABLE users_gone RENAME TO users`.execute(server.ctx.db);
    }
    expect((await server.call('checkuser', {}, { token })).code).toBe(0);
  });

  it.runIf(target === 'postgres')('survive the database killing idle connections', async () => {
    const { token } = await signUp(server, 'err_user2');
    const name = new URL(server.ctx.env.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      const killed = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
        name,
      ]);
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await server.call('checkuser', {}, { token })).code).toBe(0);
  });
});
