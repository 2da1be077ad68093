import { randomUUID } from 'node:crypto';
import { ErrorCodes, GroupRoles, PICTURES } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import {
  callAs,
  describeEachDb,
  logIn,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

const DAY = 86_400_000;
let n = 0;

describeEachDb('deleting my account', (target) => {
  let server!: TestServer;
  const { ok, text } = serverForSuite(target, (s) => (server = s), {
    'account.removeMessages': '0',
    'account.nameHoldDays': '30',
    'chatInfo.sendInterval': '0',
  });

  const person = async (name: string) => {
    const account = `${name}${++n}del`;
    const u = await signUp(server, account, 'secret123', name);
    return { ...u, lang: 'en' } as TestUser & { account: string; userId: number; password: string };
  };

  const remove = (as: TestUser, password: string, ip?: string) =>
    server.call('accountDelete', { password }, { ...callAs(as), ...(ip && { ip }) });

  it('asks for the password, counting a wrong one as a failed login', async () => {
    const alice = await person('alice');
    const wrong = await remove(alice, 'not-my-password', '10.9.9.1');
    expect(wrong.code).toBe(ErrorCodes.OriginalPasswordWrong);
    expect((await server.call('getContacts', {}, callAs(alice))).code).toBe(0);
    // Enough wrong passwords lock sign-in as failed logins do.
    const max = server.ctx.config.get().rateLimits.loginFailures.max;
    for (let i = 1; i < max; i++) await remove(alice, 'not-my-password', '10.9.9.1');
    const locked = await server.call('login', { account: alice.account, password: alice.password }, { ip: '10.9.9.1' });
    expect(locked.code).not.toBe(0);
  });

  it('keeps my messages for others as from 已注销用户 in their language, and ends my sessions and sockets', async () => {
    const alice = await person('alice');
    const bob = { ...(await person('bob')), lang: 'zh-Hans' };
    await makeFriends(server, alice, bob);
    const sent = await text(alice, bob.userId, 'hello from alice');
    const second = await logIn(server, alice.account, alice.password);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    const bobSocket = await TestSocket.bound(server, bob.userId, bob.token);

    expect((await remove(alice, alice.password)).code).toBe(0);

    // Every token ended, every socket closed.
    expect((await server.call('getContacts', {}, callAs(alice))).code).toBe(ErrorCodes.NoSession);
    expect((await server.call('getContacts', {}, { token: second })).code).toBe(ErrorCodes.NoSession);
    await socket.waitClosed();
    // Bob's list loses Alice live.
    const removed = await bobSocket.waitFor((f) => f.type === 'removeGroup' && f.data.group_id === alice.userId);
    expect(removed.data.group_id).toBe(alice.userId);
    bobSocket.close();

    const history = await ok('getMessageList', { toContactId: alice.userId }, bob);
    const shown = (history as any[]).find((m) => m.msg_id === sent.msg_id);
    expect(shown.content).toBe('hello from alice');
    expect(shown.fromUser.displayName).toBe('已注销用户');
    expect(shown.fromUser.avatar).toBe(PICTURES.person);
    const synced = (await ok('sync', { after_id: sent.msg_id - 1 }, bob)) as any[];
    expect(synced.find((m) => m.msg_id === sent.msg_id).fromUser.displayName).toBe('已注销用户');
    const inEnglish = await server.call(
      'getMessageList',
      { toContactId: alice.userId },
      { token: bob.token, lang: 'en' },
    );
    expect((inEnglish.data as any[]).find((m) => m.msg_id === sent.msg_id).fromUser.displayName).toBe(
      'Deleted account',
    );

    // Friends gone both ways; a sign-in is answered as for an account that does not exist.
    const contacts = (await ok('getContacts', {}, bob)) as any[];
    expect(contacts.some((c) => c.id === alice.userId)).toBe(false);
    const row = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', alice.userId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(2);
    expect(row.password_hash).toBe('');
    const friends = await server.ctx.db
      .selectFrom('friends')
      .select('id')
      .where((eb) => eb.or([eb('user_id', '=', alice.userId), eb('friend_user_id', '=', alice.userId)]))
      .execute();
    expect(friends).toEqual([]);
    const signIn = await server.call('login', { account: alice.account, password: alice.password }, { ip: '10.9.9.2' });
    const nobody = await server.call('login', { account: `nobody${n}`, password: alice.password }, { ip: '10.9.9.3' });
    expect(signIn.code).toBe(nobody.code);
    expect(signIn.msg).toBe(nobody.msg);
  });

  it('removes my messages for everyone when the server says so', async () => {
    await server.ctx.config.set('account.removeMessages', '1');
    const alice = await person('alice');
    const bob = await person('bob');
    await makeFriends(server, alice, bob);
    const mine = await text(alice, bob.userId, 'to be removed');
    const theirs = await text(bob, alice.userId, 'stays');
    expect((await remove(alice, alice.password)).code).toBe(0);
    const history = (await ok('getMessageList', { toContactId: alice.userId }, bob)) as any[];
    expect(history.some((m) => m.msg_id === mine.msg_id)).toBe(false);
    expect(history.some((m) => m.msg_id === theirs.msg_id)).toBe(true);
  });

  it('leaves my groups: a member leaves, an owned group passes to an administrator, a group of one is disbanded', async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    const carl = await person('carl');
    const dora = await person('dora');
    const owned = await makeGroup(server, alice, [bob, carl]);
    await ok('setManager', { id: owned, user_id: carl.userId, role: GroupRoles.Admin }, alice);
    const joined = await makeGroup(server, dora, [alice, bob]);
    const alone = await makeGroup(server, alice, [bob, carl]);
    await ok('removeUser', { id: alone, user_id: bob.userId }, bob);
    await ok('removeUser', { id: alone, user_id: carl.userId }, carl);
    await text(alice, owned, 'in the group');

    expect((await remove(alice, alice.password)).code).toBe(0);

    const groupId = (id: string) => Number(id.replace('group-', ''));
    const ownedRow = await server.ctx.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', groupId(owned))
      .executeTakeFirstOrThrow();
    expect(ownedRow.owner_id).toBe(carl.userId);
    expect(ownedRow.status).toBe(1);
    const members = await server.ctx.db
      .selectFrom('group_members')
      .select(['user_id', 'group_id'])
      .where('user_id', '=', alice.userId)
      .execute();
    expect(members.filter((m) => m.group_id !== groupId(alone))).toEqual([]);
    const joinedMembers = (await ok('groupUserList', { group_id: joined }, dora)) as any;
    const ids = (joinedMembers.items ?? joinedMembers).map((m: any) => m.user_id);
    expect(ids).not.toContain(alice.userId);
    const aloneRow = await server.ctx.db
      .selectFrom('groups')
      .select('status')
      .where('id', '=', groupId(alone))
      .executeTakeFirstOrThrow();
    expect(aloneRow.status).toBe(0);
    // The group's history keeps the message, from 已注销用户.
    const history = (
      await server.call('getMessageList', { toContactId: owned, is_group: 1 }, { token: bob.token, lang: 'zh-Hans' })
    ).data as any[];
    expect(history.find((m) => m.content === 'in the group')?.fromUser.displayName).toBe('已注销用户');
  });

  it('removes my moments, likes, comments, favourites and push subscriptions', async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    await makeFriends(server, alice, bob);
    const post = await ok('momentsPublish', { id: randomUUID(), content: 'my post', visibility: 1 }, alice);
    const bobs = await ok('momentsPublish', { id: randomUUID(), content: 'bob post', visibility: 1 }, bob);
    await ok('momentsLike', { id: bobs.id }, alice);
    await ok('momentsComment', { id: bobs.id, content: 'nice' }, alice);
    const msg = await text(bob, alice.userId, 'keep this');
    await ok('favoriteAdd', { msg_ids: [msg.msg_id] }, alice);

    expect((await remove(alice, alice.password)).code).toBe(0);

    const db = server.ctx.db;
    expect(await db.selectFrom('moment_posts').select('id').where('user_id', '=', alice.userId).execute()).toEqual([]);
    expect(await db.selectFrom('moment_timeline').select('post_id').where('post_id', '=', post.id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('moment_likes').select('id').where('user_id', '=', alice.userId).execute()).toEqual([]);
    expect(await db.selectFrom('moment_comments').select('id').where('user_id', '=', alice.userId).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom('favourites').select('id').where('user_id', '=', alice.userId).execute()).toEqual([]);
    expect(
      await db.selectFrom('push_subscriptions').select('id').where('user_id', '=', alice.userId).execute(),
    ).toEqual([]);
    const feed = (await ok('momentsList', {}, bob)) as any[];
    expect(feed.some((p) => p.id === post.id)).toBe(false);
  });

  it('keeps the account name taken for the configured days, then frees it', async () => {
    const alice = await person('alice');
    expect((await remove(alice, alice.password)).code).toBe(0);
    const again = await server.call('register', { account: alice.account, password: 'secret456', realname: 'New' });
    expect(again.code).toBe(ErrorCodes.AccountTaken);
    server.clock.advance(31 * DAY);
    const later = await server.call('register', { account: alice.account, password: 'secret456', realname: 'New' });
    expect(later.code, later.msg).toBe(0);
    expect(later.data.user_id).not.toBe(alice.userId);
    // The old messages' sender stays the deleted account, not the new one.
    const old = await server.ctx.db
      .selectFrom('users')
      .select(['account', 'status'])
      .where('id', '=', alice.userId)
      .executeTakeFirstOrThrow();
    expect(old).toEqual({ account: `deleted-${alice.userId}`, status: 2 });
  });

  it('frees the name at once with 0 days', async () => {
    await server.ctx.config.set('account.nameHoldDays', '0');
    const alice = await person('alice');
    expect((await remove(alice, alice.password)).code).toBe(0);
    const again = await server.call('register', { account: alice.account, password: 'secret456', realname: 'New' });
    expect(again.code, again.msg).toBe(0);
  });

  it('deletes once when sent twice at once: both answer done, a call after has no session', async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    await makeFriends(server, alice, bob);
    const answers = await Promise.all([remove(alice, alice.password), remove(alice, alice.password)]);
    expect(answers.map((a) => a.code)).toEqual([0, 0]);
    const after = await remove(alice, alice.password);
    expect(after.code).toBe(ErrorCodes.NoSession);
  });

  it('shows a deleted account as deleted in the console, and offers no action on it', async () => {
    const admin = await person('admin');
    await server.ctx.db.updateTable('users').set({ role: 1 }).where('id', '=', admin.userId).execute();
    const alice = await person('alice');
    expect((await remove(alice, alice.password)).code).toBe(0);
    const list = await ok('manageUserList', { keywords: alice.account }, admin);
    const row = (list as any[]).find((u) => u.user_id === alice.userId);
    expect(row.status).toBe(2);
    const enable = await server.call('manageUserStatus', { user_id: alice.userId, status: 1 }, callAs(admin));
    expect(enable.code).toBe(ErrorCodes.UserNotFound);
  });

  it('keeps the last admin: of two deleting their accounts at once one is refused; alone, before leaving any group', async () => {
    const { db } = server.ctx;
    const others = await db.selectFrom('users').select('id').where('role', '=', 1).where('status', '=', 1).execute();
    const ids = others.map((o) => o.id);
    if (ids.length) await db.updateTable('users').set({ role: 0 }).where('id', 'in', ids).execute();
    try {
      const [ann, ben, member, other] = [
        await person('ann'),
        await person('ben'),
        await person('member'),
        await person('other'),
      ];
      await db.updateTable('users').set({ role: 1 }).where('id', 'in', [ann.userId, ben.userId]).execute();
      const answers = await Promise.all([remove(ann, ann.password), remove(ben, ben.password)]);
      expect(answers.map((a) => a.code).sort()).toEqual([0, ErrorCodes.LastAdmin].sort());
      const kept = answers[0]!.code === 0 ? ben : ann;
      const group = await makeGroup(server, kept, [member, other]);
      // Asked again alone: refused, with nothing changed.
      const again = await remove(kept, kept.password);
      expect(again.code).toBe(ErrorCodes.LastAdmin);
      const row = await db
        .selectFrom('users')
        .select(['role', 'status'])
        .where('id', '=', kept.userId)
        .executeTakeFirst();
      expect(row).toEqual({ role: 1, status: 1 });
      expect(await server.ctx.repos.accounts.groupIds(kept.userId)).toContain(Number(group.replace('group-', '')));
      expect((await server.call('getContacts', {}, callAs(kept))).code).toBe(0);
      // Once another admin is there, the account may go.
      await db.updateTable('users').set({ role: 1 }).where('id', '=', member.userId).execute();
      expect((await remove(kept, kept.password)).code).toBe(0);
    } finally {
      if (ids.length) await db.updateTable('users').set({ role: 1 }).where('id', 'in', ids).execute();
    }
  });
});
