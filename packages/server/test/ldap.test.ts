import { ErrorCodes, LDAP_DEFAULTS, translate, type Envelope, type ErrorName } from '@sparrow/protocol';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openDb } from '../src/db';
import { passwordWork } from '../src/lib/crypto';
import { Cluster, describeWithRedis } from './cluster';
import { captureLog, describeEachDb, LOG_LEVEL, signUp, startServer, type LogLine, type TestServer } from './harness';
import { describeWithSlapd, PEOPLE, READER_DN, TestDirectory } from './ldap-directory';

/**
 * Directory sign-in (issue 42 point 5) against a real OpenLDAP started by the suite: bind as the
 * person or search with a service account then bind, the account made at a first sign-in from the
 * entry's attributes and refreshed at later ones, wrong passwords counted towards the lockout, a
 * disabled entry refused, filter and DN injection refused, two first sign-ins at once making one
 * account, a directory out of reach answered as a wrong password in bounded time (and logged) while local
 * accounts keep working,
 * and the service account's password sealed at rest and never answered.
 */

type Person = Awaited<ReturnType<typeof signUp>>;

/** Fails unless the answer is the named error, in English (the harness's language). */
function expectRefused(res: Envelope<any>, name: ErrorName) {
  expect({ code: res.code, msg: res.msg }).toEqual({ code: ErrorCodes[name], msg: translate('en', `errors.${name}`) });
}

