import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect, type CompiledQuery } from 'kysely';
import {
  AUDIT_ACTIONS,
  CONFIG_KEYS,
  LDAP_DEFAULTS,
  RATE_LIMITS,
  routes,
  type RouteBody,
  type RouteName,
} from '@sparrow/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Database } from '../src/db';
import { AdminRepo, AdminService } from '../src/modules/admin';
import { Cluster, describeWithRedis, type Node } from './cluster';
import { describeEachDb, logIn, signUp, startServer, TestSocket, type TestServer } from './harness';

const adminMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/admin.ts');

type Person = Awaited<ReturnType<typeof signUp>>;

describeEachDb('administration (/manage/*)', (target) => {
  let server: TestServer;
  let root: Person;
  let plain: Person;
  let third: Person;
  let groupId: string;

  /** Runs `npm run admin -- …` against this server's database, as an operator would. */
  function cli(...args: string[]) {
    const res = spawnSync(process.execPath, ['--import', 'tsx', adminMain, ...args], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.ctx.env.databaseUrl ?? '' },
      encoding: 'utf8',
    });
    return { status: res.status, out: `${res.stdout}${res.stderr}` };
  }

  const as = (who: Person) => ({ token: who.token });

  beforeAll(async () => {
    server = await startServer(target);
    root = await signUp(server, 'root_admin');
    plain = await signUp(server, 'plain_user');
    third = await signUp(server, 'third_member');
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setRole('root_admin', 'admin');
    await server.ctx.config.set('sysInfo.runMode', '1');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    // Every console route is called several times over; the admins' own limit has its own test.
    await server.ctx.config.set('rateLimits.manage.perMinute', '100000');
    const group = await server.call(
      'groupAdd',
      { name: 'Admins watch', user_ids: [root.userId, third.userId] },
      { token: plain.token },
    );
    expect(group.code).toBe(0);
    groupId = group.data.id;
  });
  afterAll(async () => {
    await server.close();
  });

  /** A body each route accepts, so that the matrix tests who may call, not what is sent. */
  function validBody(name: RouteName): Record<string, unknown> {
    const bodies: Partial<Record<RouteName, RouteBody<RouteName> | Record<string, unknown>>> = {
      manageUserCreate: {
        account: `made_${name.length}_${Date.now() % 100000}`,
        password: 'secret123',
        realname: 'Made',
      },
      manageUserStatus: { user_id: plain.userId, status: 1 },
      manageUserPassword: { user_id: 999_999, password: 'secret123' },
      manageUserRole: { user_id: plain.userId, role: 0 },
      manageUserLogout: { user_id: 999_999 },
      manageUserSecurity: { user_id: plain.userId },
      manageSessionEnd: { user_id: plain.userId, session_id: 999_999 },
      manageTokenRevoke: { user_id: plain.userId, id: 999_999 },
      manageTwoStepReset: { user_id: 999_999 },
      manageGroupMembers: { group_id: groupId },
      manageGroupDisband: { group_id: 'group-999999' },
      manageGroupOwner: { group_id: 'group-999999', user_id: root.userId },
      manageConfigSet: { key: 'chatInfo.sendInterval', value: 0 },
      manageInviteCreate: { uses: 1, days: 1 },
      manageInviteRevoke: { code: 'no-such-code' },
      manageNoticePublish: { title: 'Matrix', notice: 'Every route' },
      manageNoticeDel: { id: 999_999 },
      manageDepartmentCreate: { name: 'Matrix' },
      manageDepartmentRename: { id: 999_999, name: 'Matrix' },
      manageDepartmentDel: { id: 999_999 },
      manageUserDepartment: { user_id: plain.userId, dep_id: 0 },
      manageReportGet: { id: 999_999 },
      manageReportAct: { id: 999_999, action: 'dismiss' },
      manageKeywordListCreate: { name: 'Matrix', action: 'replace' },
      manageKeywordListUpdate: { id: 999_999, enabled: 1 },
      manageKeywordListDel: { id: 999_999 },
      manageKeywordWords: { list_id: 999_999 },
      manageKeywordAdd: { list_id: 999_999, words: 'matrix' },
      manageKeywordRemove: { list_id: 999_999, ids: [1] },
      manageKeywordTest: { text: 'Every route' },
      manageHeldDecide: { id: 999_999, decision: 'reject' },
      manageSsoSave: { id: 'matrix', issuer: 'https://idp.example.com', client_id: 'sparrow', label: 'Matrix' },
      manageSsoDel: { id: 'matrix' },
      manageLdapSet: { ...LDAP_DEFAULTS },
    };
    return (bodies[name] as Record<string, unknown> | undefined) ?? {};
  }

  const MANAGE = [
    'manageStats',
    'manageUserList',
    'manageUserCreate',
    'manageUserStatus',
    'manageUserPassword',
    'manageUserRole',
    'manageUserLogout',
    'manageUserSecurity',
    'manageSessionEnd',
    'manageTokenRevoke',
    'manageTwoStepReset',
    'manageGroupList',
    'manageGroupMembers',
    'manageGroupDisband',
    'manageGroupOwner',
    'manageConfigGet',
    'manageConfigSet',
    'manageInviteList',
    'manageInviteCreate',
    'manageInviteRevoke',
    'manageNoticeList',
    'manageNoticePublish',
    'manageNoticeDel',
    'manageAuditList',
    'manageLdapGet',
    'manageLdapSet',
    'manageDepartmentList',
    'manageDepartmentCreate',
    'manageDepartmentRename',
    'manageDepartmentDel',
    'manageUserDepartment',
    'manageReportList',
    'manageReportGet',
    'manageReportAct',
    'manageKeywordLists',
    'manageKeywordListCreate',
    'manageKeywordListUpdate',
    'manageKeywordListDel',
    'manageKeywordWords',
    'manageKeywordAdd',
    'manageKeywordRemove',
    'manageKeywordTest',
    'manageHeldList',
    'manageHeldDecide',
    'manageSsoList',
    'manageSsoSave',
    'manageSsoDel',
  ] as const;

  it('has every /manage route, and only those, admin-only in the route table', () => {
    const admin = (Object.keys(routes) as RouteName[]).filter((n) => routes[n].admin);
    expect([...admin].sort()).toEqual([...MANAGE].sort());
    for (const n of admin) expect(routes[n].path.startsWith('/manage/')).toBe(true);
    const byPath = (Object.keys(routes) as RouteName[]).filter((n) => routes[n].path.startsWith('/manage/'));
    expect(byPath.sort()).toEqual([...MANAGE].sort());
  });

  describe('who may call each route', () => {
    for (const name of MANAGE) {
      it(`${name}: admin answered, plain user 403, signed out -1`, async () => {
        const body = validBody(name);
        const signedOut = await server.callRaw(name, body, { lang: 'en' });
        expect(signedOut.json).toMatchObject({ code: -1, data: [] });
        const user = await server.call(name, body, { token: plain.token, lang: 'fr' });
        expect(user).toMatchObject({ code: 403, msg: 'Non autorisé', data: null });
        // A plain user learns nothing from a bad body either: refused before validation.
        expect((await server.call(name, { page: -5, user_id: 'x' }, { token: plain.token })).code).toBe(403);

        const answer = await server.call(name, body, as(root));
        // Ids that do not exist are answered as not found; everything else succeeds.
        expect([0, 404]).toContain(answer.code);
        if (/999999|no-such/.test(JSON.stringify(body))) expect(answer.code).toBe(404);
        else expect(answer.code, answer.msg).toBe(0);
      });
    }
  });

  it('lists and searches users, paged, with last sign-in and never a password', async () => {
    await signUp(server, 'zed_search', 'secret123', 'Zed Searchable');
    await logIn(server, 'zed_search', 'secret123');
    const found = await server.call('manageUserList', { keywords: 'SEARCHABLE' }, as(root));
    expect(found.count).toBe(1);
    expect(found.data[0]).toMatchObject({ account: 'zed_search', realname: 'Zed Searchable', role: 0, status: 1 });
    expect(found.data[0].last_login_time).toBeGreaterThan(0);
    expect(JSON.stringify(found.data)).not.toContain('password');
    // LIKE's own wildcards are taken literally.
    expect((await server.call('manageUserList', { keywords: '%' }, as(root))).count).toBe(0);
    const page = await server.call('manageUserList', { page: 1, limit: 2 }, as(root));
    expect(page.data).toHaveLength(2);
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect((await server.call('manageUserList', { limit: 101 }, as(root))).code).toBe(400);
  });

  it('creates a user who can sign in, and refuses a taken account', async () => {
    const made = await server.call(
      'manageUserCreate',
      { account: 'Made_By_Admin', password: 'secret123', realname: 'Made' },
      as(root),
    );
    expect(made.data).toMatchObject({ account: 'made_by_admin', role: 0, status: 1, last_login_time: 0 });
    expect(await logIn(server, 'made_by_admin', 'secret123')).toMatch(/^bearer /);
    const again = await server.call(
      'manageUserCreate',
      { account: 'made_by_admin', password: 'secret123', realname: 'Made' },
      as(root),
    );
    expect(again.code).toBe(400);
  });

  it('disabling ends every session at once: the sockets get offline and close, the token is refused', async () => {
    const victim = await signUp(server, 'vic_disabled');
    const second = await logIn(server, 'vic_disabled', victim.password);
    const a = await TestSocket.bound(server, victim.userId, victim.token);
    const b = await TestSocket.bound(server, victim.userId, second);

    expect((await server.call('manageUserStatus', { user_id: victim.userId, status: 0 }, as(root))).code).toBe(0);
    for (const sock of [a, b]) {
      const frame = await sock.waitFor((f) => f.type === 'offline');
      expect(frame.data).toMatchObject({ id: victim.userId, reason: 'disabled', client_id: sock.clientId });
      expect(await sock.waitClosed()).toBe(4004);
    }
    expect((await server.call('checkuser', {}, { token: second })).code).toBe(-1);
    expect((await server.call('login', { account: 'vic_disabled', password: victim.password })).code).toBe(400);

    expect((await server.call('manageUserStatus', { user_id: victim.userId, status: 1 }, as(root))).code).toBe(0);
    expect(await logIn(server, 'vic_disabled', victim.password)).toMatch(/^bearer /);

    const rows = await server.call('manageAuditList', { admin_id: root.userId, action: 'userDisable' }, as(root));
    expect(rows.data[0]).toMatchObject({
      admin_id: root.userId,
      admin_name: 'root_admin',
      action: 'userDisable',
      target: `user:${victim.userId}`,
      ip: '127.0.0.1',
    });
    expect(rows.data[0].create_time).toBe(server.clock.now());
  });

  it('an admin cannot disable themselves, and the last admin keeps the role', async () => {
    const self = await server.call('manageUserStatus', { user_id: root.userId, status: 0 }, as(root));
    expect(self).toMatchObject({ code: 400, msg: 'You cannot disable your own account' });
    const last = await server.call(
      'manageUserRole',
      { user_id: root.userId, role: 0 },
      { ...as(root), lang: 'zh-Hans' },
    );
    expect(last).toMatchObject({ code: 400, msg: '至少要保留一位管理员' });

    // With a second admin, the first may step down; the second is then the last.
    const deputy = await signUp(server, 'deputy_admin');
    expect((await server.call('manageUserRole', { user_id: deputy.userId, role: 1 }, as(root))).code).toBe(0);
    expect((await server.call('manageUserRole', { user_id: root.userId, role: 0 }, as(root))).code).toBe(0);
    expect((await server.call('manageStats', {}, as(root))).code).toBe(403);
    expect((await server.call('manageUserRole', { user_id: deputy.userId, role: 0 }, as(deputy))).code).toBe(400);
    expect((await server.call('manageUserRole', { user_id: root.userId, role: 1 }, as(deputy))).code).toBe(0);
    // Disabling the other admin is allowed while one stays enabled.
    expect((await server.call('manageUserStatus', { user_id: deputy.userId, status: 0 }, as(root))).code).toBe(0);
    expect((await server.call('manageUserStatus', { user_id: deputy.userId, status: 1 }, as(root))).code).toBe(0);
    expect((await server.call('manageUserRole', { user_id: deputy.userId, role: 0 }, as(root))).code).toBe(0);
  });

  it('a password an admin sets ends the sessions and asks for a new one at next login', async () => {
    const pat = await signUp(server, 'pat_reset');
    const sock = await TestSocket.bound(server, pat.userId, pat.token);
    expect(
      (await server.call('manageUserPassword', { user_id: pat.userId, password: 'given123' }, as(root))).code,
    ).toBe(0);
    expect((await sock.waitFor((f) => f.type === 'offline')).data.reason).toBe('password');
    expect((await server.call('checkuser', {}, { token: pat.token })).code).toBe(-1);
    const login = await server.call('login', { account: 'pat_reset', password: 'given123' });
    expect(login.data.userInfo.must_change_password).toBe(1);
    const token = login.data.authToken;
    // Until they choose their own, every other call is refused in their language.
    for (const [name, body] of [
      ['getContacts', {}],
      ['updateUserInfo', { motto: 'x' }],
      ['bindUid', { client_id: 'c', user_id: pat.userId }],
      ['sendMessage', { id: randomUUID(), toContactId: root.userId, is_group: 0, type: 'text', content: 'hi' }],
    ] as const) {
      const refused = await server.call(name, body, { token, lang: 'fr' });
      expect([name, refused.code, refused.msg]).toEqual([
        name,
        403,
        'Un administrateur a défini votre mot de passe : changez-le d’abord',
      ]);
    }
    expect((await server.call('getContacts', {}, { token, lang: null })).msg).toBe(
      '管理员为您设置了密码，请先修改密码',
    );
    const own = await server.call('checkuser', {}, { token });
    expect([own.code, own.data.must_change_password]).toEqual([0, 1]);
    expect((await server.call('getSystemInfo', {}, { token })).code).toBe(0);
    // Nor does a socket of theirs get pushes.
    const early = await TestSocket.open(server);
    early.send({ type: 'bindUid', user_id: pat.userId, token });
    expect(await early.waitClosed()).toBe(4001);
    expect(
      (await server.call('editPassword', { originalPassword: 'given123', password: 'mine1234' }, { token })).code,
    ).toBe(0);
    expect((await server.call('getContacts', {}, { token })).code).toBe(0);
    (await TestSocket.bound(server, pat.userId, token)).close();
    const again = await server.call('login', { account: 'pat_reset', password: 'mine1234' });
    expect(again.data.userInfo.must_change_password).toBeUndefined();
  });

  it('ends every session of a user on demand', async () => {
    const sam = await signUp(server, 'sam_logout');
    const sock = await TestSocket.bound(server, sam.userId, sam.token);
    expect((await server.call('manageUserLogout', { user_id: sam.userId }, as(root))).code).toBe(0);
    expect((await sock.waitFor((f) => f.type === 'offline')).data.reason).toBe('ended');
    expect((await server.call('checkuser', {}, { token: sam.token })).code).toBe(-1);
    // The account itself still works.
    expect(await logIn(server, 'sam_logout', sam.password)).toMatch(/^bearer /);
  });

  it('lists groups and members, hands a group over and disbands it as its owner would', async () => {
    const list = await server.call('manageGroupList', { keywords: 'watch' }, as(root));
    expect(list.count).toBe(1);
    expect(list.data[0]).toMatchObject({
      group_id: groupId,
      name: 'Admins watch',
      member_count: 3,
      owner: { user_id: plain.userId },
    });
    const members = await server.call('manageGroupMembers', { group_id: groupId }, as(root));
    expect(members.data.map((m: any) => [m.user_id, m.role])).toEqual([
      [plain.userId, 1],
      [root.userId, 3],
      [third.userId, 3],
    ]);
    // Only a member can be made owner: someone outside is refused.
    const outsider = await signUp(server, 'outsider_x');
    expect(
      (await server.call('manageGroupOwner', { group_id: groupId, user_id: outsider.userId }, as(root))).code,
    ).toBe(403);
    expect((await server.call('manageGroupOwner', { group_id: groupId, user_id: root.userId }, as(root))).code).toBe(0);
    expect((await server.call('manageGroupList', { keywords: 'watch' }, as(root))).data[0].owner.user_id).toBe(
      root.userId,
    );

    const sock = await TestSocket.bound(server, plain.userId, plain.token);
    expect((await server.call('manageGroupDisband', { group_id: groupId }, as(root))).code).toBe(0);
    expect((await sock.waitFor((f) => f.type === 'disbandGroup')).data).toEqual({ group_id: groupId });
    expect((await server.call('manageGroupList', { keywords: 'watch' }, as(root))).count).toBe(0);
    expect((await server.call('manageGroupMembers', { group_id: groupId }, as(root))).code).toBe(404);
    sock.close();
  });

  it('shows every setting with a description in the caller’s language and saves one live', async () => {
    const got = await server.call('manageConfigGet', {}, { ...as(root), lang: 'en' });
    expect(got.data.settings.map((s: any) => s.key)).toEqual(Object.keys(CONFIG_KEYS));
    const redo = got.data.settings.find((s: any) => s.key === 'chatInfo.redoTime');
    expect(redo).toMatchObject({ value: 86400 });
    expect(redo.description).toMatch(/withdrawn/);
    expect(redo).toMatchObject({ label: 'Time to withdraw', control: { kind: 'number', min: 0, unit: 'seconds' } });
    const zh = await server.call('manageConfigGet', {}, { ...as(root), lang: 'zh-Hans' });
    const zhOf = (key: string) => zh.data.settings.find((s: any) => s.key === key);
    expect(zhOf('chatInfo.redoTime').description).toMatch(/撤回/);
    // Each is edited as what it is, named in the caller's language: a switch, a choice with its options.
    expect(zhOf('chatInfo.webrtc')).toMatchObject({ label: '音视频通话', control: { kind: 'switch' } });
    expect(zhOf('sysInfo.runMode').control).toEqual({
      kind: 'choice',
      options: [
        { value: 1, label: '组织内所有人互为联系人' },
        { value: 2, label: '仅好友' },
      ],
    });

    const watcher = await TestSocket.bound(server, plain.userId, plain.token);
    const set = await server.call('manageConfigSet', { key: 'chatInfo.redoTime', value: 120 }, as(root));
    expect(set.data.settings.find((s: any) => s.key === 'chatInfo.redoTime').value).toBe(120);
    expect((await watcher.waitFor((f) => f.type === 'updateConfig')).data.chatInfo.redoTime).toBe(120);
    expect((await server.call('getSystemInfo', {})).data.chatInfo.redoTime).toBe(120);
    watcher.close();

    // Each key is checked against its own rule.
    for (const [key, value] of [
      ['chatInfo.redoTime', -1],
      ['chatInfo.redoTime', 'soon'],
      ['sysInfo.regtype', 3],
      ['sysInfo.logo', 'javascript:alert(1)'],
      ['fileUpload.fileExt', ['exe', '../x']],
      ['rateLimits', 1],
      ['constructor', 1],
    ] as const) {
      const bad = await server.call('manageConfigSet', { key, value }, as(root));
      expect(bad.code, `${key}=${JSON.stringify(value)}`).toBe(400);
    }
    // A refusal names the setting and its rule, in the caller's language.
    const said = async (key: string, value: unknown, lang: string) =>
      (await server.call('manageConfigSet', { key, value }, { ...as(root), lang })).msg;
    expect(await said('chatInfo.redoTime', -1, 'zh-Hans')).toBe('撤回时限须为 0–2592000 之间的整数');
    expect(await said('sysInfo.regtype', 3, 'zh-Hans')).toBe('注册方式须为以下之一：开放注册 / 需要邀请码');
    expect(await said('sysInfo.logo', 'javascript:alert(1)', 'en')).toBe(
      'Logo must be an address starting with http or https, or empty',
    );
    const ext = await server.call('manageConfigSet', { key: 'fileUpload.fileExt', value: '["PNG","txt"]' }, as(root));
    expect(ext.data.settings.find((s: any) => s.key === 'fileUpload.fileExt').value).toEqual(['png', 'txt']);
    await server.call('manageConfigSet', { key: 'chatInfo.redoTime', value: 86400 }, as(root));
    const audit = await server.call('manageAuditList', { action: 'configSet' }, as(root));
    expect(JSON.parse(audit.data.find((r: any) => r.target === 'chatInfo.redoTime').detail)).toEqual({
      from: 120,
      to: 86400,
    });
  });

  it('creates, lists and revokes invite codes; a revoked code admits nobody', async () => {
    await server.ctx.config.set('sysInfo.regtype', '2');
    try {
      const made = await server.call('manageInviteCreate', { uses: 2, days: 3 }, as(root));
      expect(made.data).toMatchObject({ uses_left: 2, created_by: root.userId });
      const { code } = made.data;
      expect((await server.call('manageInviteList', {}, as(root))).data.map((i: any) => i.code)).toContain(code);
      expect((await server.call('manageInviteRevoke', { code }, as(root))).code).toBe(0);
      const refused = await server.call('register', {
        account: 'invited_late',
        password: 'secret123',
        realname: 'Late',
        inviteCode: code,
      });
      expect(refused.code).toBe(400);
      expect((await server.call('manageInviteRevoke', { code }, as(root))).code).toBe(404);
    } finally {
      await server.ctx.config.set('sysInfo.regtype', '1');
    }
  });

  it('publishes an announcement to admin_notice, lists it and withdraws it', async () => {
    const sock = await TestSocket.bound(server, plain.userId, plain.token);
    const made = await server.call('manageNoticePublish', { title: 'Upgrade', notice: 'Tonight at 23:00' }, as(root));
    expect(made.data).toMatchObject({ title: 'Upgrade', notice: 'Tonight at 23:00' });
    expect((await sock.waitFor((f) => f.type === 'adminNotice')).data).toMatchObject({ title: 'Upgrade' });
    expect((await server.call('getAdminNotice', {}, { token: plain.token })).data).toMatchObject({ title: 'Upgrade' });
    const list = await server.call('manageNoticeList', {}, as(root));
    expect(list.data[0]).toMatchObject({ id: made.data.id, title: 'Upgrade' });
    expect((await server.call('manageNoticeDel', { id: made.data.id }, as(root))).code).toBe(0);
    expect((await server.call('manageNoticeList', {}, as(root))).data.map((n: any) => n.id)).not.toContain(
      made.data.id,
    );
    expect((await server.call('manageNoticeDel', { id: made.data.id }, as(root))).code).toBe(404);
    expect((await server.call('manageNoticePublish', { title: 'x'.repeat(129), notice: 'y' }, as(root))).code).toBe(
      400,
    );
    sock.close();
  });

  it('counts users, online users, groups, messages per day for 30 days, storage, version and uptime', async () => {
    const before = (await server.call('manageStats', {}, as(root))).data.storageBytes;
    // Text the server has never seen, so that it is stored anew.
    const bytes = Buffer.from(`${randomUUID()}\n`.repeat(343));
    const up = await server.upload('uploadFile', { name: 'stats.txt', bytes }, { token: plain.token });
    expect(up.json.code, up.json.msg).toBe(0);
    // Uploads are kept once by their bytes: the same file again takes no more room.
    const again = await server.upload('uploadFile', { name: 'copy.txt', bytes }, { token: third.token });
    expect(again.json.data.file_id).toBe(up.json.data.file_id);
    const sock = await TestSocket.bound(server, plain.userId, plain.token);
    await server.call(
      'sendMessage',
      {
        id: crypto.randomUUID(),
        toContactId: root.userId,
        is_group: 0,
        type: 'text',
        content: 'hello',
      },
      { token: plain.token },
    );
    const stats = (await server.call('manageStats', {}, as(root))).data;
    expect(stats.users).toBe(
      Number(
        (
          await server.ctx.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
    expect(stats.online).toBeGreaterThanOrEqual(1);
    expect(stats.messagesPerDay).toHaveLength(30);
    expect(stats.messagesPerDay.at(-1)).toEqual({
      day: new Date(server.clock.now()).toISOString().slice(0, 10),
      count: stats.messagesToday,
    });
    expect(stats.messagesToday).toBeGreaterThanOrEqual(1);
    expect(stats.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(stats.uptimeS).toBeGreaterThanOrEqual(0);
    expect(stats.storageBytes - before).toBe(bytes.length);
    sock.close();
  });

  describe('the audit log', () => {
    it('has a step for every route that changes something, writing between them every kind of row', () => {
      const steps = auditSteps(
        { user: 0, invite: '', notice: 0, dep: 0, list: 0, held: 0, words: [], report: 0, session: 0, token: 0 },
        'group-0',
        { userId: 0 },
        { userId: 0 },
      );
      // Every route that changes something is in the table (the others only read).
      const reads = new Set<RouteName>([
        'manageStats',
        'manageConfigGet',
        'manageAuditList',
        'manageLdapGet',
        'manageDepartmentList',
        'manageKeywordLists',
        'manageKeywordWords',
        'manageKeywordTest',
        // Opening a report puts it in review with the admin as its handler; the action is what is audited.
        'manageReportGet',
        'manageUserSecurity',
      ]);
      const changing = MANAGE.filter((n) => !reads.has(n) && !/List$|Members$/.test(n));
      expect(new Set(steps.map((s) => s.route))).toEqual(new Set(changing));
      // …and between them they write every kind of row there is but those written as users sign in and
      // change their own factors (the actor the user themself).
      const byUsers = new Set([
        'signInNewDevice',
        'twoStepOn',
        'twoStepOff',
        'recoveryCodesNew',
        'passkeyAdd',
        'passkeyRemove',
        'tokenCreate',
        'ssoLink',
        'ssoCreate',
        'ldapCreate',
      ]);
      expect(new Set(steps.map((s) => s.action))).toEqual(new Set(AUDIT_ACTIONS.filter((a) => !byUsers.has(a))));
    });

    it('writes one audit row for each change an admin makes: who, what, on what, from where', async () => {
      const ip = '198.51.100.24';
      const by = { ...as(root), ip };
      const owner = await signUp(server, 'audit_owner');
      const member = await signUp(server, 'audit_member');
      const made = await server.call(
        'groupAdd',
        { name: 'Audited', user_ids: [member.userId, third.userId] },
        { token: owner.token },
      );
      expect(made.code, made.msg).toBe(0);
      const hold = async () => {
        const id = randomUUID();
        const sent = await server.call(
          'sendMessage',
          { id, toContactId: -1, type: 'text', content: 'auditword' },
          { token: owner.token },
        );
        expect(sent.data?.held, sent.msg).toBe(1);
        const row = await server.ctx.db
          .selectFrom('held_items')
          .select('id')
          .where('client_id', '=', id)
          .executeTakeFirstOrThrow();
        return row.id;
      };
      let reported = 0;
      const report = async (kind: 'user' | 'message' | 'group') => {
        reported += 1;
        const target = await signUp(server, `audit_reported_${reported}`);
        let id: number | string = target.userId;
        if (kind !== 'user') {
          const group = await server.call(
            'groupAdd',
            { name: `Reported ${reported}`, user_ids: [member.userId, third.userId] },
            { token: target.token },
          );
          expect(group.code, group.msg).toBe(0);
          id = group.data.id;
          if (kind === 'message') {
            const sent = await server.call(
              'sendMessage',
              { id: randomUUID(), toContactId: id, type: 'text', content: 'reported words' },
              { token: target.token },
            );
            expect(sent.code, sent.msg).toBe(0);
            id = sent.data.msg_id;
          }
        }
        const made = await server.call('report', { kind, id, reason: 'spam' }, { token: member.token });
        expect(made.code, made.msg).toBe(0);
        return made.data.id as number;
      };
      const session = async (userId: number) =>
        (await server.ctx.sessions.create(userId, { cid: '', isMobile: false, userAgent: 'test', ip })).id;
      const token = async (userId: number) => {
        const id = await server.ctx.repos.accessTokens.add(
          {
            user_id: userId,
            name: 'audited',
            token_hash: crypto.randomUUID().replaceAll('-', ''),
            hint: 'spt_audi',
            scopes: 'messages:read',
            create_time: server.ctx.now(),
          },
          20,
        );
        if (id === 'full') throw new Error('no room for a token');
        return id;
      };
      const wordIds = async (listId: number) =>
        (await server.call('manageKeywordWords', { list_id: listId }, as(root))).data.map((w: { id: number }) => w.id);
      const steps = auditSteps(
        { user: 0, invite: '', notice: 0, dep: 0, list: 0, held: 0, words: [], report: 0, session: 0, token: 0 },
        made.data.id,
        owner,
        member,
        { hold, wordIds, report, session, token },
      );
      for (const step of steps) {
        await step.before?.();
        const before = (await server.call('manageAuditList', { limit: 1 }, as(root))).count ?? 0;
        const answer = await server.call(step.route, step.body(), by);
        expect(answer.code, `${step.route}: ${answer.msg}`).toBe(0);
        step.keep?.(answer.data);
        const rows = await server.call('manageAuditList', { limit: 2 }, as(root));
        expect(rows.count, step.route).toBe(before + (step.also ? 2 : 1));
        const row = rows.data[0];
        if (step.also) expect(rows.data[1].action, step.route).toBe(step.also);
        expect(row, step.route).toMatchObject({
          admin_id: root.userId,
          admin_name: 'root_admin',
          action: step.action,
          target: step.target(),
          ip,
          create_time: server.clock.now(),
        });
        expect(JSON.parse(row.detail), step.route).toMatchObject(step.detail?.() ?? {});
        expect(row.detail, step.route).not.toMatch(/secret123|given123/);
        // The console's filters find it: by action, and by this admin.
        const byAction = await server.call('manageAuditList', { action: step.action, limit: 1 }, as(root));
        expect(byAction.data[0].id, step.route).toBe(row.id);
        const byAdmin = await server.call('manageAuditList', { admin_id: root.userId, limit: 1 }, as(root));
        expect(byAdmin.data[0].id, step.route).toBe(row.id);
      }
    });

    it('writes nothing for a refused change', async () => {
      const by = { ...as(root), ip: '198.51.100.24' };
      const count = (await server.call('manageAuditList', {}, as(root))).count;
      expect((await server.call('manageUserStatus', { user_id: root.userId, status: 0 }, by)).code).toBe(400);
      expect((await server.call('manageNoticeDel', { id: 999_999 }, by)).code).toBe(404);
      expect((await server.call('manageAuditList', {}, as(root))).count).toBe(count);
    });
  });

  it('takes the session only from the Authorization header: a cookie alone is signed out (no CSRF)', async () => {
    const token = root.token.replace(/^bearer /, '');
    const cookies = [
      `token=${token}`,
      `authToken=${token}`,
      `Authorization=${encodeURIComponent(root.token)}`,
      `session=${token}; sparrow_token=${token}`,
    ];
    const count = (await server.call('manageAuditList', {}, as(root))).count;
    for (const cookie of cookies) {
      for (const [name, body] of [
        ['manageStats', {}],
        ['manageUserStatus', { user_id: plain.userId, status: 0 }],
        ['manageNoticePublish', { title: 'Forged', notice: 'From another site' }],
      ] as const) {
        const res = await server.callRaw(name, body, { lang: 'en', headers: { cookie } });
        expect(res.json, `${name} with ${cookie}`).toMatchObject({ code: -1, data: [] });
      }
    }
    // Nothing happened: plain is still enabled, no announcement, no audit row.
    const found = await server.call('manageUserList', { keywords: 'plain_user' }, as(root));
    expect(found.data[0]).toMatchObject({ user_id: plain.userId, status: 1 });
    const notices = await server.call('manageNoticeList', {}, as(root));
    expect(notices.data.map((n: any) => n.title)).not.toContain('Forged');
    expect((await server.call('manageAuditList', {}, as(root))).count).toBe(count);
    // The same token in the header is the admin, and signing in sets no cookie for a browser to replay.
    expect((await server.call('manageStats', {}, as(root))).code).toBe(0);
    const login = await server.callRaw('login', { account: 'plain_user', password: plain.password });
    expect(login.json.code).toBe(0);
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('keeps the audit log append-only: the database refuses to change or delete a row', async () => {
    const rows = await server.call('manageAuditList', { limit: 100 }, as(root));
    expect(rows.count).toBeGreaterThan(5);
    const id = rows.data[0].id;
    await expect(sql`update audit_log set action = 'forged' where id = ${id}`.execute(server.ctx.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log where id = ${id}`.execute(server.ctx.db)).rejects.toThrow(/append-only/);
    expect((await server.call('manageAuditList', { limit: 1 }, as(root))).data[0]).toEqual(rows.data[0]);
    expect(JSON.stringify(rows.data)).not.toMatch(/secret123|given123/);
  });

  it('the command line uses the same rules and writes the same audit rows', async () => {
    const made = cli('user', 'create', 'cli_person', 'secret123', 'Cli Person');
    expect(made.status, made.out).toBe(0);
    expect(cli('user', 'disable', 'cli_person').status).toBe(0);
    const refused = cli('user', 'role', 'root_admin', 'user');
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/at least one administrator/);
    expect(cli('config', 'set', 'chatInfo.redoTime', 'soon').status).toBe(1);
    const audit = await server.call('manageAuditList', { admin_id: 0 }, as(root));
    expect(audit.data.slice(0, 2).map((r: any) => [r.action, r.ip, r.admin_name])).toEqual([
      ['userDisable', 'cli', ''],
      ['userCreate', 'cli', ''],
    ]);
    // Four processes of the command line, each compiling it anew: seconds each on a busy machine.
  }, 90_000);

  it('gives admins their own rate limit', async () => {
    await server.ctx.config.set('rateLimits.manage.perMinute', String(RATE_LIMITS.manage.perMinute));
    const burst = await Promise.all(Array.from({ length: 310 }, () => server.call('manageStats', {}, as(root))));
    expect(burst.filter((r) => r.code === 429).length).toBeGreaterThan(0);
    // Plain calls of the same admin are not counted against it.
    expect((await server.call('checkuser', {}, as(root))).code).toBe(0);
  });
});

/** What the audit steps made, for the later steps to name. */
interface AuditMade {
  user: number;
  invite: string;
  notice: number;
  dep: number;
  /** A keyword list, a held message, words of the list. */
  list: number;
  held: number;
  words: number[];
  /** A report, made before each action on one. */
  report: number;
  /** A session of the user, made before the console ends it. */
  session: number;
  /** A personal access token of the user, made before the console revokes it. */
  token: number;
}

/** A change an admin makes through the console, and the audit row it must write. */
interface AuditStep {
  route: RouteName;
  body: () => Record<string, unknown>;
  action: string;
  target: () => string;
  detail?: () => Record<string, unknown>;
  keep?: (data: any) => void;
  /** What must exist before the change (not itself audited). */
  before?: () => Promise<void>;
  /** An action the change makes as well, audited under its own name just before it (a report's disable, dissolve). */
  also?: string;
}

/** What the keyword steps need made outside the console: a held message, a list's word ids. */
interface AuditHelpers {
  hold(): Promise<number>;
  wordIds(listId: number): Promise<number[]>;
  /** A member's report of a fresh user, of a message in a fresh group, or of a fresh group: its id. */
  report(kind: 'user' | 'message' | 'group'): Promise<number>;
  /** A fresh session of a user: its id. */
  session(userId: number): Promise<number>;
  /** A fresh personal access token of a user: its id. */
  token(userId: number): Promise<number>;
}

/**
 * One change for each console route that changes something, in an order in which each names what an
 * earlier one made (kept in `got`): a user, an invite, a notice, a department, and `group` handed from
 * `owner` to `member`.
 */
function auditSteps(
  got: AuditMade,
  group: string,
  owner: { userId: number },
  member: { userId: number },
  helpers?: AuditHelpers,
): AuditStep[] {
  return [
    {
      route: 'manageUserCreate',
      body: () => ({ account: 'audited_user', password: 'secret123', realname: 'Audited' }),
      action: 'userCreate',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', role: 0 }),
      keep: (d) => (got.user = d.user_id),
    },
    {
      route: 'manageUserPassword',
      body: () => ({ user_id: got.user, password: 'given123' }),
      action: 'userPassword',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user' }),
    },
    {
      route: 'manageUserRole',
      body: () => ({ user_id: got.user, role: 1 }),
      action: 'userRole',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', role: 1 }),
    },
    {
      route: 'manageUserRole',
      body: () => ({ user_id: got.user, role: 0 }),
      action: 'userRole',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', role: 0 }),
    },
    {
      route: 'manageUserLogout',
      body: () => ({ user_id: got.user }),
      action: 'userLogout',
      target: () => `user:${got.user}`,
    },
    {
      route: 'manageSessionEnd',
      before: async () => void (got.session = (await helpers?.session(got.user)) ?? 0),
      body: () => ({ user_id: got.user, session_id: got.session }),
      action: 'sessionEnd',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', session_id: got.session }),
    },
    {
      route: 'manageTokenRevoke',
      before: async () => void (got.token = (await helpers?.token(got.user)) ?? 0),
      body: () => ({ user_id: got.user, id: got.token }),
      action: 'tokenRevoke',
      target: () => `user:${got.user}`,
      detail: () => ({ token: got.token }),
    },
    {
      route: 'manageTwoStepReset',
      body: () => ({ user_id: got.user }),
      action: 'twoStepReset',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', sessions: 0 }),
    },
    {
      route: 'manageUserStatus',
      body: () => ({ user_id: got.user, status: 0 }),
      action: 'userDisable',
      target: () => `user:${got.user}`,
    },
    {
      route: 'manageUserStatus',
      body: () => ({ user_id: got.user, status: 1 }),
      action: 'userEnable',
      target: () => `user:${got.user}`,
    },
    {
      route: 'manageGroupOwner',
      body: () => ({ group_id: group, user_id: member.userId }),
      action: 'groupOwner',
      target: () => group,
      detail: () => ({ from: owner.userId, to: member.userId }),
    },
    {
      route: 'manageGroupDisband',
      body: () => ({ group_id: group }),
      action: 'groupDisband',
      target: () => group,
      detail: () => ({ name: 'Audited' }),
    },
    {
      route: 'manageInviteCreate',
      body: () => ({ uses: 3, days: 2 }),
      action: 'inviteCreate',
      target: () => `invite:${got.invite}`,
      detail: () => ({ uses: 3, days: 2 }),
      keep: (d) => (got.invite = d.code),
    },
    {
      route: 'manageInviteRevoke',
      body: () => ({ code: got.invite }),
      action: 'inviteRevoke',
      target: () => `invite:${got.invite}`,
    },
    {
      route: 'manageNoticePublish',
      body: () => ({ title: 'Audited notice', notice: 'Read me' }),
      action: 'noticePublish',
      target: () => `notice:${got.notice}`,
      detail: () => ({ title: 'Audited notice' }),
      keep: (d) => (got.notice = d.id),
    },
    {
      route: 'manageNoticeDel',
      body: () => ({ id: got.notice }),
      action: 'noticeDel',
      target: () => `notice:${got.notice}`,
    },
    {
      route: 'manageConfigSet',
      body: () => ({ key: 'chatInfo.sendInterval', value: 2 }),
      action: 'configSet',
      target: () => 'chatInfo.sendInterval',
      detail: () => ({ to: 2 }),
    },
    {
      route: 'manageConfigSet',
      body: () => ({ key: 'chatInfo.sendInterval', value: 0 }),
      action: 'configSet',
      target: () => 'chatInfo.sendInterval',
      detail: () => ({ from: 2, to: 0 }),
    },
    {
      route: 'manageDepartmentCreate',
      body: () => ({ name: 'Audit desk' }),
      action: 'departmentCreate',
      target: () => `department:${got.dep}`,
      detail: () => ({ name: 'Audit desk', parent_id: 0 }),
      keep: (d) => (got.dep = d.id),
    },
    {
      route: 'manageDepartmentRename',
      body: () => ({ id: got.dep, name: 'Audit office' }),
      action: 'departmentRename',
      target: () => `department:${got.dep}`,
      detail: () => ({ from: 'Audit desk', to: 'Audit office' }),
    },
    {
      route: 'manageUserDepartment',
      body: () => ({ user_id: got.user, dep_id: got.dep }),
      action: 'userDepartment',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', from: 0, to: got.dep }),
    },
    {
      route: 'manageUserDepartment',
      body: () => ({ user_id: got.user, dep_id: 0 }),
      action: 'userDepartment',
      target: () => `user:${got.user}`,
      detail: () => ({ account: 'audited_user', from: got.dep, to: 0 }),
    },
    {
      route: 'manageDepartmentDel',
      body: () => ({ id: got.dep }),
      action: 'departmentDel',
      target: () => `department:${got.dep}`,
      detail: () => ({ name: 'Audit office' }),
    },
    {
      route: 'manageKeywordListCreate',
      body: () => ({ name: 'Audited words', action: 'review' }),
      action: 'keywordListCreate',
      target: () => `keywords:${got.list}`,
      detail: () => ({ name: 'Audited words', action: 'review' }),
      keep: (d) => (got.list = d.id),
    },
    {
      route: 'manageKeywordAdd',
      body: () => ({ list_id: got.list, words: 'auditword\nsecondword' }),
      action: 'keywordAdd',
      target: () => `keywords:${got.list}`,
      detail: () => ({ count: 2, words: ['auditword', 'secondword'] }),
    },
    {
      route: 'manageKeywordListUpdate',
      body: () => ({ id: got.list, name: 'Audited list' }),
      action: 'keywordListUpdate',
      target: () => `keywords:${got.list}`,
      detail: () => ({ from: { name: 'Audited words' }, to: { name: 'Audited list' } }),
    },
    {
      route: 'manageHeldDecide',
      before: async () => void (got.held = (await helpers?.hold()) ?? 0),
      body: () => ({ id: got.held, decision: 'approve' }),
      action: 'heldApprove',
      target: () => `held:${got.held}`,
      detail: () => ({ kind: 'message', words: ['auditword'] }),
    },
    {
      route: 'manageHeldDecide',
      before: async () => void (got.held = (await helpers?.hold()) ?? 0),
      body: () => ({ id: got.held, decision: 'reject' }),
      action: 'heldReject',
      target: () => `held:${got.held}`,
      detail: () => ({ kind: 'message' }),
    },
    {
      route: 'manageKeywordRemove',
      before: async () => void (got.words = (await helpers?.wordIds(got.list)) ?? []),
      body: () => ({ list_id: got.list, ids: got.words }),
      action: 'keywordRemove',
      target: () => `keywords:${got.list}`,
      detail: () => ({ name: 'Audited list', count: 2 }),
    },
    {
      route: 'manageSsoSave',
      body: () => ({
        id: 'audited',
        issuer: 'https://idp.example.com',
        client_id: 'sparrow',
        client_secret: 'audited-secret',
        label: 'Audited',
      }),
      action: 'configSet',
      target: () => 'sso:audited',
      detail: () => ({ id: 'audited', label: 'Audited', added: true, secretChanged: true }),
    },
    {
      route: 'manageSsoDel',
      body: () => ({ id: 'audited' }),
      action: 'configSet',
      target: () => 'sso:audited',
      detail: () => ({ removed: true }),
    },
    {
      route: 'manageLdapSet',
      body: () => ({ ...LDAP_DEFAULTS, bindDn: 'cn=reader,dc=example,dc=org', bindPassword: 'audited-secret' }),
      action: 'configSet',
      target: () => 'ldap',
      detail: () => ({ bindPassword: 'changed' }),
    },
    {
      route: 'manageKeywordListDel',
      body: () => ({ id: got.list }),
      action: 'keywordListDel',
      target: () => `keywords:${got.list}`,
      detail: () => ({ name: 'Audited list', words: 0 }),
    },
    ...(
      [
        ['user', 'warn', 'reportWarn', undefined],
        ['message', 'takedown', 'reportTakedown', undefined],
        ['user', 'mute', 'reportMute', undefined],
        ['user', 'disable', 'reportDisable', 'userDisable'],
        ['group', 'dissolve', 'reportDissolve', 'groupDisband'],
        ['user', 'dismiss', 'reportDismiss', undefined],
      ] as const
    ).map(([kind, action, audited, also]): AuditStep => ({
      route: 'manageReportAct',
      also,
      before: async () => void (got.report = (await helpers?.report(kind)) ?? 0),
      body: () => ({ id: got.report, action, ...(action === 'mute' ? { minutes: 60 } : {}) }),
      action: audited,
      target: () => `report:${got.report}`,
      detail: () => ({ kind, ...(action === 'mute' ? { minutes: 60 } : {}) }),
    })),
  ];
}

describeWithRedis('administration across nodes', (redisUrl) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await Cluster.start('sqlite', redisUrl, 2);
  }, 60_000);
  afterAll(async () => {
    await cluster.stop();
  });

  it('a user disabled on one node is sent offline on the node holding their socket', async () => {
    const [a, b] = cluster.nodes as [Node, Node];
    const signUpOn = async (account: string) => {
      await a.call('register', { account, password: 'secret123', realname: account });
      const login = await a.call('login', { account, password: 'secret123' });
      return { userId: login.data.userInfo.user_id as number, token: login.data.authToken as string };
    };
    const boss = await signUpOn('boss_cluster');
    const far = await signUpOn('far_cluster');
    const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    try {
      await opened.db.updateTable('users').set({ role: 1 }).where('id', '=', boss.userId).execute();
    } finally {
      await opened.close();
    }
    const sock = await TestSocket.bound(b, far.userId, far.token);
    expect((await a.call('manageUserStatus', { user_id: far.userId, status: 0 }, boss.token)).code).toBe(0);
    expect((await sock.waitFor((f) => f.type === 'offline', 5000)).data).toMatchObject({
      id: far.userId,
      reason: 'disabled',
      client_id: sock.clientId,
    });
    expect(await sock.waitClosed()).toBe(4004);
    expect((await b.call('checkuser', {}, far.token)).code).toBe(-1);
  });
});

describe('the dashboard’s reads of messages', () => {
  it('count the last 30 days through the time index, not by scanning every message', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-admin-plans-'));
    const opened = openDb({ dataDir });
    await migrate(opened);
    await opened.close();
    const sqlite = new SQLite(path.join(dataDir, 'sparrow.db'));
    const ran: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => void ran.push(event.query),
    });
    try {
      await new AdminRepo(db).messagesPerDay(Date.now() - 30 * 86_400_000);
      const lines = ran.flatMap((q) =>
        sqlite
          .prepare(`explain query plan ${q.sql}`)
          .all(...(q.parameters as unknown[]))
          .map((r) => (r as { detail: string }).detail),
      );
      expect(lines.some((l) => l.includes('USING COVERING INDEX messages_create_time (create_time>?)'))).toBe(true);
      expect(lines.filter((l) => /^SCAN messages\b/.test(l))).toEqual([]);
    } finally {
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm run admin on a folder with no database', () => {
  it('says which folder it uses and refuses one with no database, unless told to create it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-admin-'));
    try {
      const run = (...args: string[]) => {
        const res = spawnSync(process.execPath, ['--import', 'tsx', adminMain, ...args], {
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
          encoding: 'utf8',
        });
        return { status: res.status, out: `${res.stdout}${res.stderr}` };
      };
      const refused = run('user', 'create', 'first_admin', 'secret123', 'First', '--admin');
      expect(refused.status).not.toBe(0);
      expect(refused.out).toContain(`data folder: ${dataDir}`);
      expect(refused.out).toContain(`no database in ${dataDir}`);
      expect(fs.readdirSync(dataDir)).toEqual([]);

      const made = run('user', 'create', 'first_admin', 'secret123', 'First', '--admin', '--create');
      expect(made.status, made.out).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'sparrow.db'))).toBe(true);
      expect(run('user', 'role', 'first_admin', 'admin').status).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
