import {
  ErrorCodes,
  SocketCloseCodes,
  TOKEN_PREFIX,
  TOKENS_PER_USER_MAX,
  translate,
  type Envelope,
  type RouteName,
} from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto';
import { describeEachDb, makeFriends, makeGroup, signUp, startServer, TestSocket, type TestServer } from './harness';

/**
 * Personal access tokens (开发者, docs/protocol.md §9): made and revoked from a session, shown once,
 * working as `Authorization: Bearer spt_…` on the routes their scopes name and nowhere else (not the
 * console's without `admin`, which only an administrator gives; never the socket), ending when
 * revoked, expired or their user is disabled; at most TOKENS_PER_USER_MAX however many are asked at once.
 */

type User = Awaited<ReturnType<typeof signUp>>;

function expectRefused(res: Envelope<any>, name: 'TokenScope' | 'Forbidden' | 'NotFound' | 'TokensFull') {
  expect({ code: res.code, msg: res.msg }).toEqual({ code: ErrorCodes[name], msg: translate('en', `errors.${name}`) });
}

describeEachDb('personal access tokens', (target) => {
  let server: TestServer;
  let n = 0;
  const fresh = (name: string): Promise<User> => signUp(server, `${name}${++n}pat`, 'secret123', `${name}${n}`);
  const call = (name: RouteName, body: object, token: string) => server.call(name, body, { token, lang: 'en' });
  const made = async (u: User, scopes: string[], days = 0, name = 'ci') => {
    const res = await call('tokenCreate', { name, scopes, days }, u.token);
    expect(res.code, res.msg).toBe(0);
    return res.data as { id: number; token: string; hint: string };
  };

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows the secret once, lists tokens without it, and sends and reads as their user within the scopes', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    await makeFriends(server, ann, bob);
    const created = await made(ann, ['messages:send', 'messages:read'], 30, '构建机器人');
    expect(created.token).toMatch(new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(created.hint).toBe(created.token.slice(0, 8));

    const list = (await call('tokenList', {}, ann.token)).data;
    expect(list).toEqual([
      {
        id: created.id,
        name: '构建机器人',
        scopes: ['messages:read', 'messages:send'],
        hint: created.hint,
        create_time: expect.any(Number),
        expires_at: expect.any(Number),
        last_used: 0,
      },
    ]);
    expect(list[0].expires_at - list[0].create_time).toBe(30 * 86_400_000);
    expect(JSON.stringify(list)).not.toContain(created.token);

    const bearer = `Bearer ${created.token}`;
    const sent = await call(
      'sendMessage',
      { id: 'pat-token-1', toContactId: bob.userId, type: 'text', content: '构建通过' },
      bearer,
    );
    expect(sent.code, sent.msg).toBe(0);
    expect(sent.data.fromUser.id).toBe(ann.userId);
    const history = await call('getMessageList', { toContactId: ann.userId, is_group: 0 }, bob.token);
    expect(history.data.map((m: any) => m.content)).toContain('构建通过');
    const mine = await call('getMessageList', { toContactId: bob.userId, is_group: 0 }, bearer);
    expect(mine.code, mine.msg).toBe(0);
    expect(mine.data.map((m: any) => m.content)).toContain('构建通过');
    // The same client id again is the same message: a script's retry never duplicates.
    const again = await call(
      'sendMessage',
      { id: 'pat-token-1', toContactId: bob.userId, type: 'text', content: '构建通过' },
      bearer,
    );
    expect(again.data.msg_id).toBe(sent.data.msg_id);

    const used = (await call('tokenList', {}, ann.token)).data[0];
    expect(used.last_used).toBeGreaterThan(0);
  });

  it('answers TokenScope outside the scopes, on routes no token may call, and on the console without admin', async () => {
    const cat = await fresh('cat');
    const dan = await fresh('dan');
    await makeFriends(server, cat, dan);
    const reader = `Bearer ${(await made(cat, ['messages:read'])).token}`;
    expectRefused(
      await call('sendMessage', { id: 'pat-token-2', toContactId: dan.userId, type: 'text', content: 'x' }, reader),
      'TokenScope',
    );
    expectRefused(await call('groupAdd', { user_ids: [dan.userId], name: '群' }, reader), 'TokenScope');
    // Tokens, sessions, the password, the account: a session's only.
    for (const [name, body] of [
      ['tokenList', {}],
      ['tokenCreate', { name: 'more', scopes: ['messages:read'], days: 0 }],
      ['sessions', {}],
      ['editPassword', { originalPassword: 'secret123', password: 'another123' }],
      ['logout', {}],
      ['accountDelete', { password: 'secret123' }],
    ] as const) {
      expectRefused(await call(name, body, reader), 'TokenScope');
    }
    expectRefused(await call('manageStats', {}, reader), 'TokenScope');
    // A user who is not an administrator cannot give a token the console.
    expectRefused(await call('tokenCreate', { name: 'root', scopes: ['admin'], days: 0 }, cat.token), 'Forbidden');
    // The password still works: nothing above changed it.
    const login = await server.call('login', { account: cat.account, password: 'secret123' }, { lang: 'en' });
    expect(login.code, login.msg).toBe(0);
  });

  it('reaches the console only with an admin token of a user who is an administrator still', async () => {
    const eve = await fresh('eve');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', eve.userId).execute();
    const admin = `Bearer ${(await made(eve, ['admin'])).token}`;
    const stats = await call('manageStats', {}, admin);
    expect(stats.code, stats.msg).toBe(0);
    expect(stats.data.users).toBeGreaterThan(0);
    const plain = `Bearer ${(await made(eve, ['messages:read'])).token}`;
    expectRefused(await call('manageStats', {}, plain), 'TokenScope');
    // No token reaches anyone's way in, the console's included: passwords, factors, sessions, tokens.
    const other = await fresh('other');
    for (const [name, body] of [
      ['manageUserPassword', { user_id: other.userId, password: 'taken123' }],
      ['manageUserPassword', { user_id: eve.userId, password: 'taken123' }],
      ['manageTwoStepReset', { user_id: eve.userId }],
      ['manageUserLogout', { user_id: other.userId }],
      ['manageUserSecurity', { user_id: other.userId }],
      ['manageSessionEnd', { user_id: other.userId, session_id: 1 }],
      ['manageTokenRevoke', { user_id: eve.userId, id: 1 }],
    ] as const) {
      expectRefused(await call(name, body, admin), 'TokenScope');
    }
    expect((await server.call('login', { account: other.account, password: 'secret123' }, { lang: 'en' })).code).toBe(
      0,
    );
    await server.ctx.db.updateTable('users').set({ role: 0 }).where('id', '=', eve.userId).execute();
    expectRefused(await call('manageStats', {}, admin), 'Forbidden');
  });

  it('manages groups with groups:manage', async () => {
    const fay = await fresh('fay');
    const gus = await fresh('gus');
    const hal = await fresh('hal');
    const ola = await fresh('ola');
    await makeFriends(server, fay, ola);
    const group = await makeGroup(server, fay, [gus, hal]);
    const manager = `Bearer ${(await made(fay, ['groups:manage'])).token}`;
    const added = await call('addGroupUser', { id: group, user_ids: [ola.userId] }, manager);
    expect(added.code, added.msg).toBe(0);
    const members = await call('groupUserList', { group_id: group }, fay.token);
    expect(members.data.map((m: any) => m.user_id)).toContain(ola.userId);
    expectRefused(await call('groupUserList', { group_id: group }, manager), 'TokenScope');
  });

  it('stops a token at once when revoked, expired, or its user disabled; another user’s looks like none', async () => {
    const ivy = await fresh('ivy');
    const jon = await fresh('jon');
    const revoked = await made(ivy, ['messages:read']);
    const bearer = `Bearer ${revoked.token}`;
    expect((await call('checkuser', {}, bearer)).code).toBe(0);
    expectRefused(await call('tokenRevoke', { id: revoked.id }, jon.token), 'NotFound');
    expectRefused(await call('tokenRevoke', { id: 987_654_321 }, jon.token), 'NotFound');
    expect((await call('checkuser', {}, bearer)).code).toBe(0);
    expect((await call('tokenRevoke', { id: revoked.id }, ivy.token)).code).toBe(0);
    expect((await call('checkuser', {}, bearer)).code).toBe(-1);
    expectRefused(await call('tokenRevoke', { id: revoked.id }, ivy.token), 'NotFound');

    const week = `Bearer ${(await made(ivy, ['messages:read'], 7)).token}`;
    expect((await call('checkuser', {}, week)).code).toBe(0);
    server.clock.advance(7 * 86_400_000 + 1);
    expect((await call('checkuser', {}, week)).code).toBe(-1);

    const kept = `Bearer ${(await made(ivy, ['messages:read'])).token}`;
    await server.ctx.db.updateTable('users').set({ status: 0 }).where('id', '=', ivy.userId).execute();
    expect((await call('checkuser', {}, kept)).code).toBe(-1);
    await server.ctx.db.updateTable('users').set({ status: 1 }).where('id', '=', ivy.userId).execute();
    expect((await call('checkuser', {}, kept)).code).toBe(0);

    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('action')
      .where('target', '=', `user:${ivy.userId}`)
      .where('action', 'in', ['tokenCreate', 'tokenRevoke'])
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['tokenCreate', 'tokenCreate', 'tokenCreate', 'tokenRevoke']);
  });

  it('shows an administrator a user’s tokens on the console, without secrets, and revokes one there', async () => {
    const ned = await fresh('ned');
    const boss = await fresh('boss');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', boss.userId).execute();
    const nightly = await made(ned, ['messages:read'], 0, 'nightly');
    const security = await call('manageUserSecurity', { user_id: ned.userId }, boss.token);
    expect(security.data.tokens).toEqual([
      expect.objectContaining({ id: nightly.id, name: 'nightly', hint: nightly.hint, scopes: ['messages:read'] }),
    ]);
    expect(JSON.stringify(security.data)).not.toContain(nightly.token);
    // Named with another user, the token is not found, as one that never was.
    expectRefused(await call('manageTokenRevoke', { user_id: boss.userId, id: nightly.id }, boss.token), 'NotFound');
    expect((await call('checkuser', {}, `Bearer ${nightly.token}`)).code).toBe(0);
    expect((await call('manageTokenRevoke', { user_id: ned.userId, id: nightly.id }, boss.token)).code).toBe(0);
    expect((await call('checkuser', {}, `Bearer ${nightly.token}`)).code).toBe(-1);
    const row = await server.ctx.db
      .selectFrom('audit_log')
      .select(['admin_id', 'detail'])
      .where('action', '=', 'tokenRevoke')
      .where('target', '=', `user:${ned.userId}`)
      .executeTakeFirstOrThrow();
    expect(row.admin_id).toBe(boss.userId);
    expect(JSON.parse(row.detail)).toEqual({ token: nightly.id });
  });

  it('is nobody on a public route, and a session whose token begins as one does is still found', async () => {
    const pam = await fresh('pam');
    const token = `Bearer ${(await made(pam, ['messages:read'])).token}`;
    // A code to change the password is asked for by a session only: with a token, by nobody.
    const ask = { account: pam.account, type: 3 };
    expect((await call('sendCode', ask, token)).code).toBe(-1);
    expect((await call('sendCode', ask, pam.token)).code).not.toBe(-1);

    // A session's token is random: one that happens to begin with the prefix is a session's still.
    const session = await server.ctx.sessions.create(pam.userId, {
      cid: '',
      isMobile: false,
      userAgent: 'test',
      ip: '127.0.0.1',
    });
    const lookalike = `${TOKEN_PREFIX}${session.token.slice(4)}`;
    await server.ctx.db
      .updateTable('sessions')
      .set({ token_hash: sha256(lookalike) })
      .where('id', '=', session.id)
      .execute();
    expect((await call('checkuser', {}, `bearer ${lookalike}`)).code).toBe(0);
  });

  it('counts only live tokens towards the cap: expired ones make room', async () => {
    const quin = await fresh('quin');
    for (let i = 0; i < TOKENS_PER_USER_MAX; i++) await made(quin, ['messages:read'], 7, `w${i}`);
    expectRefused(
      await call('tokenCreate', { name: 'one more', scopes: ['messages:read'], days: 0 }, quin.token),
      'TokensFull',
    );
    server.clock.advance(7 * 86_400_000 + 1);
    await made(quin, ['messages:read'], 0, 'after');
    expect((await call('tokenList', {}, quin.token)).data.map((t: any) => t.name)).toEqual(['after']);
  });

  it('never binds a socket', async () => {
    const kim = await fresh('kim');
    const token = (await made(kim, ['messages:read', 'messages:send'])).token;
    const sock = await TestSocket.open(server);
    sock.send({ type: 'bindUid', user_id: kim.userId, token: `bearer ${token}` });
    expect(await sock.waitClosed()).toBe(SocketCloseCodes.Unauthorized);
  });

  it(`holds at most ${TOKENS_PER_USER_MAX} tokens when more are asked for at once`, async () => {
    const lea = await fresh('lea');
    const asks = Array.from({ length: TOKENS_PER_USER_MAX + 6 }, (_, i) =>
      call('tokenCreate', { name: `t${i}`, scopes: ['messages:read'], days: 0 }, lea.token),
    );
    const answers = await Promise.all(asks);
    expect(answers.filter((a) => a.code === 0)).toHaveLength(TOKENS_PER_USER_MAX);
    for (const a of answers.filter((x) => x.code !== 0)) expectRefused(a, 'TokensFull');
    expect((await call('tokenList', {}, lea.token)).data).toHaveLength(TOKENS_PER_USER_MAX);
  });

  it('revokes once when the user and an administrator revoke the same token at the same moment', async () => {
    const rex = await fresh('rex');
    const chief = await fresh('chief');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', chief.userId).execute();
    const twice = await made(rex, ['messages:read']);
    const answers = await Promise.all([
      call('tokenRevoke', { id: twice.id }, rex.token),
      call('manageTokenRevoke', { user_id: rex.userId, id: twice.id }, chief.token),
      call('tokenRevoke', { id: twice.id }, rex.token),
    ]);
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 0)) expectRefused(a, 'NotFound');
    const audited = await server.ctx.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'tokenRevoke')
      .where('target', '=', `user:${rex.userId}`)
      .execute();
    expect(audited).toHaveLength(1);
    expect((await call('checkuser', {}, `Bearer ${twice.token}`)).code).toBe(-1);
  });

  it('refuses bad bodies with the field named', async () => {
    const max = await fresh('max');
    for (const body of [
      { name: '', scopes: ['messages:read'], days: 0 },
      { name: 'x', scopes: [], days: 0 },
      { name: 'x', scopes: ['messages:read', 'messages:read'], days: 0 },
      { name: 'x', scopes: ['root'], days: 0 },
      { name: 'x', scopes: ['messages:read'], days: 3 },
      { name: 'x'.repeat(33), scopes: ['messages:read'], days: 0 },
    ]) {
      const res = await call('tokenCreate', body, max.token);
      expect(res.code, JSON.stringify(body)).toBe(ErrorCodes.Validation);
    }
  });
});