describeWithSlapd('directory sign-in', () => {
  describeEachDb('LDAP', (target) => {
    let server: TestServer;
    let directory: TestDirectory;
    let log: LogLine[];
    let root: Person;
    let ip = 0;
    const as = (p: Person) => ({ token: p.token });
    /** Each test signs in from an address of its own: the lockout counts per account and address. */
    let from = '';
    const login = (account: string, password: string) => server.call('login', { account, password }, { ip: from });

    const search = () => ({
      ...LDAP_DEFAULTS,
      enabled: 1,
      url: directory.url,
      mode: 'search',
      bindDn: READER_DN,
      bindPassword: directory.readerPassword,
      baseDn: PEOPLE,
      userFilter: '(uid={account})',
      disabledFilter: '(employeeType=disabled)',
      timeoutS: 3,
    });
    const configure = async (body: Record<string, unknown>) => {
      const res = await server.call('manageLdapSet', body, as(root));
      expect(res.code, res.msg).toBe(0);
      return res.data;
    };
    const userOf = (account: string) =>
      server.ctx.db.selectFrom('users').selectAll().where('account', '=', account).execute();
    const identitiesOf = (userId: number) =>
      server.ctx.db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).execute();

    beforeAll(async () => {
      directory = await TestDirectory.start();
      server = await startServer(target, { logger: true, env: { logLevel: 'warn' } });
      log = captureLog(server.app);
      root = await signUp(server, 'ldaproot', 'rootpass1', 'Root');
      await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', root.userId).execute();
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await directory?.close();
    });
    beforeEach(async () => {
      from = `10.42.0.${++ip}`;
      await configure(search());
    });

    it('search then bind: a first sign-in makes the account from the entry (name, e-mail, department), linked and audited', async () => {
      const res = await login('alice', 'wonder123');
      expect(res.code, res.msg).toBe(0);
      expect(res.data.userInfo).toMatchObject({
        account: 'alice',
        realname: 'Alice Liddell',
        email: 'alice@example.org',
      });
      const [row] = await userOf('alice');
      const dep = await server.ctx.db.selectFrom('departments').selectAll().where('id', '=', row!.dep_id).execute();
      expect(dep[0]?.name).toBe('研发部');
      // No local password: the directory's is the only one.
      expect(row!.password_hash).toBe('');
      expect(await identitiesOf(row!.id)).toMatchObject([
        { provider: 'ldap', subject: await directory.uuidOf('alice'), email: 'alice@example.org' },
      ]);
      const session = await server.ctx.db
        .selectFrom('sessions')
        .select('via')
        .where('user_id', '=', row!.id)
        .executeTakeFirstOrThrow();
      expect(session.via).toBe('ldap');
      const audit = await server.call('manageAuditList', { action: 'ldapCreate' }, as(root));
      expect(audit.data.find((a: any) => a.target === `user:${row!.id}`)).toMatchObject({
        admin_id: row!.id,
        ip: from,
      });
      // The session works.
      expect((await server.call('checkuser', {}, { token: res.data.authToken })).data.user_id).toBe(row!.id);
    });

    it('a later sign-in finds the same account and refreshes a changed name, e-mail and department', async () => {
      const first = await login('alice', 'wonder123');
      expect(first.code, first.msg).toBe(0);
      await directory.replace('alice', 'displayName', 'Alice Pleasance');
      await directory.replace('alice', 'mail', 'alice.p@example.org');
      await directory.replace('alice', 'departmentNumber', 'Looking Glass');
      try {
        const again = await login('alice', 'wonder123');
        expect(again.code, again.msg).toBe(0);
        expect(again.data.userInfo).toMatchObject({
          user_id: first.data.userInfo.user_id,
          realname: 'Alice Pleasance',
          email: 'alice.p@example.org',
        });
        const [row] = await userOf('alice');
        const dep = await server.ctx.db.selectFrom('departments').selectAll().where('id', '=', row!.dep_id).execute();
        expect(dep[0]?.name).toBe('Looking Glass');
        expect(await userOf('alice')).toHaveLength(1);
      } finally {
        await directory.replace('alice', 'displayName', 'Alice Liddell');
        await directory.replace('alice', 'mail', 'alice@example.org');
        await directory.replace('alice', 'departmentNumber', '研发部');
      }
    });

    it('direct bind: the account placed in the DN template, escaped; the entry read as the person', async () => {
      await configure({
        ...search(),
        mode: 'direct',
        userDn: 'uid={account},ou=people,dc=example,dc=org',
        bindDn: '',
        bindPassword: '',
      });
      const res = await login('bob.builder', 'canwefix1');
      expect(res.code, res.msg).toBe(0);
      expect(res.data.userInfo).toMatchObject({
        account: 'bob.builder',
        realname: 'Bob Builder',
        email: 'bob@example.org',
      });
      // A DN built from what was typed names no other entry.
      expectRefused(await login('alice,ou=people', 'wonder123'), 'LoginFailed');
      expectRefused(await login('bob.builder', 'wonder123'), 'LoginFailed');
    });

    it('a wrong password is refused and counts towards the lockout', async () => {
      await server.ctx.config.set('rateLimits.loginFailures.max', '3');
      try {
        for (let i = 0; i < 3; i++) expectRefused(await login('alice', 'not-her-pw'), 'LoginFailed');
        const locked = await login('alice', 'wonder123');
        expect(locked.code).toBe(ErrorCodes.LoginLocked);
      } finally {
        await server.ctx.config.set('rateLimits.loginFailures.max', '5');
      }
      // An unknown account is refused alike.
      from = `10.43.0.${ip}`;
      expectRefused(await login('nobody', 'wonder123'), 'LoginFailed');
    });

    it('a disabled entry is refused with its password, and gets no account; without it, as any wrong password', async () => {
      expectRefused(await login('carol', 'carol1234'), 'UserDisabled');
      expectRefused(await login('carol', 'wrong-pass'), 'LoginFailed');
      expect(await userOf('carol')).toHaveLength(0);
    });

    it('filter injection finds no one: the account is escaped in the filter', async () => {
      for (const account of ['*)(uid=*', 'alic*', '*)(|(uid=*', 'alice)(uid=*']) {
        expectRefused(await login(account, 'wonder123'), 'LoginFailed');
      }
      expect(await userOf('*)(uid=*')).toHaveLength(0);
    });

    it('two first sign-ins at once make one account', async () => {
      const answers = await Promise.all(Array.from({ length: 6 }, () => login('dave', 'dave12345')));
      for (const a of answers) expect(a.code, a.msg).toBe(0);
      const ids = new Set(answers.map((a) => a.data.userInfo.user_id));
      expect(ids.size).toBe(1);
      expect(await userOf('dave')).toHaveLength(1);
      expect(await identitiesOf([...ids][0] as number)).toHaveLength(1);
    });

    it('with account creation off, only linked accounts sign in', async () => {
      await configure({ ...search(), createUsers: 0 });
      expectRefused(await login('erin', 'erin12345'), 'LoginFailed');
      expect(await userOf('erin')).toHaveLength(0);
      // Alice's account exists and is linked: she still signs in.
      expect((await login('alice', 'wonder123')).code).toBe(0);
    });

    it('local accounts keep their own password; the directory off, a directory name is unknown', async () => {
      const local = await signUp(server, 'localonly', 'localpass1');
      expect((await login('localonly', 'localpass1')).code).toBe(0);
      // The directory is not asked for a local account: its password there would not do.
      expectRefused(await login('localonly', 'wonder123'), 'LoginFailed');
      await configure({ ...search(), enabled: 0 });
      expectRefused(await login('erin', 'erin12345'), 'LoginFailed');
      expect(local.userId).toBeGreaterThan(0);
    });

    /** The server's warnings that the directory is down (at most one a minute). */
    const warnedDown = () =>
      log.filter((l) => l.level === LOG_LEVEL.warn && /directory \(LDAP\) cannot be reached/.test(l.msg));

    it('a directory out of reach: answered as a wrong password after the same password work, within the timeout, logged once a minute; local admins still sign in', async () => {
      expect((await login('alice', 'wonder123')).code).toBe(0);
      await directory.stop();
      try {
        server.clock.advance(60_000);
        const warned = warnedDown().length;
        const started = Date.now();
        const work = passwordWork.derivations;
        // Alice's account is linked to the directory, frank has none: neither answer tells which.
        expectRefused(await login('alice', 'wonder123'), 'LoginFailed');
        expectRefused(await login('frank', 'frank1234'), 'LoginFailed');
        expect(passwordWork.derivations - work).toBe(2);
        expect(Date.now() - started).toBeLessThan(2 * 3000 + 2000);
        expect(warnedDown()).toHaveLength(warned + 1);
        expect(warnedDown().at(-1)).toMatchObject({ url: directory.url });
        // A directory that does not answer at all (a blackhole address) is bounded by the timeout too.
        await configure({ ...search(), url: 'ldap://10.255.255.1:389', timeoutS: 1 });
        const t = Date.now();
        expectRefused(await login('alice', 'wonder123'), 'LoginFailed');
        expect(Date.now() - t).toBeLessThan(3000);
        expect(warnedDown()).toHaveLength(warned + 1);
        server.clock.advance(60_000);
        expectRefused(await login('frank', 'frank1234'), 'LoginFailed');
        expect(warnedDown()).toHaveLength(warned + 2);
        expect(JSON.stringify(log)).not.toContain('frank1234');
        // These failures count towards the lockout as wrong passwords do.
        await server.ctx.config.set('rateLimits.loginFailures.max', '3');
        try {
          expectRefused(await login('frank', 'frank1234'), 'LoginFailed');
          expect((await login('frank', 'frank1234')).code).toBe(ErrorCodes.LoginLocked);
        } finally {
          await server.ctx.config.set('rateLimits.loginFailures.max', '5');
        }
        expect((await login('ldaproot', 'rootpass1')).code).toBe(0);
      } finally {
        await directory.run();
      }
    });

    it('a service account the directory refuses is logged for the operator; the person is answered as a wrong password', async () => {
      await configure({ ...search(), bindPassword: 'not-the-reader-pw' });
      server.clock.advance(60_000);
      const warned = warnedDown().length;
      expectRefused(await login('alice', 'wonder123'), 'LoginFailed');
      expect(warnedDown()).toHaveLength(warned + 1);
      expect(JSON.stringify(log)).not.toContain('not-the-reader-pw');
    });

    it('StartTLS and ldaps:// with the CA certificate; an untrusted certificate is refused', async () => {
      const ca = directory.certificate;
      await configure({ ...search(), startTls: 1, caCert: ca });
      expect((await login('alice', 'wonder123')).code).toBe(0);
      await configure({ ...search(), url: directory.tlsUrl, caCert: ca });
      expect((await login('alice', 'wonder123')).code).toBe(0);
      await configure({ ...search(), url: directory.tlsUrl, caCert: '' });
      expectRefused(await login('alice', 'wonder123'), 'LoginFailed');
      await configure({ ...search(), url: directory.tlsUrl, caCert: '', rejectUnauthorized: 0 });
      expect((await login('alice', 'wonder123')).code).toBe(0);
    });

    it('the service account password is sealed at rest, write-only, and in no answer or audit line', async () => {
      const secret = directory.readerPassword;
      const shown = await configure(search());
      expect(shown).toMatchObject({ bindPasswordSet: true, url: directory.url, bindDn: READER_DN });
      expect(shown).not.toHaveProperty('bindPassword');
      expect(shown).not.toHaveProperty('bindPasswordSealed');
      const got = await server.call('manageLdapGet', {}, as(root));
      expect(got.data.bindPasswordSet).toBe(true);
      // Left out: kept.
      const { bindPassword: _omit, ...rest } = search();
      await configure(rest);
      expect((await login('alice', 'wonder123')).code).toBe(0);
      const row = await server.ctx.db
        .selectFrom('config')
        .select('value')
        .where('key', '=', 'ldap')
        .executeTakeFirstOrThrow();
      expect(row.value).not.toContain(secret);
      expect(JSON.parse(row.value).bindPasswordSealed).toMatch(/^v1\./);
      const info = await server.call('getSystemInfo', {}, { token: root.token });
      expect(JSON.stringify(info)).not.toContain('ldap');
      const audit = await server.call('manageAuditList', { action: 'configSet', limit: 100 }, as(root));
      expect(audit.data.some((a: any) => a.target === 'ldap')).toBe(true);
      for (const text of server.bodies) expect(text).not.toContain(secret);
      // '' removes it.
      expect((await configure({ ...search(), bindPassword: '' })).bindPasswordSet).toBe(false);
    });

    it('refuses a setting that cannot work, and non-admins', async () => {
      const bad = [
        { ...search(), url: '' },
        { ...search(), url: 'http://127.0.0.1' },
        { ...search(), userFilter: '(uid=alice)' },
        { ...search(), mode: 'direct', userDn: 'uid=alice,ou=people' },
        { ...search(), nameAttr: 'display name' },
        { ...search(), timeoutS: 0 },
      ];
      for (const body of bad) expect((await server.call('manageLdapSet', body, as(root))).code).toBe(400);
      const someone = await signUp(server, 'notadmin', 'secret123');
      expect((await server.call('manageLdapGet', {}, as(someone))).code).toBe(403);
      expect((await server.call('manageLdapSet', search(), as(someone))).code).toBe(403);
    });
  });
});

