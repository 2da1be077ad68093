import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FriendRepo } from '../src/modules/friend/repo';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

const png = (r: number) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/**
 * A changed avatar or name reaches those who show it without a reload (docs/protocol.md `uploadAvatar`:
 * contacts get the row again as `appendContact`; a group drawn from its members' faces is drawn
 * again and pushed as `groupAvatar`).
 */
describeEachDb('a changed avatar or name is pushed', (target) => {
  let server: TestServer;
  let alice: User, bob: User, carl: User, stranger: User;
  let gid: string;

  beforeAll(async () => {
    server = await startServer(target);
    alice = await signUp(server, 'cr_alice', 'secret123', 'Alice');
    bob = await signUp(server, 'cr_bob', 'secret123', 'Bob');
    carl = await signUp(server, 'cr_carl', 'secret123', 'Carl');
    stranger = await signUp(server, 'cr_sam', 'secret123', 'Sam');
    const friends = new FriendRepo(server.ctx.db);
    await friends.befriend(alice.userId, bob.userId, server.ctx.now());
    await friends.befriend(bob.userId, carl.userId, server.ctx.now());
    // Bob's remark for Alice stays on the row he is pushed.
    const row = await friends.row(bob.userId, alice.userId);
    await friends.setNickname(row!.id, 'Ali (school)');
    gid = (await server.call('groupAdd', { user_ids: [alice.userId, carl.userId] }, { token: bob.token })).data.id;
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends friends the new avatar on their own row, and redraws the groups showing the face', async () => {
    const toBob = await TestSocket.bound(server, bob.userId, bob.token);
    const toCarl = await TestSocket.bound(server, carl.userId, carl.token);
    const toSam = await TestSocket.bound(server, stranger.userId, stranger.token);
    try {
      const before = (await server.call('groupInfo', { group_id: gid }, { token: carl.token })).data.avatar;
      const res = await server.upload(
        'uploadAvatar',
        { name: 'me.png', bytes: await png(10), type: 'image/png' },
        { token: alice.token },
      );
      expect(res.json.code).toBe(0);
      const pushed = await toBob.waitFor((f) => f.type === 'appendContact' && f.data.id === alice.userId);
      expect(pushed.data).toMatchObject({ avatar: res.json.data, displayName: 'Ali (school)', realname: 'Alice' });

      const redrawn = await toCarl.waitFor((f) => f.type === 'groupAvatar');
      expect(redrawn.data.group_id).toBe(gid);
      expect(redrawn.data.avatar).not.toBe(before);
      expect((await server.call('groupInfo', { group_id: gid }, { token: carl.token })).data.avatar).toBe(
        redrawn.data.avatar,
      );
      await toSam.roundTrip();
      await toCarl.roundTrip();
      // Neither a co-member who is not her friend nor a stranger is handed her as a contact.
      for (const sock of [toCarl, toSam]) expect(sock.frames.some((f) => f.type === 'appendContact')).toBe(false);
    } finally {
      for (const s of [toBob, toCarl, toSam]) s.close();
    }
  });

  it('tells every member of her groups, friend or not, once however many groups they share; never a stranger', async () => {
    // A second group with Carl, who is not her friend: he still hears it once.
    const second = await server.call('groupAdd', { user_ids: [alice.userId, carl.userId] }, { token: bob.token });
    expect(second.code).toBe(0);
    const toAlice = await TestSocket.bound(server, alice.userId, alice.token);
    const toBob = await TestSocket.bound(server, bob.userId, bob.token);
    const toCarl = await TestSocket.bound(server, carl.userId, carl.token);
    const toSam = await TestSocket.bound(server, stranger.userId, stranger.token);
    try {
      const res = await server.upload(
        'uploadAvatar',
        { name: 'me.png', bytes: await png(200), type: 'image/png' },
        { token: alice.token },
      );
      expect(res.json.code).toBe(0);
      const expected = { user_id: alice.userId, avatar: res.json.data, realname: 'Alice' };
      for (const sock of [toCarl, toBob, toAlice]) {
        const pushed = await sock.waitFor((f) => f.type === 'profileChanged');
        expect(pushed.data).toEqual(expected);
      }
      for (const sock of [toAlice, toBob, toCarl, toSam]) await sock.roundTrip();
      for (const sock of [toAlice, toBob, toCarl])
        expect(sock.frames.filter((f) => f.type === 'profileChanged')).toHaveLength(1);
      expect(toSam.frames.some((f) => f.type === 'profileChanged')).toBe(false);
    } finally {
      for (const s of [toAlice, toBob, toCarl, toSam]) s.close();
    }
  });

  it('sends friends a new name, and nothing when the name is unchanged', async () => {
    const toBob = await TestSocket.bound(server, bob.userId, bob.token);
    try {
      // Without a remark, Bob's row names her as she names herself.
      const friends = new FriendRepo(server.ctx.db);
      await friends.setNickname((await friends.row(bob.userId, alice.userId))!.id, '');
      expect((await server.call('updateUserInfo', { realname: 'Alice Liddell' }, { token: alice.token })).code).toBe(0);
      const pushed = await toBob.waitFor((f) => f.type === 'appendContact' && f.data.id === alice.userId);
      expect(pushed.data).toMatchObject({ displayName: 'Alice Liddell', realname: 'Alice Liddell', index: 'A' });

      const seen = toBob.frames.length;
      expect((await server.call('updateUserInfo', { motto: 'hello' }, { token: alice.token })).code).toBe(0);
      await toBob.roundTrip();
      expect(toBob.frames.slice(seen).some((f) => f.type === 'appendContact')).toBe(false);
    } finally {
      toBob.close();
    }
  });

  it('an event line names people as each reader calls them: my remark, else their name', async () => {
    const friends = new FriendRepo(server.ctx.db);
    await friends.setNickname((await friends.row(bob.userId, carl.userId))!.id, 'Carlos (gym)');
    const toBob = await TestSocket.bound(server, bob.userId, bob.token);
    const toAlice = await TestSocket.bound(server, alice.userId, alice.token);
    try {
      expect(
        (await server.call('setManager', { id: gid, user_id: carl.userId, role: 2 }, { token: bob.token })).code,
      ).toBe(0);
      const line = (f: any) => f.type === 'group' && f.data.type === 'event' && f.data.extends.event === 'setManager';
      expect((await toBob.waitFor(line)).data.content).toBe('You made Carlos (gym) an administrator');
      expect((await toAlice.waitFor(line)).data.content).toBe('Bob made Carl an administrator');
      const listed = await server.call('getMessageList', { toContactId: gid }, { token: bob.token });
      expect(listed.data.at(-1).content).toBe('You made Carlos (gym) an administrator');
      const carlSees = await server.call('getMessageList', { toContactId: gid }, { token: carl.token });
      expect(carlSees.data.at(-1).content).toBe('Bob made you an administrator');
      const contacts = await server.call('getContacts', {}, { token: bob.token });
      expect(contacts.data.find((c: any) => c.id === gid).lastContent).toBe('You made Carlos (gym) an administrator');
    } finally {
      toBob.close();
      toAlice.close();
    }
  });

  it('sends everyone the row in runMode 1, where everyone is a contact', async () => {
    await server.ctx.config.set('sysInfo.runMode', '1');
    const toSam = await TestSocket.bound(server, stranger.userId, stranger.token);
    try {
      await server.call('updateUserInfo', { realname: 'Alice L.' }, { token: alice.token });
      const pushed = await toSam.waitFor((f) => f.type === 'appendContact' && f.data.id === alice.userId);
      expect(pushed.data).toMatchObject({ displayName: 'Alice L.', account: 'cr_******ce' });
      expect(pushed.data.friend_id).toBeUndefined();
    } finally {
      await server.ctx.config.set('sysInfo.runMode', '2');
      toSam.close();
    }
  });
});
