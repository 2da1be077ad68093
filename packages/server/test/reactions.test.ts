import { randomUUID } from 'node:crypto';
import { REACTIONS_PER_USER_MAX } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import { describeEachDb, makeFriends, makeGroup, serverForSuite, signUp, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>> & { realname: string };

describeEachDb('reactions', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = async (name: string): Promise<User> => {
    const realname = `${name}${++n}`;
    return { ...(await signUp(server, `${realname}r`, 'secret123', realname)), realname };
  };

  serverForSuite(target, (s) => (server = s), { 'sysInfo.runMode': '2' });
  const send = async (from: User, to: number | string, content: string) => {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content },
      { token: from.token },
    );
    expect(res.code, res.msg).toBe(0);
    return res.data as { msg_id: number; id: string };
  };
  // Each reaction a millisecond after the one before: the emoji are in the order first used.
  const react = (u: User, id: number | string, emoji: string, on: 0 | 1) => {
    server.clock.advance(1);
    return server.call('reactMessage', { id, emoji, on }, { token: u.token });
  };
  const page = async (u: User, toContactId: number | string) =>
    (
      await server.call(
        'getMessageList',
        { toContactId, is_group: typeof toContactId === 'string' ? 1 : 0 },
        { token: u.token },
      )
    ).data as Array<{ msg_id: number; reactions?: unknown }>;

  it('puts a reaction on and takes it back, live for both sides, and shows it in the history', async () => {
    const a = await fresh('amy');
    const b = await fresh('ben');
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'hello');
    const sa = await TestSocket.bound(server, a.userId, a.token);
    const sb = await TestSocket.bound(server, b.userId, b.token);

    const on = await react(b, msg.msg_id, '👍', 1);
    expect(on.code, on.msg).toBe(0);
    expect(on.data).toEqual({ msg_id: msg.msg_id, reactions: [{ emoji: '👍', count: 1, mine: 1 }] });
    const toA = await sa.waitFor((f) => f.type === 'reaction');
    expect(toA.data).toEqual({
      toContactId: b.userId,
      msg_id: msg.msg_id,
      emoji: '👍',
      user_id: b.userId,
      on: 1,
      count: 1,
    });
    const toB = await sb.waitFor((f) => f.type === 'reaction');
    expect(toB.data.toContactId).toBe(a.userId);

    // Again: nothing changes and nothing is pushed; the author adds one by the client id.
    expect((await react(b, msg.msg_id, '👍', 1)).data.reactions).toEqual([{ emoji: '👍', count: 1, mine: 1 }]);
    expect((await react(a, msg.id, '👍', 1)).data.reactions).toEqual([{ emoji: '👍', count: 2, mine: 1 }]);
    expect((await react(a, msg.msg_id, '❤️', 1)).code).toBe(0);

    const seenByA = (await page(a, b.userId)).find((m) => m.msg_id === msg.msg_id);
    expect(seenByA?.reactions).toEqual([
      { emoji: '👍', count: 2, mine: 1 },
      { emoji: '❤️', count: 1, mine: 1 },
    ]);
    const seenByB = (await page(b, a.userId)).find((m) => m.msg_id === msg.msg_id);
    expect(seenByB?.reactions).toEqual([
      { emoji: '👍', count: 2, mine: 1 },
      { emoji: '❤️', count: 1, mine: 0 },
    ]);

    const off = await react(b, msg.msg_id, '👍', 0);
    expect(off.data.reactions).toEqual([
      { emoji: '👍', count: 1, mine: 0 },
      { emoji: '❤️', count: 1, mine: 0 },
    ]);
    const taken = await sa.waitFor((f) => f.type === 'reaction' && f.data.on === 0);
    expect(taken.data).toMatchObject({ emoji: '👍', user_id: b.userId, count: 1 });

    const who = await server.call('messageReactions', { id: msg.msg_id }, { token: b.token });
    expect(who.data.map((r: any) => [r.emoji, r.user_id, r.name])).toEqual([
      ['👍', a.userId, a.realname],
      ['❤️', a.userId, a.realname],
    ]);
    const hearts = await server.call('messageReactions', { id: msg.msg_id, emoji: '❤️' }, { token: b.token });
    expect(hearts.data).toHaveLength(1);
    sa.close();
    sb.close();
  });

  it(`allows ${REACTIONS_PER_USER_MAX} different emoji per person and message, and refuses what is not one emoji`, async () => {
    const a = await fresh('cat');
    const b = await fresh('dan');
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'pick');
    const emoji = ['😂', '😮', '🙏', '🎉'];
    for (const e of emoji.slice(0, REACTIONS_PER_USER_MAX)) expect((await react(b, msg.msg_id, e, 1)).code).toBe(0);
    const full = await react(b, msg.msg_id, emoji[REACTIONS_PER_USER_MAX]!, 1);
    expect(full.code).toBe(401);
    expect(full.msg).toContain(String(REACTIONS_PER_USER_MAX));
    // One taken back leaves room for another.
    expect((await react(b, msg.msg_id, emoji[0]!, 0)).code).toBe(0);
    expect((await react(b, msg.msg_id, emoji[REACTIONS_PER_USER_MAX]!, 1)).code).toBe(0);
    // Skin tones, flags and families are one emoji each; letters, two emoji and long text are not.
    for (const e of ['👍🏽', '🇨🇳', '👨‍👩‍👧']) expect((await react(a, msg.msg_id, e, 1)).code, e).toBe(0);
    for (const e of ['a', '👍👍', '', 'x'.repeat(40), '1'])
      expect((await react(a, msg.msg_id, e, 1)).code, e).toBe(400);
  });

  it('refuses reactions where the group turned them off, on event lines and on withdrawn messages', async () => {
    const owner = await fresh('eve');
    const m1 = await fresh('fay');
    const m2 = await fresh('gus');
    const gid = await makeGroup(server, owner, [m1, m2]);
    const msg = await send(m1, gid, 'vote');
    const sm2 = await TestSocket.bound(server, m2.userId, m2.token);
    expect((await react(m2, msg.msg_id, '👍', 1)).code).toBe(0);
    const pushed = await sm2.waitFor((f) => f.type === 'reaction');
    expect(pushed.data).toMatchObject({ toContactId: gid, count: 1 });

    // A member may not change the setting; the owner turns reactions off.
    expect((await server.call('groupSetting', { id: gid, setting: { reaction: 0 } }, { token: m1.token })).code).toBe(
      403,
    );
    expect(
      (await server.call('groupSetting', { id: gid, setting: { reaction: 0 } }, { token: owner.token })).code,
    ).toBe(0);
    const setting = await sm2.waitFor((f) => f.type === 'groupSetting');
    expect(setting.data.setting.reaction).toBe(0);
    const off = await react(m1, msg.msg_id, '❤️', 1);
    expect(off.code).toBe(401);
    expect(off.msg).toBeTruthy();
    expect(
      (await server.call('groupSetting', { id: gid, setting: { reaction: 1 } }, { token: owner.token })).code,
    ).toBe(0);
    expect((await react(m1, msg.msg_id, '❤️', 1)).code).toBe(0);

    const line = (await page(owner, gid)).find((m: any) => m.type === 'event');
    expect(line).toBeDefined();
    expect((await react(owner, line!.msg_id, '👍', 1)).code).toBe(404);

    expect((await server.call('undoMessage', { id: msg.msg_id }, { token: m1.token })).code).toBe(0);
    expect((await react(m2, msg.msg_id, '👍', 0)).code).toBe(404);
    expect((await server.call('messageReactions', { id: msg.msg_id }, { token: m2.token })).code).toBe(404);
    const withdrawn = (await page(owner, gid)).find((m) => m.msg_id === msg.msg_id);
    expect(withdrawn?.reactions).toBeUndefined();
    sm2.close();
  });

  it('names who reacted as the reader sees them: a remark before a group nickname', async () => {
    const owner = await fresh('hal');
    const m1 = await fresh('ivy');
    const gid = await makeGroup(server, owner, [m1, await fresh('joe')]);
    await server.call('updateCard', { group_id: gid, nickname: 'Ivy in team' }, { token: m1.token });
    const msg = await send(owner, gid, 'names');
    await react(m1, msg.msg_id, '🙏', 1);
    const asOwner = await server.call('messageReactions', { id: msg.msg_id }, { token: owner.token });
    expect(asOwner.data[0]).toMatchObject({ user_id: m1.userId, name: 'Ivy in team', emoji: '🙏' });
    const row = await server.ctx.repos.friends.row(owner.userId, m1.userId);
    await server.call('friendSetNickname', { friend_id: row!.id, nickname: 'My Ivy' }, { token: owner.token });
    const remarked = await server.call('messageReactions', { id: msg.msg_id }, { token: owner.token });
    expect(remarked.data[0].name).toBe('My Ivy');
  });

  it('counts 500 reactions on one message from their rows, and lists who reacted with one emoji', async () => {
    const a = await fresh('jim');
    const b = await fresh('kim');
    await makeFriends(server, a, b);
    const msg = await send(a, b.userId, 'popular');
    const now = Date.now();
    await server.ctx.db
      .insertInto('message_reactions')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          msg_id: msg.msg_id,
          user_id: 1_000_000 + i,
          emoji: i % 2 ? '❤️' : '👍',
          create_time: now + i,
        })),
      )
      .execute();
    const found = (await page(b, a.userId)).find((m) => m.msg_id === msg.msg_id);
    expect(found?.reactions).toEqual([
      { emoji: '👍', count: 250, mine: 0 },
      { emoji: '❤️', count: 250, mine: 0 },
    ]);
    const listed = await server.call('messageReactions', { id: msg.msg_id, emoji: '👍' }, { token: b.token });
    expect(listed.data.length).toBeLessThanOrEqual(250);
  });
});
