import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDb, makeFriends, makeGroup, serverForSuite, signUp, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

describeEachDb('edited texts', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = (name: string) => signUp(server, `${name}${++n}e`, 'secret123', `${name}${n}`);

  serverForSuite(target, (s) => (server = s), { 'sysInfo.runMode': '2', 'chatInfo.editTime': '86400' });
  const send = async (from: User, to: number | string, content: string, extra: Record<string, unknown> = {}) => {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content, ...extra },
      { token: from.token },
    );
    expect(res.code, res.msg).toBe(0);
    return res.data as { msg_id: number; id: string };
  };
  const edit = (u: User, id: number | string, content: string) => {
    server.clock.advance(1);
    return server.call('editMessage', { id, content }, { token: u.token });
  };
  const search = async (u: User, keywords: string) =>
    ((await server.call('searchMessage', { keywords }, { token: u.token })).data as Array<{ msg_id: number }>).map(
      (h) => h.msg_id,
    );

  it('edits my text: live for both sides, 已编辑 in the history, earlier versions for me only', async () => {
    const a = await fresh('amy');
    const b = await fresh('ben');
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'see you at noon');
    const sb = await TestSocket.bound(server, b.userId, b.token);
    const sa = await TestSocket.bound(server, a.userId, a.token);

    const res = await edit(a, msg.msg_id, 'see you at one');
    expect(res.code, res.msg).toBe(0);
    expect(res.data).toMatchObject({ msg_id: msg.msg_id, content: 'see you at one', edited: expect.any(Number) });
    const pushed = await sb.waitFor((f) => f.type === 'editMessage');
    expect(pushed.data).toEqual({
      toContactId: a.userId,
      msg_id: msg.msg_id,
      id: msg.id,
      content: 'see you at one',
      edited: res.data.edited,
      sendTime: res.data.sendTime,
    });
    expect((await sa.waitFor((f) => f.type === 'editMessage')).data.toContactId).toBe(b.userId);

    // By its client id, a second time.
    expect((await edit(a, msg.id, 'see you at two')).code).toBe(0);
    const page = await server.call('getMessageList', { toContactId: a.userId, is_group: 0 }, { token: b.token });
    expect(page.data.find((m: any) => m.msg_id === msg.msg_id)).toMatchObject({
      content: 'see you at two',
      edited: expect.any(Number),
    });

    const versions = await server.call('messageEdits', { id: msg.msg_id }, { token: a.token });
    expect(versions.data.map((v: any) => v.content)).toEqual(['see you at noon', 'see you at one']);
    expect(versions.data.every((v: any) => v.by === a.userId)).toBe(true);
    // The peer is answered as for a missing message.
    const theirs = await server.call('messageEdits', { id: msg.msg_id }, { token: b.token });
    expect(theirs.code).toBe(404);
    expect(theirs.msg).toBe((await server.call('messageEdits', { id: 999_999_999 }, { token: b.token })).msg);
    sa.close();
    sb.close();
  });

  it('refuses the peer, other kinds, a withdrawn text and one past the window', async () => {
    const a = await fresh('cat');
    const b = await fresh('dan');
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'original');
    expect((await edit(b, msg.msg_id, 'hijack')).code).toBe(403);
    const card = await send(a, b.userId, '', { type: 'contact', extends: { id: b.userId } });
    expect((await edit(a, card.msg_id, 'text now')).code).toBe(400);
    expect((await edit(a, msg.msg_id, '   ')).code).toBe(400);

    await server.ctx.config.set('chatInfo.editTime', '60');
    server.clock.advance(61_000);
    const late = await edit(a, msg.msg_id, 'too late');
    expect(late.code).toBe(400);
    expect(late.msg).toBeTruthy();
    await server.ctx.config.set('chatInfo.editTime', '86400');

    expect((await server.call('undoMessage', { id: msg.msg_id }, { token: a.token })).code).toBe(0);
    expect((await edit(a, msg.msg_id, 'after withdraw')).code).toBe(404);
  });

  it('lets a group owner read the earlier versions; a member, and a quote, see the current text', async () => {
    const owner = await fresh('eve');
    const m1 = await fresh('fay');
    const m2 = await fresh('gus');
    const gid = await makeGroup(server, owner, [m1, m2]);
    const msg = await send(m1, gid, 'first words');
    const reply = await send(m2, gid, 'a reply', { pid: msg.msg_id });
    expect((await edit(m1, msg.msg_id, 'better words')).code).toBe(0);
    expect((await server.call('messageEdits', { id: msg.msg_id }, { token: owner.token })).data).toHaveLength(1);
    expect((await server.call('messageEdits', { id: msg.msg_id }, { token: m2.token })).code).toBe(404);
    const page = await server.call('getMessageList', { toContactId: gid, is_group: 1 }, { token: m2.token });
    const quoting = page.data.find((m: any) => m.msg_id === reply.msg_id);
    expect(quoting.extends.quote.content).toBe('better words');
  });

  it('tells a member who joined a history-hiding group later nothing of an earlier message, and holds a muted sender to silence', async () => {
    const owner = await fresh('kai');
    const m1 = await fresh('lea');
    const m2 = await fresh('max');
    const late = await fresh('ned');
    const gid = await makeGroup(server, owner, [m1, m2]);
    for (const u of [m1, late]) await makeFriends(server, owner, u);
    const settingRes = await server.call('groupSetting', { id: gid, setting: { history: 0 } }, { token: owner.token });
    expect(settingRes.code, settingRes.msg).toBe(0);
    const msg = await send(m1, gid, 'before your time');
    const added = await server.call('addGroupUser', { id: gid, user_ids: [late.userId] }, { token: owner.token });
    expect(added.code, added.msg).toBe(0);
    const sl = await TestSocket.bound(server, late.userId, late.token);
    const s2 = await TestSocket.bound(server, m2.userId, m2.token);

    expect((await edit(m1, msg.msg_id, 'still before your time')).code).toBe(0);
    const react = await server.call('reactMessage', { id: msg.msg_id, emoji: '👍', on: 1 }, { token: m2.token });
    expect(react.code, react.msg).toBe(0);
    const pin = await server.call('pinMessage', { id: msg.msg_id, pin: 1 }, { token: owner.token });
    expect(pin.code, pin.msg).toBe(0);
    await s2.waitFor((f) => f.type === 'editMessage');
    await s2.waitFor((f) => f.type === 'reaction');
    // The pin's line reaches everyone, the late member too, without the message's words.
    const line = await sl.waitFor((f) => f.type === 'group' && f.data.type === 'event');
    expect(line.data.content).not.toContain('before your time');
    expect(sl.frames.filter((f) => f.type === 'editMessage' || f.type === 'reaction')).toEqual([]);

    // Muted, the sender may not rewrite what they sent.
    const mute = await server.call(
      'setNoSpeak',
      { id: gid, user_id: m1.userId, noSpeakTimer: 1 },
      { token: owner.token },
    );
    expect(mute.code, mute.msg).toBe(0);
    const muted = await edit(m1, msg.msg_id, 'sneaky rewrite');
    expect(muted.code).not.toBe(0);
    const sent = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content: 'x' },
      { token: m1.token },
    );
    expect([muted.code, muted.msg]).toEqual([sent.code, sent.msg]);
    sl.close();
    s2.close();
  });

  it('makes search find the current text only', async () => {
    const a = await fresh('hal');
    const b = await fresh('ivy');
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'pineapple 会议 tomorrow');
    expect(await search(b, 'pineapple')).toEqual([msg.msg_id]);
    expect(await search(b, '会议')).toEqual([msg.msg_id]);
    expect((await edit(a, msg.msg_id, 'mango 周会 tomorrow')).code).toBe(0);
    expect(await search(b, 'pineapple')).toEqual([]);
    expect(await search(b, '会议')).toEqual([]);
    expect(await search(b, 'mango')).toEqual([msg.msg_id]);
    expect(await search(b, '周会')).toEqual([msg.msg_id]);
    expect(await search(a, 'tomorrow')).toEqual([msg.msg_id]);

    // A text edited before the indexer reached it is indexed as it is then.
    const fresh2 = await send(a, b.userId, 'kiwi');
    expect((await edit(a, fresh2.msg_id, 'papaya')).code).toBe(0);
    expect(await search(b, 'kiwi')).toEqual([]);
    expect(await search(b, 'papaya')).toEqual([fresh2.msg_id]);
  });
});
