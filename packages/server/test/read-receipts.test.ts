import { ErrorCodes, READ_COUNTS_IDS_MAX } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import {
  describeEachDb,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

type User = TestUser & { realname: string };

describeEachDb('group read receipts', (target) => {
  let server!: TestServer;
  let n = 0;
  const calls = serverForSuite(target, (s) => (server = s), { 'sysInfo.runMode': '2' });
  const fresh = async (name: string): Promise<User> => {
    const realname = `${name}${++n}`;
    return { ...(await signUp(server, `${realname}rr`, 'secret123', realname)), realname };
  };
  const read = (u: User, gid: string, msgId: number) =>
    calls.ok('setMsgIsRead', { toContactId: gid, is_group: 1, msg_id: msgId }, u);
  const counts = async (u: User, gid: string, ids: number[]) =>
    (await calls.ok('groupReadCounts', { toContactId: gid, ids }, u)) as Array<{
      msg_id: number;
      read: number;
      unread: number;
    }>;
  const list = async (u: User, id: number | string) =>
    (await calls.ok('groupReadList', { id }, u)) as {
      read: number;
      unread: number;
      readers: Array<{ user_id: number; name: string; avatar: string }>;
      unreaders: Array<{ user_id: number; name: string }>;
    };
  const ids = (people: Array<{ user_id: number }>) => people.map((p) => p.user_id);
  /** Alice's group of three others, and a message of hers in it. */
  const scene = async () => {
    const alice = await fresh('alice');
    const [bob, cat, dan] = [await fresh('bob'), await fresh('cat'), await fresh('dan')];
    const gid = await makeGroup(server, alice, [bob, cat, dan]);
    const first = (await calls.text(alice, gid, 'first')) as { msg_id: number; id: string };
    return { alice, bob, cat, dan, gid, first };
  };

  it('counts who read my message from their read positions, lists them, and tells me live', async () => {
    const { alice, bob, cat, dan, gid, first } = await scene();
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    expect(await counts(alice, gid, [first.msg_id])).toEqual([{ msg_id: first.msg_id, read: 0, unread: 3 }]);

    await read(bob, gid, first.msg_id);
    const told = await socket.waitFor((f) => f.type === 'readReceipt');
    // Who read is not said: the list tells who has read, not when each member did.
    expect(told.data).toEqual({ toContactId: gid, after: expect.any(Number), msg_id: first.msg_id });
    expect(told.data.after).toBeLessThan(first.msg_id);
    expect(await counts(alice, gid, [first.msg_id])).toEqual([{ msg_id: first.msg_id, read: 1, unread: 2 }]);

    // By the client-made id as well; the names as I see them, the unread in the order they joined.
    const who = await list(alice, first.id);
    expect(who).toMatchObject({ read: 1, unread: 2 });
    expect(who.readers).toEqual([{ user_id: bob.userId, name: bob.realname, avatar: expect.any(String) }]);
    expect(ids(who.unreaders)).toEqual([cat.userId, dan.userId]);
    expect(who.unreaders.map((p) => p.name)).toEqual([cat.realname, dan.realname]);

    // Reading again, or an earlier message, tells nobody; a later message of mine is counted on its own.
    const framesBefore = socket.frames.length;
    await read(bob, gid, first.msg_id);
    const second = (await calls.text(alice, gid, 'second')) as { msg_id: number };
    await read(cat, gid, second.msg_id);
    await socket.waitFor((f) => f.type === 'readReceipt' && f.data.msg_id === second.msg_id);
    expect(socket.frames.slice(framesBefore).filter((f) => f.type === 'readReceipt')).toHaveLength(1);
    expect(await counts(alice, gid, [second.msg_id, first.msg_id, second.msg_id])).toEqual([
      { msg_id: second.msg_id, read: 1, unread: 2 },
      { msg_id: first.msg_id, read: 2, unread: 1 },
    ]);

    // Taking the chat off the list reads it all, and tells me so; so does history cleared past the message.
    const beforeDel = socket.frames.length;
    await calls.ok('delChat', { id: gid }, dan);
    await socket.waitFor((f) => f.type === 'readReceipt' && f.data.msg_id === second.msg_id, 3000, beforeDel);
    expect(await counts(alice, gid, [first.msg_id, second.msg_id])).toEqual([
      { msg_id: first.msg_id, read: 3, unread: 0 },
      { msg_id: second.msg_id, read: 2, unread: 1 },
    ]);
    await server.ctx.db
      .updateTable('conversations')
      .set({ clear_msg_id: second.msg_id })
      .where('user_id', '=', bob.userId)
      .where('chat_key', '=', `g:${gid.slice('group-'.length)}`)
      .execute();
    expect(await counts(alice, gid, [second.msg_id])).toEqual([{ msg_id: second.msg_id, read: 3, unread: 0 }]);
    socket.close();
  });

  it('counts only those in the group before the message, never its sender, and tells no sender of what a reader joined after', async () => {
    const { alice, bob, cat, gid, first } = await scene();
    const eve = await fresh('eve');
    await calls.ok('friendAdd', { user_id: eve.userId }, alice);
    await calls.ok('friendAdd', { user_id: alice.userId }, eve);
    await calls.ok('addGroupUser', { id: gid, user_ids: [eve.userId] }, alice);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    await read(eve, gid, first.msg_id);
    await read(bob, gid, first.msg_id);
    await socket.waitFor((f) => f.type === 'readReceipt');
    // Bob's read only: eve's passed nothing she was sent.
    expect(socket.frames.filter((f) => f.type === 'readReceipt')).toHaveLength(1);
    socket.close();
    expect(await counts(alice, gid, [first.msg_id])).toEqual([{ msg_id: first.msg_id, read: 1, unread: 2 }]);
    expect(ids((await list(alice, first.msg_id)).unreaders)).not.toContain(eve.userId);

    const later = (await calls.text(alice, gid, 'after eve')) as { msg_id: number };
    expect(await counts(alice, gid, [later.msg_id])).toEqual([{ msg_id: later.msg_id, read: 0, unread: 4 }]);
    // Bob's message is counted for bob: alice is among its members, bob is not.
    const fromBob = (await calls.text(bob, gid, 'from bob')) as { msg_id: number };
    await read(alice, gid, fromBob.msg_id);
    expect(await counts(bob, gid, [fromBob.msg_id])).toEqual([{ msg_id: fromBob.msg_id, read: 1, unread: 3 }]);
    // Event lines and other people's messages are left out, as missing ones.
    const events = (await calls.ok('getMessageList', { toContactId: gid, is_group: 1 }, alice)) as Array<{
      msg_id: number;
      type: string;
    }>;
    const line = events.find((m) => m.type === 'event')!;
    expect(await counts(alice, gid, [line.msg_id, fromBob.msg_id])).toEqual([]);
    expect((await calls.answer('groupReadList', { id: line.msg_id }, alice)).code).toBe(ErrorCodes.MessageNotFound);
    expect((await calls.answer('groupReadList', { id: fromBob.msg_id }, cat)).code).toBe(ErrorCodes.MessageNotFound);
  });

  it('counts a member who turned 发送已读回执 off as unread and shows them none, unless the organisation makes receipts mandatory', async () => {
    const { alice, bob, cat, gid, first } = await scene();
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    const me = await calls.ok('updateUserInfo', { read_receipt: 0 }, bob);
    expect(me.read_receipt).toBe(0);
    await read(bob, gid, first.msg_id);
    await read(cat, gid, first.msg_id);
    await socket.waitFor((f) => f.type === 'readReceipt');
    // Cat's read only: bob's tells no one.
    expect(socket.frames.filter((f) => f.type === 'readReceipt')).toHaveLength(1);
    expect(await counts(alice, gid, [first.msg_id])).toEqual([{ msg_id: first.msg_id, read: 1, unread: 2 }]);
    expect(ids((await list(alice, first.msg_id)).unreaders)).toContain(bob.userId);

    // Bob sees no one's either.
    const fromBob = (await calls.text(bob, gid, 'mine')) as { msg_id: number };
    await read(cat, gid, fromBob.msg_id);
    expect(await counts(bob, gid, [fromBob.msg_id])).toEqual([]);
    expect((await calls.answer('groupReadList', { id: fromBob.msg_id }, bob)).code).toBe(ErrorCodes.ReadReceiptsOff);

    await server.ctx.config.set('sysInfo.runMode', '1');
    expect(await counts(alice, gid, [first.msg_id])).toEqual([{ msg_id: first.msg_id, read: 2, unread: 1 }]);
    expect(await counts(bob, gid, [fromBob.msg_id])).toEqual([{ msg_id: fromBob.msg_id, read: 1, unread: 2 }]);
    socket.close();
  });

  it('lets the owner and admins turn receipts off for a group: no counts, no lists, no pushes', async () => {
    const { alice, bob, cat, gid, first } = await scene();
    expect((await calls.answer('groupSetting', { id: gid, setting: { receipt: 0 } }, bob)).code).toBe(
      ErrorCodes.Forbidden,
    );
    await calls.ok('setManager', { id: gid, user_id: bob.userId, role: 2 }, alice);
    await calls.ok('groupSetting', { id: gid, setting: { receipt: 0 } }, bob);
    const info = await calls.ok('groupInfo', { group_id: gid }, cat);
    expect(info.setting.receipt).toBe(0);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    await read(cat, gid, first.msg_id);
    expect(await counts(alice, gid, [first.msg_id])).toEqual([]);
    expect((await calls.answer('groupReadList', { id: first.msg_id }, alice)).code).toBe(ErrorCodes.ReadReceiptsOff);
    // Mandatory receipts of an organisation do not overrule the group's switch.
    await server.ctx.config.set('sysInfo.runMode', '1');
    expect(await counts(alice, gid, [first.msg_id])).toEqual([]);
    await calls.ok('groupSetting', { id: gid, setting: { receipt: 1 } }, alice);
    expect(await counts(alice, gid, [first.msg_id])).toEqual([{ msg_id: first.msg_id, read: 1, unread: 2 }]);
    expect(socket.frames.filter((f) => f.type === 'readReceipt')).toEqual([]);
    socket.close();
  });

  it('refuses outsiders and removed members as it refuses a stranger, and takes no private message', async () => {
    const { alice, bob, cat, gid, first } = await scene();
    const stranger = await fresh('sam');
    expect((await calls.answer('groupReadCounts', { toContactId: gid, ids: [first.msg_id] }, stranger)).code).toBe(
      ErrorCodes.NotMember,
    );
    expect((await calls.answer('groupReadList', { id: first.msg_id }, stranger)).code).toBe(ErrorCodes.MessageNotFound);
    const fromCat = (await calls.text(cat, gid, 'bye')) as { msg_id: number };
    await calls.ok('removeUser', { id: gid, user_id: cat.userId }, alice);
    expect((await calls.answer('groupReadCounts', { toContactId: gid, ids: [fromCat.msg_id] }, cat)).code).toBe(
      ErrorCodes.NotMember,
    );
    const gone = await calls.answer('groupReadList', { id: fromCat.msg_id }, cat);
    const missing = await calls.answer('groupReadList', { id: 999_999_999 }, cat);
    expect([gone.code, gone.msg]).toEqual([missing.code, missing.msg]);
    // A private message has no group receipts; a user id is no group.
    const direct = (await calls.text(alice, bob, 'hi')) as { msg_id: number };
    expect((await calls.answer('groupReadList', { id: direct.msg_id }, alice)).code).toBe(ErrorCodes.MessageNotFound);
    expect((await calls.answer('groupReadCounts', { toContactId: bob.userId, ids: [direct.msg_id] }, alice)).code).toBe(
      400,
    );
    const tooMany = Array.from({ length: READ_COUNTS_IDS_MAX + 1 }, (_, i) => i + 1);
    expect((await calls.answer('groupReadCounts', { toContactId: gid, ids: tooMany }, alice)).code).toBe(400);
  });

  it('tells a removed sender nothing of reads of what they sent while a member', async () => {
    const { alice, bob, cat, gid } = await scene();
    const fromCat = (await calls.text(cat, gid, 'before I go')) as { msg_id: number };
    const last = (await calls.text(alice, gid, 'last')) as { msg_id: number };
    await calls.ok('removeUser', { id: gid, user_id: cat.userId }, alice);
    const [toAlice, toCat] = await Promise.all([
      TestSocket.bound(server, alice.userId, alice.token),
      TestSocket.bound(server, cat.userId, cat.token),
    ]);
    await read(bob, gid, last.msg_id);
    // One publish reaches every sender it names: by the time alice has hers, cat's would be on its way.
    await toAlice.waitFor((f) => f.type === 'readReceipt' && f.data.msg_id === last.msg_id);
    await new Promise((r) => setTimeout(r, 150));
    expect(fromCat.msg_id).toBeLessThan(last.msg_id);
    expect(toCat.frames.filter((f) => f.type === 'readReceipt')).toEqual([]);
    toAlice.close();
    toCat.close();
  });

  it('reads no further than the chat’s newest message, whatever msg_id is asked', async () => {
    const { alice, bob, gid, first } = await scene();
    const own = await TestSocket.bound(server, bob.userId, bob.token);
    await read(bob, gid, 1_000_000_000_000);
    const told = await own.waitFor((f) => f.type === 'readAll');
    expect(told.data.msg_id).toBe(first.msg_id);
    const later = (await calls.text(alice, gid, 'later')) as { msg_id: number };
    expect(await counts(alice, gid, [first.msg_id, later.msg_id])).toEqual([
      { msg_id: first.msg_id, read: 1, unread: 2 },
      { msg_id: later.msg_id, read: 0, unread: 3 },
    ]);
    own.close();
  });

  it('tells each sender of what a read passed once, and not the reader', async () => {
    const owner = await fresh('own');
    const reader = await fresh('rdr');
    const senders = await Promise.all(Array.from({ length: 3 }, () => fresh('snd')));
    const gid = await makeGroup(server, owner, [reader, ...senders]);
    for (const s of senders) for (const text of ['one', 'two']) await calls.text(s, gid, text);
    const last = (await calls.text(owner, gid, 'last')) as { msg_id: number };
    const sockets = await Promise.all(senders.map((s) => TestSocket.bound(server, s.userId, s.token)));
    const own = await TestSocket.bound(server, reader.userId, reader.token);
    await read(reader, gid, last.msg_id);
    for (const sock of sockets) {
      await sock.waitFor((f) => f.type === 'readReceipt');
      expect(sock.frames.filter((f) => f.type === 'readReceipt')).toHaveLength(1);
    }
    // The reader is no sender of what they read.
    await own.waitFor((f) => f.type === 'readAll');
    expect(own.frames.filter((f) => f.type === 'readReceipt')).toEqual([]);
    for (const sock of [...sockets, own]) sock.close();
  });
});
