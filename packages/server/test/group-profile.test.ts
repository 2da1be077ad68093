import { parseQrLink } from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FriendRepo } from '../src/modules/friend/repo';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/**
 * A group's `profile` setting (docs/protocol.md §2: members may view each other's profiles and add each
 * other), enforced on getUserInfo, friend add and the member list, and who it does not concern.
 */
describeEachDb('group setting `profile`', (target) => {
  let server: TestServer;
  let owner: User, admin: User, carol: User, dave: User, erin: User;
  let gid: string;

  const call = (name: Parameters<TestServer['call']>[0], body: Record<string, unknown>, as: User) =>
    server.call(name, body, { token: as.token });

  beforeAll(async () => {
    server = await startServer(target);
    owner = await signUp(server, 'pf_owner', 'secret123', 'Owner');
    admin = await signUp(server, 'pf_admin', 'secret123', 'Admin');
    carol = await signUp(server, 'pf_carol', 'secret123', 'Carol');
    dave = await signUp(server, 'pf_dave', 'secret123', 'Dave');
    erin = await signUp(server, 'pf_erin', 'secret123', 'Erin');
    await server.ctx.db
      .updateTable('users')
      .set({ motto: 'dave’s motto', sex: 1 })
      .where('id', '=', dave.userId)
      .execute();
    const friends = new FriendRepo(server.ctx.db);
    for (const u of [admin, carol, dave, erin]) await friends.befriend(owner.userId, u.userId, server.ctx.now());
    // Erin is Carol's friend: the setting does not come between friends.
    await friends.befriend(carol.userId, erin.userId, server.ctx.now());
    const made = await call('groupAdd', { user_ids: [admin.userId, carol.userId, dave.userId, erin.userId] }, owner);
    gid = made.data.id;
    await call('setManager', { id: gid, user_id: admin.userId, role: 2 }, owner);
    expect((await call('groupSetting', { id: gid, setting: { profile: 0 } }, owner)).code).toBe(0);
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows an ordinary member only the name and face of a member who is not their friend', async () => {
    const seen = await call('getUserInfo', { user_id: dave.userId }, carol);
    expect(seen.code).toBe(0);
    expect(seen.data).toMatchObject({
      user_id: dave.userId,
      displayName: 'Dave',
      account: '',
      motto: '',
      sex: 2,
      profile: 0,
    });
    for (const viewer of [owner, admin]) {
      const full = await call('getUserInfo', { user_id: dave.userId }, viewer);
      expect(full.data).toMatchObject({ motto: 'dave’s motto', sex: 1, profile: 1 });
      expect(full.data.account).toBe('pf_******ve');
    }
    expect((await call('getUserInfo', { user_id: erin.userId }, carol)).data.profile).toBe(1);
  });

  it('marks in the member list whom an ordinary member may not open', async () => {
    const list = async (as: User) =>
      Object.fromEntries(
        ((await call('groupUserList', { group_id: gid }, as)).data as Array<{ user_id: number; profile: number }>).map(
          (m) => [m.user_id, m.profile],
        ),
      );
    // The owner is everyone's friend here, as Erin is Carol's.
    expect(await list(carol)).toEqual({
      [owner.userId]: 1,
      [admin.userId]: 0,
      [carol.userId]: 1,
      [dave.userId]: 0,
      [erin.userId]: 1,
    });
    expect(Object.values(await list(admin))).toEqual([1, 1, 1, 1, 1]);
  });

  it('lets members see each other again once the setting is back on, and does not concern runMode 1', async () => {
    const sock = await TestSocket.bound(server, carol.userId, carol.token);
    try {
      await call('groupSetting', { id: gid, setting: { profile: 1 } }, admin);
      await sock.waitFor((f) => f.type === 'groupSetting' && f.data.setting.profile === 1);
      expect((await call('getUserInfo', { user_id: dave.userId }, carol)).data).toMatchObject({ profile: 1, sex: 1 });
      await call('groupSetting', { id: gid, setting: { profile: 0 } }, admin);
      await server.ctx.config.set('sysInfo.runMode', '1');
      expect((await call('getUserInfo', { user_id: dave.userId }, carol)).data.profile).toBe(1);
    } finally {
      await server.ctx.config.set('sysInfo.runMode', '2');
      sock.close();
    }
  });

  it('no longer hides a member who has left the group', async () => {
    const other = await signUp(server, 'pf_frank', 'secret123', 'Frank');
    await new FriendRepo(server.ctx.db).befriend(owner.userId, other.userId, server.ctx.now());
    await call('addGroupUser', { id: gid, user_ids: [other.userId] }, owner);
    expect((await call('getUserInfo', { user_id: other.userId }, carol)).data.profile).toBe(0);
    await call('removeUser', { id: gid, user_id: other.userId }, other);
    expect((await call('getUserInfo', { user_id: other.userId }, carol)).data.profile).toBe(1);
  });

  it('refuses a friend request between such members, in the caller’s language, unless it comes from a QR code or answers one', async () => {
    const refused = await server.call('friendAdd', { user_id: dave.userId }, { token: carol.token, lang: 'en' });
    expect(refused).toMatchObject({ code: 403, msg: 'The group does not let members add each other as friends' });
    const zh = await server.call('friendAdd', { user_id: dave.userId }, { token: carol.token, lang: 'zh-Hans' });
    expect(zh.msg).toBe('群主已禁止群成员互相添加好友');
    expect((await call('friendIndex', { is_mine: 0 }, dave)).data).toEqual([]);

    const daveMe = await call('checkuser', {}, dave);
    const token = parseQrLink(daveMe.data.qrUrl as string)!.token;
    expect((await call('friendAdd', { user_id: dave.userId, token }, carol)).code).toBe(0);
    // Dave answering the request Carol made from his code makes them friends, who see each other in full.
    expect((await call('friendAdd', { user_id: carol.userId }, dave)).code).toBe(0);
    expect((await call('getUserInfo', { user_id: dave.userId }, carol)).data).toMatchObject({
      profile: 1,
      is_friend: 1,
    });
  });
});
