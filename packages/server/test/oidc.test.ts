import {
  ErrorCodes,
  PICTURES,
  routes,
  SSO_CODE_VALID_MS,
  ssoPath,
  SSO_START_PATH,
  type Envelope,
} from '@sparrow/protocol';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';
import { ADMIN_GROUP, signInAtIssuer, startIssuer, type Issuer } from './oidc-issuer';

/**
 * Single sign-on with OpenID Connect (issue 42 point 4) against a real issuer (oidc-provider on
 * loopback, its own login and consent pages): the authorization-code flow with PKCE, state and
 * nonce; a first sign-in creating the account from the claims, a later one finding it, linking
 * by verified e-mail only; the one-time code the login page exchanges, single use; the same
 * person's first sign-ins at once making one account; on PostgreSQL a round trip started on one
 * server and finished on another; the client secret sealed and never answered. The round trip
 * and its code belong to the browser that started it (its cookie), and a user with a second
 * factor is asked for it.
 */

type Admin = Awaited<ReturnType<typeof signUp>>;

describeEachDb('single sign-on (OpenID Connect)', (target) => {
  let server: TestServer;
  let issuer: Issuer;
  let admin: Admin;
  /** A second server on the same database (PostgreSQL only). */
  let second: FastifyInstance | undefined;

  const callback = (id: string) => `${server.url}/auth/oidc/${id}/callback`;

  /** GET a path of this server over real HTTP, not following a redirect: the redirect's target. */
  const redirectOf = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    expect(res.status, path).toBe(302);
    return res.headers.get('location') ?? '';
  };
  /** The login page's query a callback redirected to. */
  const landing = (location: string) => {
    expect(location.startsWith('../../../#/pages/login/login?'), location).toBe(true);
    return new URLSearchParams(location.split('?')[1]);
  };

  /** A round trip's callback URL, and the cookie of the browser that started it. */
  type Trip = { url: string; cookie: string };
  /** Start → the issuer's pages as `login` → the callback URL the issuer sends the browser to (not yet opened). */
  const untilCallback = async (login: string, id = 'corp'): Promise<Trip> => {
    const res = await fetch(`${server.url}${ssoPath(SSO_START_PATH, id)}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const authorize = res.headers.get('location') ?? '';
    expect(authorize.startsWith(issuer.url)).toBe(true);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/; HttpOnly; SameSite=Lax/);
    const cookie = setCookie.split(';')[0]!;
    expect(cookie).toMatch(/^sparrow_sso=[A-Za-z0-9_-]{43}$/);
    return { url: await signInAtIssuer(authorize, login, issuer.url), cookie };
  };
  /** Opens a callback URL on this server (or another) with the trip's cookie, answering the login page's query. */
  const openCallback = async (
    trip: Trip,
    on: FastifyInstance = server.app,
    headers: Record<string, string> = { cookie: trip.cookie },
  ) => {
    const u = new URL(trip.url);
    const res = await on.inject({ method: 'GET', url: `${u.pathname}${u.search}`, headers });
    expect(res.statusCode).toBe(302);
    return landing(String(res.headers.location));
  };
  const exchange = (code: string, cookie: string) => server.call('ssoExchange', { code }, { headers: { cookie } });
  /** The whole round trip as `login`: the session the login page gets. */
  const signInAs = async (login: string, id = 'corp') => {
    const trip = await untilCallback(login, id);
    const query = await openCallback(trip);
    const code = query.get('sso_code');
    expect(code, query.toString()).toBeTruthy();
    const res = await exchange(code!, trip.cookie);
    expect(res.code, res.msg).toBe(0);
    return res.data as { authToken: string; sessionId: number; userInfo: Record<string, any> };
  };
  const save = (body: Record<string, unknown>) => server.call('manageSsoSave', body, { token: admin.token });

  beforeAll(async () => {
    server = await startServer(target, {
      env: { redisUrl: target === 'postgres' ? process.env.REDIS_URL : undefined },
    });
    issuer = await startIssuer([callback('corp'), callback('strict'), callback('off')]);
    admin = await signUp(server, 'ssoadmin', 'secret123', 'SSO Admin');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
    const common = { issuer: issuer.url, client_id: issuer.clientId, client_secret: issuer.clientSecret };
    const corp = await save({
      id: 'corp',
      ...common,
      scopes: 'openid email profile groups',
      label: 'Corp ID',
      create_accounts: 1,
      link_email: 1,
      admin_claim: 'groups',
      admin_value: ADMIN_GROUP,
    });
    expect(corp.code, corp.msg).toBe(0);
    expect((await save({ id: 'strict', ...common, label: 'Strict', create_accounts: 0, link_email: 0 })).code).toBe(0);
    expect((await save({ id: 'off', ...common, label: 'Off', enabled: 0 })).code).toBe(0);
    if (target === 'postgres') {
      second = (
        await buildApp(
          {
            ...loadConfig({}),
            port: 0,
            dataDir: server.dataDir,
            databaseUrl: server.ctx.env.databaseUrl,
            redisUrl: process.env.REDIS_URL,
            logLevel: 'silent',
          },
          { now: server.clock.now, logger: false },
        )
      ).app;
    }
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await issuer?.close();
    await server?.close();
  });

  it('the login page learns only the enabled providers’ ids and labels', async () => {
    const res = await server.call('ssoProviders', {});
    expect(res.data).toEqual([
      { id: 'corp', label: 'Corp ID' },
      { id: 'strict', label: 'Strict' },
    ]);
  });

  it('a first sign-in creates the account with name, avatar and e-mail from the claims; the next finds it', async () => {
    const first = await signInAs('newbie');
    const user = first.userInfo;
    expect(user).toMatchObject({
      realname: 'Newbie Example',
      email: 'newbie@corp.example',
      account: 'newbie@corp.example',
    });
    // The picture claim's image is fetched from the issuer and stored as an upload's avatar.
    expect(user.avatar).not.toBe(PICTURES.person);
    const avatar = await server.get(new URL(user.avatar, server.url).pathname);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/webp');

    const link = await server.ctx.db
      .selectFrom('user_identities')
      .selectAll()
      .where('subject', '=', 'newbie')
      .execute();
    expect(link).toMatchObject([{ provider: 'oidc:corp', user_id: user.user_id, email: 'newbie@corp.example' }]);
    const session = await server.ctx.db
      .selectFrom('sessions')
      .select('via')
      .where('id', '=', first.sessionId)
      .executeTakeFirstOrThrow();
    expect(session.via).toBe('oidc');
    expect((await server.call('checkuser', {}, { token: first.authToken })).data.user_id).toBe(user.user_id);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('admin_id', '=', user.user_id)
      .execute();
    expect(audit).toEqual([{ action: 'ssoCreate', target: `user:${user.user_id}` }]);

    const again = await signInAs('newbie');
    expect(again.userInfo.user_id).toBe(user.user_id);
    expect(again.sessionId).not.toBe(first.sessionId);
  });

  it('links to the account with the same verified e-mail, and never by an unverified one', async () => {
    const linda = await signUp(server, 'linda@corp.example', 'secret123', 'Linda');
    const signed = await signInAs('linda');
    expect(signed.userInfo.user_id).toBe(linda.userId);
    // Her own name stays: linking takes nothing from the claims.
    expect(signed.userInfo.realname).toBe('Linda');
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('admin_id', '=', linda.userId)
      .execute();
    expect(audit).toEqual([{ action: 'ssoLink', target: `user:${linda.userId}` }]);

    const owner = await signUp(server, 'unverifiedu@corp.example', 'secret123', 'Owner');
    const other = await signInAs('unverifiedu');
    expect(other.userInfo.user_id).not.toBe(owner.userId);
    // A new account, whose e-mail the provider did not vouch for: none kept, the account name made up.
    expect(other.userInfo.email).toBe('');
    expect(other.userInfo.account).toMatch(/^corp-/);
    // Nor does the identity keep the address the provider did not vouch for, then or at later sign-ins.
    await signInAs('unverifiedu');
    const identity = await server.ctx.db
      .selectFrom('user_identities')
      .select(['user_id', 'email'])
      .where('subject', '=', 'unverifiedu')
      .execute();
    expect(identity).toEqual([{ user_id: other.userInfo.user_id, email: '' }]);
  });

  it('the round trip and its code are the starting browser’s: without its cookie, or with another’s, refused', async () => {
    const mine = await untilCallback('cookied');
    const theirs = await untilCallback('intruder');
    // The callback without the cookie, or with another browser's: refused, the round trip not spent.
    expect((await openCallback(mine, server.app, {})).get('sso_error')).toBe('SsoFailed');
    expect((await openCallback(mine, server.app, { cookie: theirs.cookie })).get('sso_error')).toBe('SsoFailed');
    const code = (await openCallback(mine)).get('sso_code')!;
    expect(code).toBeTruthy();

    // Someone else's browser given the code (a login link with ?sso_code=): no session, no cookie or the wrong one.
    const bare = await server.call('ssoExchange', { code });
    expect(bare.code).toBe(ErrorCodes.SsoCodeGone);
    expect(JSON.stringify(bare.data)).not.toContain('authToken');
    expect((await exchange(code, theirs.cookie)).code).toBe(ErrorCodes.SsoCodeGone);
    expect((await exchange(code, 'sparrow_sso=' + 'x'.repeat(43))).code).toBe(ErrorCodes.SsoCodeGone);
    // The starting browser still can.
    const res = await exchange(code, mine.cookie);
    expect(res.code, res.msg).toBe(0);
    expect(res.data.userInfo.email).toBe('cookied@corp.example');
  });

  it('a new account takes the language of the browser that finished the round trip', async () => {
    const trip = await untilCallback('parleur');
    const query = await openCallback(trip, server.app, { cookie: trip.cookie, 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(query.get('sso_code')).toBeTruthy();
    const user = await server.ctx.db
      .selectFrom('users')
      .select('language')
      .where('email', '=', 'parleur@corp.example')
      .executeTakeFirstOrThrow();
    expect(user.language).toBe('fr');
  });

  it('a user with an authenticator app is asked for its code: a ticket, no session until then', async () => {
    const first = await signInAs('totpy');
    const as = { token: first.authToken };
    const codeOf = (secret: string) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: server.clock.now() });
    const begin = await server.call('totpBegin', {}, as);
    expect(begin.code, begin.msg).toBe(0);
    const confirm = await server.call('totpConfirm', { code: codeOf(begin.data.secret) }, as);
    expect(confirm.code, confirm.msg).toBe(0);
    // The code just used is spent: the next one comes with the next step.
    server.clock.advance(30_000);

    const sessionsOf = () =>
      server.ctx.db
        .selectFrom('sessions')
        .select(['id', 'via'])
        .where('user_id', '=', first.userInfo.user_id)
        .execute();
    const before = await sessionsOf();
    const trip = await untilCallback('totpy');
    const code = (await openCallback(trip)).get('sso_code')!;
    const pending = await exchange(code, trip.cookie);
    expect(pending.code, pending.msg).toBe(0);
    expect(pending.data.authToken).toBeUndefined();
    expect(pending.data.two_step.methods).toContain('totp');
    expect(await sessionsOf()).toEqual(before);

    const second = await server.call('loginTwoStep', {
      ticket: pending.data.two_step.ticket,
      code: codeOf(begin.data.secret),
    });
    expect(second.code, second.msg).toBe(0);
    const made = await server.ctx.db
      .selectFrom('sessions')
      .select('via')
      .where('id', '=', second.data.sessionId)
      .executeTakeFirstOrThrow();
    expect(made.via).toBe('oidc');
  });

  it('with creation and linking off, someone with no linked account is refused', async () => {
    await signUp(server, 'stranger@corp.example', 'secret123', 'Stranger');
    const query = await openCallback(await untilCallback('stranger', 'strict'));
    expect(query.get('sso_error')).toBe('SsoNotAllowed');
    expect(query.has('sso_code')).toBe(false);
    // A provider turned off starts nothing.
    expect(landing(await redirectOf(ssoPath(SSO_START_PATH, 'off'))).get('sso_error')).toBe('SsoFailed');
    expect(landing(await redirectOf(ssoPath(SSO_START_PATH, 'nobody'))).get('sso_error')).toBe('SsoFailed');
  });

  it('a state never issued, a replayed callback and the provider’s error are refused', async () => {
    const trip = await untilCallback('replayer');
    const forged = new URL(trip.url);
    forged.searchParams.set('state', 'not-a-state-we-issued');
    expect((await openCallback({ ...trip, url: forged.href })).get('sso_error')).toBe('SsoFailed');

    const first = await openCallback(trip);
    expect(first.get('sso_code')).toBeTruthy();
    expect((await openCallback(trip)).get('sso_error')).toBe('SsoFailed');

    // The provider's error (the person declined) for a real state: refused, and the state is spent.
    const decliner = await untilCallback('decliner');
    const declined = new URL(decliner.url);
    const state = declined.searchParams.get('state')!;
    const error = new URL(declined.pathname, declined);
    error.search = new URLSearchParams({ error: 'access_denied', state }).toString();
    expect((await openCallback({ ...decliner, url: error.href })).get('sso_error')).toBe('SsoFailed');
    expect((await openCallback(decliner)).get('sso_error')).toBe('SsoFailed');
  });

  it('the one-time code is good once, even asked twice at once, and for a minute only', async () => {
    const trip = await untilCallback('oncer');
    const code = (await openCallback(trip)).get('sso_code')!;
    const answers = await Promise.all([1, 2, 3].map(() => exchange(code, trip.cookie)));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 0)) expect(a.code).toBe(ErrorCodes.SsoCodeGone);
    const sessions = await server.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', answers.find((a) => a.code === 0)!.data.userInfo.user_id)
      .execute();
    expect(sessions).toHaveLength(1);

    const lateTrip = await untilCallback('oncer');
    const late = (await openCallback(lateTrip)).get('sso_code')!;
    server.clock.advance(SSO_CODE_VALID_MS + 1);
    expect((await exchange(late, lateTrip.cookie)).code).toBe(ErrorCodes.SsoCodeGone);
    // The code is only ever in the login page's address; the session token never is.
    expect(late).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('the same person’s two first sign-ins at once make one account', async () => {
    const trips = await Promise.all([untilCallback('twin'), untilCallback('twin'), untilCallback('twin')]);
    const queries = await Promise.all(trips.map((t) => openCallback(t)));
    const signed = await Promise.all(queries.map((q, i) => exchange(q.get('sso_code')!, trips[i]!.cookie)));
    const ids = new Set(signed.map((s) => s.data.userInfo.user_id as number));
    expect(ids.size).toBe(1);
    const links = await server.ctx.db
      .selectFrom('user_identities')
      .select('user_id')
      .where('subject', '=', 'twin')
      .execute();
    expect(links).toHaveLength(1);
    const accounts = await server.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'twin@corp.example')
      .execute();
    expect(accounts).toHaveLength(1);
  });

  it('a disabled user is refused, and no code is handed out', async () => {
    const signed = await signInAs('gone');
    const off = await server.call(
      'manageUserStatus',
      { user_id: signed.userInfo.user_id, status: 0 },
      { token: admin.token },
    );
    expect(off.code).toBe(0);
    const query = await openCallback(await untilCallback('gone'));
    expect(query.get('sso_error')).toBe('UserDisabled');
    expect(query.has('sso_code')).toBe(false);
  });

  it('a group claim naming the admin value makes the person an administrator', async () => {
    const boss = await signInAs('bossy');
    expect(boss.userInfo.role).toBe(1);
    expect((await server.call('manageStats', {}, { token: boss.authToken })).code).toBe(0);
    const plain = await signInAs('plainy');
    expect(plain.userInfo.role).toBe(0);
  });

  it('an administrator’s first sign-ins at once are each made an administrator, whichever made the account', async () => {
    const trips = await Promise.all([untilCallback('bosstwin'), untilCallback('bosstwin'), untilCallback('bosstwin')]);
    const queries = await Promise.all(trips.map((t) => openCallback(t)));
    const signed = await Promise.all(queries.map((q, i) => exchange(q.get('sso_code')!, trips[i]!.cookie)));
    expect(new Set(signed.map((s) => s.data.userInfo.user_id as number)).size).toBe(1);
    expect(signed.map((s) => s.data.userInfo.role)).toEqual([1, 1, 1]);
  });

  it('the client secret is sealed at rest, kept when not given, and in no answer', async () => {
    const row = await server.ctx.db
      .selectFrom('sso_providers')
      .selectAll()
      .where('id', '=', 'corp')
      .executeTakeFirstOrThrow();
    expect(row.client_secret).not.toContain(issuer.clientSecret);
    expect(server.ctx.sealer.open(row.client_secret, 'sso:corp')).toBe(issuer.clientSecret);
    // Bound to its provider: copied to another, it does not open.
    expect(() => server.ctx.sealer.open(row.client_secret, 'sso:strict')).toThrow();

    const list = await server.call('manageSsoList', {}, { token: admin.token });
    expect(list.data[0]).toMatchObject({ id: 'corp', has_secret: 1 });
    // The address to register at the provider, as the caller reached this server.
    expect(list.data[0].redirect_uri).toMatch(/^http:\/\/[^/]+\/auth\/oidc\/corp\/callback$/);
    expect(list.data[0]).not.toHaveProperty('client_secret');
    // Saved again without a secret: the stored one stays.
    expect((await save({ id: 'corp', issuer: issuer.url, client_id: issuer.clientId, label: 'Corp ID' })).code).toBe(0);
    expect((await signInAs('keeper')).userInfo.realname).toBe('Keeper Example');

    await server.call('getSystemInfo', {});
    await server.call('manageConfigGet', {}, { token: admin.token });
    await server.call('manageAuditList', { action: 'configSet' }, { token: admin.token });
    for (const body of server.bodies) expect(body).not.toContain(issuer.clientSecret);
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('detail')
      .where('target', 'like', 'sso:%')
      .execute();
    expect(audit.length).toBeGreaterThanOrEqual(3);
    for (const a of audit) expect(a.detail).not.toContain(issuer.clientSecret);
  });

  it('refuses an http issuer that is not on this machine, and a non-admin', async () => {
    const bad = await save({ id: 'far', issuer: 'http://idp.example.com', client_id: 'x', label: 'Far' });
    expect(bad.code).toBe(ErrorCodes.Validation);
    const user = await signUp(server, 'ssoplain', 'secret123', 'Plain');
    const res = await server.call('manageSsoList', {}, { token: user.token });
    expect(res.code).toBe(ErrorCodes.Forbidden);
    expect(routes.manageSsoSave.admin).toBe(true);
  });

  if (target === 'postgres') {
    describe('on two servers of one database', () => {
      it('a round trip started on one is finished on the other, and its code exchanged on either', async () => {
        const trip = await untilCallback('traveller');
        const query = await openCallback(trip, second);
        const code = query.get('sso_code')!;
        const res = await second!.inject({
          method: 'POST',
          url: routes.ssoExchange.path,
          headers: { 'content-type': 'application/json', cookie: trip.cookie },
          payload: JSON.stringify({ code }),
        });
        const env = res.json() as Envelope<any>;
        expect(env.code, env.msg).toBe(0);
        expect(env.data.userInfo.email).toBe('traveller@corp.example');
        expect((await exchange(code, trip.cookie)).code).toBe(ErrorCodes.SsoCodeGone);

        // The same person's first sign-ins at once on both servers: one account.
        const trips = await Promise.all([untilCallback('pair'), untilCallback('pair')]);
        const both = await Promise.all([openCallback(trips[0]!), openCallback(trips[1]!, second)]);
        const signed = await Promise.all(both.map((q, i) => exchange(q.get('sso_code')!, trips[i]!.cookie)));
        expect(new Set(signed.map((s) => s.data.userInfo.user_id)).size).toBe(1);
      });
    });
  }
});