describeWithSlapd('directory sign-in across two servers', () => {
  describeWithRedis('LDAP on PostgreSQL with two nodes', (redisUrl) => {
    let cluster: Cluster | undefined;
    let directory: TestDirectory;
    beforeAll(async () => {
      directory = await TestDirectory.start();
      cluster = await Cluster.start('postgres', redisUrl, 2);
    }, 90_000);
    afterAll(async () => {
      await cluster?.stop();
      await directory?.close();
    });

    it('an admin sets the directory on one node; first sign-ins at once on both make one account', async () => {
      const [a, b] = cluster!.nodes;
      await a!.call('register', { account: 'clusterroot', password: 'rootpass1', realname: 'Root' });
      const opened = openDb({ databaseUrl: cluster!.databaseUrl, dataDir: cluster!.dataDir });
      try {
        await opened.db.updateTable('users').set({ role: 1 }).where('account', '=', 'clusterroot').execute();
        const token = (await a!.call('login', { account: 'clusterroot', password: 'rootpass1' })).data.authToken;
        const set = await a!.call(
          'manageLdapSet',
          {
            ...LDAP_DEFAULTS,
            enabled: 1,
            url: directory.url,
            bindDn: READER_DN,
            bindPassword: directory.readerPassword,
            baseDn: PEOPLE,
            disabledFilter: '(employeeType=disabled)',
          },
          token,
        );
        expect(set.code, set.msg).toBe(0);
        // The other node reads the setting at its next look at the configuration (CONFIG_POLL_MS).
        await new Promise((r) => setTimeout(r, 1500));
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 ? b! : a!).call('login', { account: 'erin', password: 'erin12345' }),
          ),
        );
        for (const x of answers) expect(x.code, x.msg).toBe(0);
        expect(new Set(answers.map((x) => x.data.userInfo.user_id)).size).toBe(1);
        const users = await opened.db.selectFrom('users').select('id').where('account', '=', 'erin').execute();
        expect(users).toHaveLength(1);
        const links = await opened.db
          .selectFrom('user_identities')
          .select('id')
          .where('provider', '=', 'ldap')
          .execute();
        expect(links).toHaveLength(1);
        // Erin's department was made once, however many sign-ins named it at once.
        const deps = await opened.db.selectFrom('departments').select('id').where('name', '=', '市场部').execute();
        expect(deps).toHaveLength(1);
        expectRefused(await b!.call('login', { account: 'carol', password: 'carol1234' }), 'UserDisabled');
      } finally {
        await opened.close();
      }
    }, 60_000);
  });
});
