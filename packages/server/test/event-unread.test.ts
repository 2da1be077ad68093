import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FriendRepo } from '../src/modules/friend/repo';
import { describeEachDb, signUp, startServer, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/**
 * A group's system lines ("A 创建了群聊", "A 邀请 B 加入了群聊") are no messages to read: they never
 * count as unread, and in a muted chat they neither become its preview nor move it up the list.
 */
describeEachDb('system lines and unread counts', (target) => {
  let server: TestServer;
  let alice: User, carol: User, dan: User, eve: User;

  beforeAll(async () => {
    server = await startServer(target);
    alice = await signUp(server, 'eu_alice', 'secret123', 'Alice');
    carol = await signUp(server, 'eu_carol', 'secret123', 'Carol');
    dan = await signUp(server, 'eu_dan', 'secret123', 'Dan');
    eve = await signUp(server, 'eu_eve', 'secret123', 'Eve');
    const friends = new FriendRepo(server.ctx.db);
    for (const u of [carol, dan, eve]) await friends.befriend(alice.userId, u.userId, server.ctx.now());
  });
  afterAll(async () => {
    await server.close();
  });

  const row = async (as: User, gid: string) =>
    ((await server.call('getContacts', {}, { token: as.token })).data as Array<Record<string, unknown>>).find(
      (c) => c.id === gid,
    )!;
  const say = (as: User, gid: string, content: string) =>
    server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content },
      { token: as.token },
    );

  it('counts one unread for one real message after the group’s creation and invitations', async () => {
    const gid = (await server.call('groupAdd', { user_ids: [carol.userId, dan.userId] }, { token: alice.token })).data
      .id;
    await server.call('addGroupUser', { id: gid, user_ids: [eve.userId] }, { token: alice.token });
    expect(await row(carol, gid)).toMatchObject({ unread: 0 });
    const history = await server.call('getMessageList', { toContactId: gid, is_group: 1 }, { token: carol.token });
    expect(history.data.filter((m: { type: string }) => m.type === 'event').length).toBeGreaterThanOrEqual(2);

    await say(alice, gid, 'hello all');
    expect(await row(carol, gid)).toMatchObject({ unread: 1, lastContent: expect.stringContaining('hello all') });
    // Reading up to the real message leaves nothing, even with a system line after it.
    await server.call('editGroupName', { id: gid, displayName: 'Renamed' }, { token: alice.token });
    await server.call('setMsgIsRead', { toContactId: gid, is_group: 1 }, { token: carol.token });
    expect(await row(carol, gid)).toMatchObject({ unread: 0, is_at: 0 });
  });

  it('leaves a muted chat where it was on a system line, and moves it on a message', async () => {
    const gid = (await server.call('groupAdd', { user_ids: [carol.userId, dan.userId] }, { token: alice.token })).data
      .id;
    await say(alice, gid, 'first');
    await server.call('isNotice', { id: gid, is_group: 1, is_notice: 0 }, { token: carol.token });
    const before = await row(carol, gid);
    server.clock.advance(60_000);
    await server.call('addGroupUser', { id: gid, user_ids: [eve.userId] }, { token: alice.token });
    expect(await row(carol, gid)).toMatchObject({
      unread: before.unread,
      lastSendTime: before.lastSendTime,
      lastContent: before.lastContent,
      is_notice: 0,
    });
    // Dan, who did not mute it, sees the line as its newest event.
    expect((await row(dan, gid)).type).toBe('event');

    server.clock.advance(60_000);
    await say(alice, gid, 'second');
    const after = await row(carol, gid);
    expect(after.lastSendTime).toBeGreaterThan(before.lastSendTime as number);
    expect(after.unread).toBe((before.unread as number) + 1);
  });
});
