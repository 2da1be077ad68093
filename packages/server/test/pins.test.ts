import { randomUUID } from 'node:crypto';
import { ErrorCodes, PINS_PER_CHAT_MAX } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import { callAs, describeEachDb, makeFriends, serverForSuite, signUp, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>> & { lang: string };

/**
 * Pinned messages (置顶消息) from outside: who may pin where, the event line every member gets
 * live (worded per reader, Raingad sockets included), the chat's pins as each reader sees them,
 * the limit per chat, and a withdrawn or deleted message dropping out of the pins.
 */
describeEachDb('pins', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = async (name: string, lang = 'zh-CN'): Promise<User> => ({
    ...(await signUp(server, `${name}${++n}p`, 'secret123', `${name}${n}`, { lang })),
    lang,
  });

  serverForSuite(target, (s) => (server = s), {
    'sysInfo.runMode': '2',
    'chatInfo.simpleChat': '1',
    'chatInfo.dbDelMsg': '1',
    'chatInfo.sendInterval': '0',
  });
  const send = async (from: User, to: number | string, content: string) => {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content },
      callAs(from),
    );
    expect(res.code, res.msg).toBe(0);
    return res.data as { msg_id: number; id: string };
  };
  const pin = (who: User, id: number | string, on = 1) => server.call('pinMessage', { id, pin: on }, callAs(who));
  const pins = async (who: User, chat: number | string) => {
    const res = await server.call(
      'pinList',
      { toContactId: chat, is_group: typeof chat === 'string' ? 1 : 0 },
      callAs(who),
    );
    expect(res.code, res.msg).toBe(0);
    return res.data as Array<{ message: any; pinned_by: { user_id: number; realname: string }; pin_time: number }>;
  };
  /** A group of an owner, an administrator and two members. */
  async function scene() {
    const [owner, admin, member, other] = [
      await fresh('own'),
      await fresh('adm'),
      await fresh('mem', 'en'),
      await fresh('oth'),
    ];
    for (const m of [admin, member, other]) await makeFriends(server, owner, m);
    const made = await server.call(
      'groupAdd',
      { user_ids: [admin.userId, member.userId, other.userId] },
      callAs(owner),
    );
    const gid = made.data.id as string;
    await server.call('setManager', { id: gid, user_id: admin.userId, role: 2 }, callAs(owner));
    return { owner, admin, member, other, gid };
  }

  it('lets the owner and administrators pin in a group, tells every member live, and lists the pins newest first', async () => {
    const { owner, admin, member, gid } = await scene();
    const first = await send(member, gid, 'the plan for Friday');
    const second = await send(owner, gid, 'bring snacks');
    const sm = await TestSocket.bound(server, member.userId, member.token);
    const so = await TestSocket.bound(server, owner.userId, owner.token);

    expect(await pin(owner, first.msg_id)).toMatchObject({ code: 0 });
    const line = (f: any) => f.type === 'group' && f.data.type === 'event' && f.data.extends.event === 'pin';
    // Each reader is told in their words: "you" to the one who pinned, English to the English reader.
    expect((await so.waitFor(line)).data.content).toBe('你置顶了“the plan for Friday”');
    const told = await sm.waitFor(line);
    expect(told.data.content).toBe(`${owner.account.replace(/p$/, '')} pinned “the plan for Friday”`);
    expect(told.data.extends).toMatchObject({
      msg_id: first.msg_id,
      user_id: owner.userId,
      preview: 'the plan for Friday',
    });

    server.clock.advance(1000);
    // By client id too, as every message route takes it.
    expect(await pin(admin, second.id)).toMatchObject({ code: 0 });
    const list = await pins(member, gid);
    expect(list.map((p) => p.message.msg_id)).toEqual([second.msg_id, first.msg_id]);
    expect(list[0]).toMatchObject({ pinned_by: { user_id: admin.userId }, message: { content: 'bring snacks' } });
    expect(list[1]!.pinned_by.user_id).toBe(owner.userId);
    expect(list[0]!.pin_time).toBeGreaterThan(list[1]!.pin_time);

    // Pinning again changes nothing and tells no one.
    const lines = sm.frames.filter(line).length;
    expect(await pin(owner, first.msg_id)).toMatchObject({ code: 0 });
    await sm.roundTrip();
    expect(sm.frames.filter(line)).toHaveLength(lines);

    expect(await pin(admin, first.msg_id, 0)).toMatchObject({ code: 0 });
    const off = await sm.waitFor((f) => f.type === 'group' && f.data.extends?.event === 'unpin');
    expect(off.data.content).toMatch(/unpinned “the plan for Friday”$/);
    expect((await pins(owner, gid)).map((p) => p.message.msg_id)).toEqual([second.msg_id]);
    sm.close();
    so.close();
  });

  it('lets a member pin only once the owner lets every member, a switch only the owner turns', async () => {
    const { owner, admin, member, gid } = await scene();
    const msg = await send(member, gid, 'mine to pin');
    expect(await pin(member, msg.msg_id)).toMatchObject({ code: ErrorCodes.Forbidden });
    expect(await server.call('groupSetting', { id: gid, setting: { pin: 1 } }, callAs(admin))).toMatchObject({
      code: ErrorCodes.Forbidden,
    });
    // An administrator still changes the other switches, the pin one left as it is.
    expect(await server.call('groupSetting', { id: gid, setting: { invite: 0, pin: 0 } }, callAs(admin))).toMatchObject(
      {
        code: 0,
      },
    );
    const sm = await TestSocket.bound(server, member.userId, member.token);
    expect(await server.call('groupSetting', { id: gid, setting: { pin: 1 } }, callAs(owner))).toMatchObject({
      code: 0,
    });
    expect((await sm.waitFor((f) => f.type === 'groupSetting')).data.setting).toMatchObject({ pin: 1, invite: 0 });
    expect((await server.call('groupInfo', { group_id: gid }, callAs(member))).data.setting.pin).toBe(1);
    expect(await pin(member, msg.msg_id)).toMatchObject({ code: 0 });
    expect(await pin(member, msg.msg_id, 0)).toMatchObject({ code: 0 });
    sm.close();
  });

  it('refuses event lines, outsiders and removed members alike', async () => {
    const { owner, member, other, gid } = await scene();
    const msg = await send(member, gid, 'secret');
    const stranger = await fresh('str');
    expect(await pin(stranger, msg.msg_id)).toMatchObject({ code: ErrorCodes.MessageNotFound });
    expect(await pin(stranger, 999_999_999)).toMatchObject({ code: ErrorCodes.MessageNotFound });
    expect(await server.call('pinList', { toContactId: gid, is_group: 1 }, callAs(stranger))).toMatchObject({
      code: ErrorCodes.NotMember,
    });
    const lines = await server.call('getMessageList', { toContactId: gid, is_group: 1 }, callAs(owner));
    const created = lines.data.find((m: any) => m.type === 'event');
    expect(await pin(owner, created.msg_id)).toMatchObject({ code: ErrorCodes.NotAllowedTarget });

    expect(await pin(owner, msg.msg_id)).toMatchObject({ code: 0 });
    await server.call('removeUser', { id: gid, user_id: other.userId }, callAs(owner));
    expect(await pin(other, msg.msg_id, 0)).toMatchObject({ code: ErrorCodes.MessageNotFound });
    expect(await server.call('pinList', { toContactId: gid, is_group: 1 }, callAs(other))).toMatchObject({
      code: ErrorCodes.NotMember,
    });
  });

  it('lets either side of a private chat pin while they are friends, and tells both', async () => {
    const [a, b] = [await fresh('pa'), await fresh('pb')];
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'see you at 8');
    const sb = await TestSocket.bound(server, b.userId, b.token);
    expect(await pin(b, msg.msg_id)).toMatchObject({ code: 0 });
    const told = await sb.waitFor((f) => f.type === 'simple' && f.data.type === 'event');
    expect(told.data).toMatchObject({
      content: '你置顶了“see you at 8”',
      extends: { event: 'pin', msg_id: msg.msg_id },
    });
    expect((await pins(a, b.userId)).map((p) => p.message.msg_id)).toEqual([msg.msg_id]);
    expect((await pins(b, a.userId))[0]!.pinned_by).toEqual({
      user_id: b.userId,
      realname: b.account.replace(/p$/, ''),
    });

    // Once b has deleted the friendship (runMode 2), each side changes the pins exactly as it may still write.
    expect(await server.call('friendDel', { id: a.userId }, callAs(b))).toMatchObject({ code: 0 });
    for (const [who, peer] of [
      [a, b],
      [b, a],
    ] as const) {
      const writes = await server.call(
        'sendMessage',
        { id: randomUUID(), toContactId: peer.userId, type: 'text', content: 'still there?' },
        callAs(who),
      );
      expect((await pin(who, msg.msg_id, 0)).code).toBe(writes.code);
    }
    expect((await pin(b, msg.msg_id, 0)).code).toBe(ErrorCodes.NotFriendChat);
    sb.close();
  });

  it(`holds at most ${PINS_PER_CHAT_MAX} pins; a withdrawn or deleted message drops out and frees its place`, async () => {
    const { owner, member, gid } = await scene();
    const sent = [];
    for (let i = 0; i <= PINS_PER_CHAT_MAX; i++) sent.push(await send(owner, gid, `note ${i}`));
    for (const m of sent.slice(0, PINS_PER_CHAT_MAX)) expect(await pin(owner, m.msg_id)).toMatchObject({ code: 0 });
    const full = await server.call('pinMessage', { id: sent.at(-1)!.msg_id, pin: 1 }, { ...callAs(owner), lang: 'en' });
    expect(full).toMatchObject({
      code: ErrorCodes.PinsFull,
      msg: `At most ${PINS_PER_CHAT_MAX} messages can be pinned in a chat: unpin one first`,
    });

    expect(await server.call('undoMessage', { id: sent[0]!.msg_id }, callAs(owner))).toMatchObject({
      code: 0,
    });
    expect(await server.call('delMessage', { id: sent[1]!.msg_id }, callAs(owner))).toMatchObject({ code: 0 });
    const left = await pins(member, gid);
    expect(left).toHaveLength(PINS_PER_CHAT_MAX - 2);
    expect(left.map((p) => p.message.msg_id)).not.toContain(sent[0]!.msg_id);
    expect(left.map((p) => p.message.msg_id)).not.toContain(sent[1]!.msg_id);
    expect(await pin(owner, sent.at(-1)!.msg_id)).toMatchObject({ code: 0 });

    // A message one reader hid from themselves leaves only their list.
    await server.call('removeMessage', { id: sent[2]!.msg_id }, callAs(member));
    expect((await pins(member, gid)).map((p) => p.message.msg_id)).not.toContain(sent[2]!.msg_id);
    expect((await pins(owner, gid)).map((p) => p.message.msg_id)).toContain(sent[2]!.msg_id);
  });

  it('reaches a Raingad socket as a line it can draw from its content', async () => {
    const { owner, member, gid } = await scene();
    const msg = await send(member, gid, 'for the old client');
    const socket = await TestSocket.open(server);
    const bound = await server.call('bindUid', { client_id: socket.clientId, user_id: member.userId }, callAs(member));
    expect(bound.code, bound.msg).toBe(0);
    socket.send({ type: 'bindUid', user_id: member.userId, token: member.token });
    await socket.waitFor((f) => f.type === 'pong');
    expect(await pin(owner, msg.msg_id)).toMatchObject({ code: 0 });
    const told = await socket.waitFor((f) => f.type === 'group' && f.data.type === 'event');
    expect(told.data.content).toMatch(/pinned “for the old client”$/);
    socket.close();
  });
});
