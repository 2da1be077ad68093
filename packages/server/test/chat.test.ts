import { randomUUID } from 'node:crypto';
import { RATE_LIMITS } from '@sparrow/protocol';
import { expect, it } from 'vitest';
import {
  describeEachDb,
  expectBadBodies,
  makeFriends,
  makeGroup,
  MISSING,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
} from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

describeEachDb('chat', (target) => {
  let server!: TestServer;
  let n = 0;
  const fresh = (name: string) => signUp(server, `${name}${++n}c`, 'secret123', `${name}${n}`);

  serverForSuite(target, (s) => (server = s), {
    'sysInfo.runMode': '2',
    'chatInfo.simpleChat': '1',
    'chatInfo.redoTime': '86400',
    'chatInfo.dbDelMsg': '1',
    'chatInfo.sendInterval': '0',
  });
  const send = (from: User, to: number | string, content: string, extra: Record<string, unknown> = {}) =>
    server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content, ...extra },
      { token: from.token },
    );
  const contact = async (u: User, id: number | string) =>
    (await server.call('getContacts', {}, { token: u.token })).data.find((c: any) => String(c.id) === String(id));

  it('sends a private message, pushes it, counts unread, and clears it on read', async () => {
    const a = await fresh('amy');
    const b = await fresh('ben');
    await makeFriends(server, a, b);
    const sb = await TestSocket.bound(server, b.userId, b.token);
    const sa2 = await TestSocket.bound(server, a.userId, a.token);
    const res = await send(a, b.userId, '你好 👋🏽');
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      type: 'text',
      content: '你好 👋🏽',
      toContactId: b.userId,
      is_group: 0,
      fromUser: { id: a.userId },
    });
    const pushed = await sb.waitFor((f) => f.type === 'simple' && f.data.msg_id === res.data.msg_id);
    expect(pushed.data.contactInfo).toMatchObject({ id: a.userId, unread: 1 });
    await sa2.waitFor((f) => f.type === 'simple' && f.data.msg_id === res.data.msg_id);

    expect(await contact(b, a.userId)).toMatchObject({ unread: 1, lastContent: '你好 👋🏽', type: 'text' });
    expect((await contact(a, b.userId)).unread).toBe(0);

    await server.call('setMsgIsRead', { toContactId: a.userId, is_group: 0 }, { token: b.token });
    expect((await contact(b, a.userId)).unread).toBe(0);
    const receipt = await sa2.waitFor((f) => f.type === 'isRead');
    expect(receipt.data).toEqual({ toContactId: b.userId, msg_id: res.data.msg_id });
    const list = await server.call('getMessageList', { toContactId: b.userId, is_group: 0 }, { token: a.token });
    expect(list.data.at(-1)).toMatchObject({ msg_id: res.data.msg_id, is_read: 1 });
    sb.close();
    sa2.close();
  });

  it("pushes a send to the sender's other sockets and to the receivers, not back to the socket that sent it", async () => {
    const a = await fresh('eli');
    const b = await fresh('fox');
    const gid = await makeGroup(server, a, [b, await fresh('gil')]);
    const sending = await TestSocket.bound(server, a.userId, a.token);
    const other = await TestSocket.bound(server, a.userId, a.token);
    const sb = await TestSocket.bound(server, b.userId, b.token);
    for (const [to, type] of [
      [b.userId, 'simple'],
      [gid, 'group'],
    ] as const) {
      const res = await server.call(
        'sendMessage',
        { id: randomUUID(), toContactId: to, is_group: type === 'group' ? 1 : 0, type: 'text', content: `to ${to}` },
        { token: a.token, headers: { clientid: sending.clientId } },
      );
      expect(res).toMatchObject({ code: 0 });
      const mine = (f: any) => f.type === type && f.data.msg_id === res.data.msg_id;
      expect((await other.waitFor(mine)).data.contactInfo).toMatchObject({ id: type === 'group' ? gid : b.userId });
      expect((await sb.waitFor(mine)).data.contactInfo).toMatchObject({ id: type === 'group' ? gid : a.userId });
      // A push is written before the answer: one round trip later, the sending socket has all it will get.
      await sending.roundTrip();
      expect(sending.frames.filter(mine)).toEqual([]);
    }
    for (const sock of [sending, other, sb]) sock.close();
  });

  it('refuses a message whose extends nests deeper than any kind of message needs', async () => {
    const a = await fresh('deep');
    const nest = (n: number) => '{"a":'.repeat(n) + '{}' + '}'.repeat(n);
    const body = (ext: string, type = 'text') =>
      `{"id":"${randomUUID()}","toContactId":${a.userId},"type":"${type}","content":"here","extends":${ext}}`;
    // A text message reads no extends: the schema is what bounds it.
    const res = await server.post('/enterprise/im/sendMessage', body(nest(4)), {
      'content-type': 'application/json',
      authorization: a.token,
    });
    expect(res.json).toMatchObject({ code: 400, data: { fields: ['extends'] } });
    const place = '{"name":"Home","address":"1 Main St","latitude":31.2,"longitude":121.5}';
    const sent = await server.post('/enterprise/im/sendMessage', body(place, 'location'), {
      'content-type': 'application/json',
      authorization: a.token,
    });
    expect(sent.json.code, sent.json.msg).toBe(0);
  });

  it('returns the same message when a send is retried with the same id', async () => {
    const a = await fresh('cal');
    const b = await fresh('dee');
    await makeFriends(server, a, b);
    const id = randomUUID();
    const body = { id, toContactId: b.userId, is_group: 0, type: 'text', content: 'once' };
    const [r1, r2] = await Promise.all([
      server.call('sendMessage', body, { token: a.token }),
      server.call('sendMessage', body, { token: a.token }),
    ]);
    const r3 = await server.call('sendMessage', body, { token: a.token });
    expect(r1.data.msg_id).toBe(r2.data.msg_id);
    expect(r3.data.msg_id).toBe(r1.data.msg_id);
    const list = await server.call('getMessageList', { toContactId: a.userId }, { token: b.token });
    expect(list.data.filter((m: any) => m.content === 'once')).toHaveLength(1);
    expect((await contact(b, a.userId)).unread).toBe(1);
  });

  it('keeps client ids per sender: another user sending with my id gets a message of their own', async () => {
    const a = await fresh('kim');
    const b = await fresh('lou');
    await makeFriends(server, a, b);
    const id = randomUUID();
    const mine = await server.call(
      'sendMessage',
      { id, toContactId: b.userId, is_group: 0, type: 'text', content: 'from kim' },
      { token: a.token },
    );
    const theirs = await server.call(
      'sendMessage',
      { id, toContactId: a.userId, is_group: 0, type: 'text', content: 'from lou' },
      { token: b.token },
    );
    expect(theirs.code).toBe(0);
    expect(theirs.data.msg_id).not.toBe(mine.data.msg_id);
    expect(theirs.data).toMatchObject({ content: 'from lou', fromUser: { id: b.userId } });
  });

  it('answers retries without using up the sender’s send limit', async () => {
    const a = await fresh('iva');
    const b = await fresh('jon');
    await makeFriends(server, a, b);
    const { burst } = server.ctx.config.get().rateLimits.sendMessage;
    await server.ctx.config.set('rateLimits.sendMessage.burst', '2');
    try {
      const body = { id: randomUUID(), toContactId: b.userId, is_group: 0, type: 'text', content: 'sent once' };
      const first = await server.call('sendMessage', body, { token: a.token });
      for (let i = 0; i < 3; i++) {
        expect((await server.call('sendMessage', body, { token: a.token })).data.msg_id).toBe(first.data.msg_id);
      }
      // The bucket of two still holds one send: the clock stands still, so it does not refill.
      expect((await send(a, b.userId, 'second')).code).toBe(0);
      expect((await send(a, b.userId, 'third')).code).toBe(429);
    } finally {
      await server.ctx.config.set('rateLimits.sendMessage.burst', String(burst));
    }
  });

  it('answers a retried group send with the stored message even after its sender was muted', async () => {
    const owner = await fresh('gus');
    const member = await fresh('hal');
    const gid = await makeGroup(server, owner, [member, await fresh('ida')]);
    const body = { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content: 'before the mute' };
    const first = await server.call('sendMessage', body, { token: member.token });
    expect(first.code).toBe(0);
    await server.ctx.db
      .updateTable('groups')
      .set({ setting: JSON.stringify({ nospeak: 1 }) })
      .where('id', '=', Number(gid.slice(6)))
      .execute();
    const retry = await server.call('sendMessage', body, { token: member.token });
    expect(retry.code).toBe(0);
    expect(retry.data.msg_id).toBe(first.data.msg_id);
    expect((await send(member, gid, 'after the mute')).code).toBe(401);
    const list = await server.call('getMessageList', { toContactId: gid, is_group: 1 }, { token: owner.token });
    expect(list.data.filter((m: any) => m.content === 'before the mute')).toHaveLength(1);
  });

  it('refuses text over 2048 characters, counting emoji as one, and empty text', async () => {
    const a = await fresh('eli');
    const b = await fresh('fox');
    await makeFriends(server, a, b);
    expect((await send(a, b.userId, '字'.repeat(2048))).code).toBe(0);
    expect((await send(a, b.userId, '👨‍👩‍👧'.repeat(2048))).code).toBe(0);
    const long = await send(a, b.userId, '字'.repeat(2049));
    expect(long.code).toBe(400);
    expect(long.data.fields).toEqual(['content']);
    expect((await send(a, b.userId, '   ')).code).toBe(400);
    const html = await send(a, b.userId, '<p>line one</p><p>two &amp; <b>three</b></p>');
    expect(html.data.content).toBe('line one\ntwo & three');
  });

  it('applies simpleChat, friends-only, and sendInterval', async () => {
    const a = await fresh('gil');
    const b = await fresh('hue');
    const notFriend = await send(a, b.userId, 'hi');
    expect(notFriend.code).toBe(401);
    await server.ctx.config.set('sysInfo.runMode', '1');
    expect((await send(a, b.userId, 'hi')).code).toBe(0);
    await server.ctx.config.set('chatInfo.simpleChat', '0');
    const off = await send(a, b.userId, 'hi');
    expect(off).toMatchObject({ code: 401, msg: 'Private chat is turned off' });
    await server.ctx.config.set('chatInfo.simpleChat', '1');
    await server.ctx.config.set('chatInfo.sendInterval', '5');
    expect((await send(a, b.userId, 'one')).code).toBe(0);
    expect((await send(a, b.userId, 'two')).code).toBe(429);
    server.clock.advance(6000);
    expect((await send(a, b.userId, 'three')).code).toBe(0);
  });

  it('runs a group: members, mentions, history visibility, and refusals', async () => {
    const owner = await fresh('ida');
    const m1 = await fresh('jon');
    const m2 = await fresh('kai');
    const gid = await makeGroup(server, owner, [m1, m2]);
    const created = await server.call(
      'getMessageList',
      { toContactId: gid, is_group: 1 },
      { token: m1.token, lang: 'en' },
    );
    expect(created.data.map((m: any) => m.type)).toEqual(['event', 'event']);
    expect(created.data[0].content).toMatch(/created the group$/);
    expect(created.data[1].content).toMatch(/invited/);

    const s1 = await TestSocket.bound(server, m1.userId, m1.token);
    const hi = await send(owner, gid, '@jon hello', { at: [m1.userId] });
    expect(hi.code).toBe(0);
    await s1.waitFor((f) => f.type === 'group' && f.data.msg_id === hi.data.msg_id);
    // The two system lines before it are not messages to read.
    expect(await contact(m1, gid)).toMatchObject({ is_at: 1, unread: 1 });
    expect((await contact(m2, gid)).is_at).toBe(0);
    const atList = await server.call('getMessageList', { toContactId: gid, is_at: 1 }, { token: m1.token });
    expect(atList.data.map((m: any) => m.msg_id)).toEqual([hi.data.msg_id]);
    await server.call('readAtMsg', { toContactId: gid }, { token: m1.token });
    expect((await contact(m1, gid)).is_at).toBe(0);

    const everyoneByMember = await send(m1, gid, 'all?', { at: [0] });
    expect(everyoneByMember.data.at).toEqual([]);
    const everyone = await send(owner, gid, 'all!', { at: [0] });
    expect(everyone.data.at).toEqual([0]);
    expect((await contact(m2, gid)).is_at).toBeGreaterThan(0);

    const outsider = await fresh('lou');
    expect((await send(outsider, gid, 'let me in')).code).toBe(403);
    expect((await server.call('getMessageList', { toContactId: gid }, { token: outsider.token })).code).toBe(403);
    expect((await send(outsider, 'group-999999', 'x')).code).toBe(403);

    await makeFriends(server, owner, outsider);
    await server.ctx.db
      .updateTable('groups')
      .set({ setting: JSON.stringify({ invite: 1, history: 0, profile: 1, nospeak: 0, manage: 0 }) })
      .execute();
    expect(
      (await server.call('addGroupUser', { id: gid, user_ids: [outsider.userId] }, { token: owner.token })).code,
    ).toBe(0);
    const seen = await server.call('getMessageList', { toContactId: gid }, { token: outsider.token });
    expect(seen.data.map((m: any) => m.type)).toEqual(['event']);
    expect(seen.data[0].content).toBe(`${seen.data[0].extends.name} invited you to the group`);
    await server.ctx.db
      .updateTable('groups')
      .set({ setting: JSON.stringify({ invite: 1, history: 1, profile: 1, nospeak: 0, manage: 0 }) })
      .execute();
    const all = await server.call('getMessageList', { toContactId: gid }, { token: outsider.token });
    expect(all.data.length).toBeGreaterThan(4);
    s1.close();
  });

  it('enforces nospeak and personal mutes with code 401 and the end time', async () => {
    const owner = await fresh('mia');
    const m1 = await fresh('nia');
    const m2 = await fresh('ola');
    const gid = await makeGroup(server, owner, [m1, m2]);
    const gidNum = Number(gid.slice(6));
    await server.ctx.db
      .updateTable('group_members')
      .set({ role: 2 })
      .where('group_id', '=', gidNum)
      .where('user_id', '=', m1.userId)
      .execute();
    await server.ctx.db
      .updateTable('groups')
      .set({ setting: JSON.stringify({ nospeak: 1 }) })
      .where('id', '=', gidNum)
      .execute();
    expect((await send(m2, gid, 'x')).code).toBe(401);
    expect((await send(m1, gid, 'x')).code).toBe(0);
    await server.ctx.db
      .updateTable('groups')
      .set({ setting: JSON.stringify({ nospeak: 2 }) })
      .where('id', '=', gidNum)
      .execute();
    expect((await send(m1, gid, 'x')).code).toBe(401);
    expect((await send(owner, gid, 'x')).code).toBe(0);
    await server.ctx.db
      .updateTable('groups')
      .set({ setting: JSON.stringify({ nospeak: 0 }) })
      .where('id', '=', gidNum)
      .execute();
    const until = server.clock.now() + 600_000;
    await server.ctx.db
      .updateTable('group_members')
      .set({ no_speak_until: until })
      .where('group_id', '=', gidNum)
      .where('user_id', '=', m2.userId)
      .execute();
    const muted = await send(m2, gid, 'x');
    expect(muted.code).toBe(401);
    expect(muted.data).toEqual({ no_speak_until: until });
    expect(muted.msg).toMatch(/muted until/);
    server.clock.advance(600_001);
    expect((await send(m2, gid, 'x')).code).toBe(0);
  });

  it('withdraws within redoTime, lets admins and owners withdraw others, and pushes it', async () => {
    const owner = await fresh('pia');
    const admin = await fresh('quo');
    const m = await fresh('rex');
    const gid = await makeGroup(server, owner, [admin, m]);
    const gidNum = Number(gid.slice(6));
    await server.ctx.db
      .updateTable('group_members')
      .set({ role: 2 })
      .where('group_id', '=', gidNum)
      .where('user_id', '=', admin.userId)
      .execute();
    const sm = await TestSocket.bound(server, m.userId, m.token);

    const mine = await send(m, gid, 'oops');
    expect((await server.call('undoMessage', { id: mine.data.id }, { token: m.token })).code).toBe(0);
    const undone = await sm.waitFor((f) => f.type === 'undoMessage' && f.data.msg_id === mine.data.msg_id);
    expect(undone.data).toMatchObject({ type: 'event', content: 'You withdrew a message' });
    // The sender may edit it again for a while from when it was withdrawn (REEDIT_WINDOW_MS).
    expect(undone.data.extends).toMatchObject({ event: 'undo', original: 'oops', undone_at: server.clock.now() });

    const late = await send(m, gid, 'late');
    server.clock.advance(86_400_001);
    expect((await server.call('undoMessage', { id: late.data.msg_id }, { token: m.token })).code).toBe(400);
    expect((await server.call('undoMessage', { id: late.data.msg_id }, { token: admin.token })).code).toBe(0);
    const byOwner = await send(admin, gid, 'admin says');
    expect((await server.call('undoMessage', { id: byOwner.data.msg_id }, { token: m.token })).code).toBe(403);
    const adminOnAdmin = await send(owner, gid, 'owner says');
    expect((await server.call('undoMessage', { id: adminOnAdmin.data.msg_id }, { token: admin.token })).code).toBe(403);
    expect((await server.call('undoMessage', { id: byOwner.data.msg_id }, { token: owner.token })).code).toBe(0);
    const list = await server.call('getMessageList', { toContactId: gid }, { token: owner.token });
    const ev = list.data.find((x: any) => x.msg_id === byOwner.data.msg_id);
    const adminName = (await server.call('checkuser', {}, { token: admin.token })).data.realname;
    expect(ev.content).toBe(`You withdrew a message from ${adminName}`);
    sm.close();
  });

  it('deletes for everyone, hides for me, forwards to 1–5 targets, pins and mutes', async () => {
    const a = await fresh('sal');
    const b = await fresh('tia');
    const c = await fresh('ulf');
    await makeFriends(server, a, b);
    await makeFriends(server, a, c);
    const sb = await TestSocket.bound(server, b.userId, b.token);
    const m1 = await send(a, b.userId, 'delete me');
    expect((await server.call('delMessage', { id: m1.data.msg_id }, { token: b.token })).code).toBe(403);
    expect((await server.call('delMessage', { id: m1.data.id }, { token: a.token })).code).toBe(0);
    const del = await sb.waitFor((f) => f.type === 'delMessage');
    expect(del.data).toEqual({ id: m1.data.id, msg_id: m1.data.msg_id, toContactId: a.userId });
    expect((await server.call('getMessageList', { toContactId: a.userId }, { token: b.token })).data).toEqual([]);
    await server.ctx.config.set('chatInfo.dbDelMsg', '0');
    const m2 = await send(a, b.userId, 'keep');
    expect((await server.call('delMessage', { id: m2.data.msg_id }, { token: a.token })).code).toBe(403);

    expect((await server.call('removeMessage', { id: m2.data.msg_id }, { token: b.token })).code).toBe(0);
    expect((await server.call('getMessageList', { toContactId: a.userId }, { token: b.token })).data).toEqual([]);
    expect((await server.call('getMessageList', { toContactId: b.userId }, { token: a.token })).data).toHaveLength(1);

    expect(
      (await server.call('forwardMessage', { msg_id: m2.data.msg_id, user_ids: [] }, { token: a.token })).code,
    ).toBe(400);
    const six = await server.call(
      'forwardMessage',
      { msg_id: m2.data.msg_id, user_ids: [1, 2, 3, 4, 5, 6] },
      { token: a.token },
    );
    expect(six.code).toBe(400);
    const fw = await server.call(
      'forwardMessage',
      { msg_id: m2.data.msg_id, user_ids: [c.userId, -1] },
      { token: a.token },
    );
    expect(fw).toMatchObject({ code: 0, msg: 'Forwarded' });
    expect(
      (await server.call('getMessageList', { toContactId: a.userId }, { token: c.token })).data.map(
        (m: any) => m.content,
      ),
    ).toEqual(['keep']);
    expect(
      (await server.call('getMessageList', { toContactId: -1 }, { token: a.token })).data.map((m: any) => m.content),
    ).toEqual(['keep']);
    const stranger = await fresh('vin');
    expect(
      (await server.call('forwardMessage', { msg_id: m2.data.msg_id, user_ids: [stranger.userId] }, { token: a.token }))
        .code,
    ).toBe(401);
    expect(
      (await server.call('forwardMessage', { msg_id: m2.data.msg_id, user_ids: [c.userId] }, { token: stranger.token }))
        .code,
    ).toBe(404);

    const sa = await TestSocket.bound(server, a.userId, a.token);
    await server.call('setChatTop', { id: b.userId, is_top: 1 }, { token: a.token });
    await server.call('isNotice', { id: b.userId, is_notice: 0 }, { token: a.token });
    expect(await contact(a, b.userId)).toMatchObject({ is_top: 1, is_notice: 0 });
    await sa.waitFor((f) => f.type === 'setChatTop' && f.data.is_top === 1);
    await sa.waitFor((f) => f.type === 'setIsNotice' && f.data.is_notice === 0);
    await server.call('delChat', { id: b.userId }, { token: a.token });
    expect((await contact(a, b.userId)).lastSendTime).toBe(0);
    await send(b, a.userId, 'back');
    expect((await contact(a, b.userId)).lastContent).toBe('back');
    sa.close();
    sb.close();
  });

  it('pages with last_id and after_id, filters by keyword, and syncs what was missed exactly once', async () => {
    const a = await fresh('wyn');
    const b = await fresh('xan');
    await makeFriends(server, a, b);
    const sent: number[] = [];
    for (let i = 0; i < 25; i++)
      sent.push((await send(a, b.userId, `msg ${i}${i === 7 ? ' needle' : ''}`)).data.msg_id);
    const first = await server.call('getMessageList', { toContactId: a.userId, limit: 10 }, { token: b.token });
    expect(first.count).toBe(25);
    expect(first.data.map((m: any) => m.msg_id)).toEqual(sent.slice(15));
    const older = await server.call(
      'getMessageList',
      { toContactId: a.userId, limit: 10, last_id: sent[15] },
      { token: b.token },
    );
    expect(older.data.map((m: any) => m.msg_id)).toEqual(sent.slice(5, 15));
    const newer = await server.call(
      'getMessageList',
      { toContactId: a.userId, limit: 5, after_id: sent[9] },
      { token: b.token },
    );
    expect(newer.data.map((m: any) => m.msg_id)).toEqual(sent.slice(10, 15));
    const found = await server.call(
      'getMessageList',
      { toContactId: a.userId, keywords: 'needle' },
      { token: b.token },
    );
    expect(found.data.map((m: any) => m.msg_id)).toEqual([sent[7]]);
    const pct = await server.call('getMessageList', { toContactId: a.userId, keywords: '%' }, { token: b.token });
    expect(pct.data).toEqual([]);

    const synced: number[] = [];
    let after = sent[4]!;
    for (;;) {
      const page = await server.call('sync', { after_id: after, limit: 7 }, { token: b.token });
      synced.push(...page.data.map((m: any) => m.msg_id));
      if (page.count === 0) break;
      after = page.data.at(-1).msg_id;
    }
    expect(synced).toEqual(sent.slice(5));
    const strangerSync = await server.call('sync', { after_id: 0 }, { token: (await fresh('yul')).token });
    expect(strangerSync.data).toEqual([]);
  });

  it('quotes a message of the same chat only', async () => {
    const a = await fresh('zed');
    const b = await fresh('zoe');
    await makeFriends(server, a, b);
    const orig = await send(a, b.userId, 'original');
    const reply = await send(b, a.userId, 'reply', { pid: orig.data.msg_id });
    expect(reply.data.pid).toBe(orig.data.msg_id);
    expect(reply.data.extends.quote).toMatchObject({
      msg_id: orig.data.msg_id,
      content: 'original',
      user_id: a.userId,
    });
    const c = await fresh('zia');
    await makeFriends(server, c, b);
    const foreign = await send(c, b.userId, 'elsewhere');
    const bad = await send(b, a.userId, 'reply', { pid: foreign.data.msg_id });
    expect(bad.data.pid).toBe(0);
  });

  it('lists groups by role and the users I may add', async () => {
    const owner = await fresh('abe');
    const m1 = await fresh('bea');
    const m2 = await fresh('cid');
    const gid = await makeGroup(server, owner, [m1, m2]);
    expect((await server.call('getAllGroup', { role: 1 }, { token: owner.token })).data.map((g: any) => g.id)).toEqual([
      gid,
    ]);
    expect((await server.call('getAllGroup', { role: 1 }, { token: m1.token })).data).toEqual([]);
    expect((await server.call('getAllGroup', { role: 3 }, { token: m1.token })).data.map((g: any) => g.id)).toEqual([
      gid,
    ]);
    const members = await server.call('groupUserList', { group_id: gid }, { token: m1.token });
    expect(members.data.map((m: any) => [m.user_id, m.role])).toEqual([
      [owner.userId, 1],
      [m1.userId, 3],
      [m2.userId, 3],
    ]);
    const m3 = await fresh('dot');
    await makeFriends(server, owner, m3);
    const addable = await server.call('getAllUser', { group_id: gid }, { token: owner.token });
    expect(addable.data.map((u: any) => u.id)).toEqual([m3.userId]);
    const info = await server.call('groupInfo', { group_id: gid }, { token: m1.token });
    expect(info.data).toMatchObject({
      member_count: 3,
      isJoin: 3,
      owner_id: owner.userId,
      setting: { invite: 1, history: 1, nospeak: 0 },
    });
    expect(info.data.qrUrl).toContain(`/scan/g/g${gid.slice('group-'.length)}`);
    expect((await server.call('groupInfo', { group_id: gid }, { token: m3.token })).code).toBe(403);
    expect((await server.call('groupAdd', { user_ids: [m1.userId] }, { token: owner.token })).code).toBe(400);
  });
  it('shows the previous message in the list when the last one is deleted or hidden', async () => {
    const a = await fresh('ren');
    const b = await fresh('ria');
    await makeFriends(server, a, b);
    await send(a, b.userId, 'first');
    const second = await send(a, b.userId, 'second');
    expect((await contact(b, a.userId)).lastContent).toBe('second');
    await server.call('delMessage', { id: second.data.msg_id }, { token: a.token });
    expect((await contact(b, a.userId)).lastContent).toBe('first');
    expect((await contact(a, b.userId)).lastContent).toBe('first');
    const third = await send(b, a.userId, 'third');
    await server.call('removeMessage', { id: third.data.msg_id }, { token: a.token });
    expect((await contact(a, b.userId)).lastContent).toBe('first');
    expect((await contact(b, a.userId)).lastContent).toBe('third');
  });

  it("keeps a group's last message, unread counts and hidden rows right without a row per member", async () => {
    const owner = await fresh('sam');
    const m1 = await fresh('sia');
    const m2 = await fresh('sol');
    const gid = await makeGroup(server, owner, [m1, m2]);
    await server.call('setMsgIsRead', { toContactId: gid, is_group: 1 }, { token: m1.token });
    await server.call('setMsgIsRead', { toContactId: gid, is_group: 1 }, { token: m2.token });
    await send(owner, gid, 'first');
    const second = await send(m2, gid, 'second');
    expect(await contact(m1, gid)).toMatchObject({ lastContent: 'second', unread: 2 });
    // Nobody's own messages count as unread for them.
    expect(await contact(m2, gid)).toMatchObject({ unread: 1 });
    expect(await contact(owner, gid)).toMatchObject({ unread: 1 });

    // Deleted for everyone: the list falls back to the message before it, and it no longer counts.
    await server.call('delMessage', { id: second.data.msg_id }, { token: m2.token });
    expect(await contact(m1, gid)).toMatchObject({ lastContent: 'first', unread: 1 });
    expect(await contact(owner, gid)).toMatchObject({ lastContent: 'first', unread: 0 });

    // Hidden for me only: I see the one before it, the others still see it.
    const third = await send(owner, gid, 'third');
    await server.call('removeMessage', { id: third.data.msg_id }, { token: m1.token });
    expect((await contact(m1, gid)).lastContent).toBe('first');
    expect((await contact(m2, gid)).lastContent).toBe('third');

    // Taken off my list (what it held counts as read), the group stays off until somebody writes
    // again, and stays on if that message is then deleted.
    expect((await contact(m1, gid)).unread).toBe(2);
    await server.call('delChat', { id: gid }, { token: m1.token });
    expect(await contact(m1, gid)).toMatchObject({ lastSendTime: 0, lastContent: '', unread: 0 });
    const fourth = await send(m2, gid, 'fourth');
    expect(await contact(m1, gid)).toMatchObject({
      lastContent: 'fourth',
      lastSendTime: fourth.data.sendTime,
      unread: 1,
    });
    await server.call('delMessage', { id: fourth.data.msg_id }, { token: m2.token });
    expect(await contact(m1, gid)).toMatchObject({ lastContent: 'first', unread: 0 });
    await send(m2, gid, 'fifth');
    expect((await contact(m1, gid)).lastContent).toBe('fifth');

    // Unread is counted up to 100 (the list shows 99+).
    await server.ctx.config.set('rateLimits.sendMessage.burst', '1000');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    server.clock.advance(120_000);
    for (let i = 0; i < 101; i++) expect((await send(owner, gid, `n${i}`)).code).toBe(0);
    expect((await contact(m1, gid)).unread).toBe(100);
    await server.call('setMsgIsRead', { toContactId: gid, is_group: 1 }, { token: m1.token });
    expect((await contact(m1, gid)).unread).toBe(0);
    await server.ctx.config.set('rateLimits.sendMessage.burst', String(RATE_LIMITS.sendMessage.burst));
    await server.ctx.config.set('rateLimits.anyCall.perMinute', String(RATE_LIMITS.anyCall.perMinute));
  });

  it('shows a member of a group that hides history nothing from before they joined, even in the list', async () => {
    const owner = await fresh('tam');
    const gid = await makeGroup(server, owner, [await fresh('tia'), await fresh('tod')]);
    await server.call('groupSetting', { id: gid, setting: { history: 0 } }, { token: owner.token });
    await send(owner, gid, 'said before you came');
    const late = await fresh('tom');
    await makeFriends(server, owner, late);
    expect((await server.call('addGroupUser', { id: gid, user_ids: [late.userId] }, { token: owner.token })).code).toBe(
      0,
    );
    const seen = await server.call('getMessageList', { toContactId: gid, is_group: 1 }, { token: late.token });
    expect(seen.data.map((m: any) => m.type)).toEqual(['event']);
    // The invitation hidden for me, nothing of mine is left: the list shows no earlier message either.
    await server.call('removeMessage', { id: seen.data[0].msg_id }, { token: late.token });
    expect((await contact(late, gid)).lastContent).toBe('');
    await send(owner, gid, 'welcome');
    expect((await contact(late, gid)).lastContent).toBe('welcome');
  });

  it("syncs a group's messages and lists its files to members only, a newcomer from their join on", async () => {
    const owner = await fresh('vic');
    const stays = await fresh('val');
    const leaves = await fresh('vin');
    const outsider = await fresh('vera');
    const gid = await makeGroup(server, owner, [stays, leaves]);
    await server.call('groupSetting', { id: gid, setting: { history: 0 } }, { token: owner.token });
    const cursor = async (u: User) => {
      const all = await server.call('sync', { after_id: 0, limit: 500 }, { token: u.token });
      return (all.data.at(-1)?.msg_id as number | undefined) ?? 0;
    };
    const from = { stays: await cursor(stays), leaves: await cursor(leaves), outsider: await cursor(outsider) };
    const early = (await send(owner, gid, 'before the newcomer')).data.msg_id;
    const file = await server.upload(
      'uploadFile',
      { name: 'minutes.txt', bytes: Buffer.from('minutes of the meeting\n') },
      {
        token: owner.token,
        fields: { message: JSON.stringify({ id: randomUUID(), toContactId: gid, type: 'file', content: '' }) },
      },
    );
    expect(file.json.code).toBe(0);
    const newcomer = await fresh('vlad');
    await makeFriends(server, owner, newcomer);
    await server.call('addGroupUser', { id: gid, user_ids: [newcomer.userId] }, { token: owner.token });
    expect((await server.call('removeUser', { id: gid, user_id: leaves.userId }, { token: owner.token })).code).toBe(0);
    const late = (await send(owner, gid, 'after the newcomer')).data.msg_id;

    const synced = async (u: User, after: number) =>
      (await server.call('sync', { after_id: after, limit: 500 }, { token: u.token })).data
        .filter((m: any) => m.toContactId === gid && m.type !== 'event')
        .map((m: any) => m.msg_id);
    expect(await synced(stays, from.stays)).toEqual([early, file.json.data.msg_id, late]);
    expect(await synced(newcomer, 0)).toEqual([late]);
    expect(await synced(outsider, from.outsider)).toEqual([]);
    // Removed, a member hears nothing more of the group.
    expect(await synced(leaves, from.leaves)).not.toContain(late);

    const received = async (u: User) =>
      (await server.call('fileList', { is_mine: 0 }, { token: u.token })).data.map((f: any) => f.name);
    expect(await received(stays)).toEqual(['minutes.txt']);
    expect(await received(outsider)).toEqual([]);
    expect(await received(leaves)).toEqual([]);
  });

  it('reads a private chat up to my reply, and keeps a returned chat listed when its message goes', async () => {
    const a = await fresh('uma');
    const b = await fresh('uri');
    await makeFriends(server, a, b);
    await send(a, b.userId, 'one');
    await send(a, b.userId, 'two');
    expect((await contact(b, a.userId)).unread).toBe(2);
    const reply = await send(b, a.userId, 'back');
    expect((await contact(b, a.userId)).unread).toBe(0);
    // My reply told the other side I have read their messages.
    const theirs = await server.call('getMessageList', { toContactId: b.userId }, { token: a.token });
    expect(theirs.data.filter((m: any) => m.fromUser.id === a.userId).every((m: any) => m.is_read === 1)).toBe(true);

    await server.call('delChat', { id: a.userId }, { token: b.token });
    expect(await contact(b, a.userId)).toMatchObject({ lastSendTime: 0, unread: 0 });
    const three = await send(a, b.userId, 'three');
    expect(await contact(b, a.userId)).toMatchObject({ lastContent: 'three', unread: 1 });
    await server.call('delMessage', { id: three.data.msg_id }, { token: a.token });
    expect(await contact(b, a.userId)).toMatchObject({ lastContent: 'back', lastSendTime: reply.data.sendTime });
  });

  it('words event lines in the language the client speaks now', async () => {
    const owner = await fresh('sun');
    const m1 = await fresh('tao');
    const m2 = await fresh('uli');
    const gid = await makeGroup(server, owner, [m1, m2]);
    const fr = await server.call('getMessageList', { toContactId: gid }, { token: m1.token, lang: 'fr' });
    expect(fr.data[0].content).toMatch(/a créé le groupe$/);
    const zh = await server.call('getMessageList', { toContactId: gid }, { token: m1.token, lang: 'zh-CN' });
    expect(zh.data[0].content).toMatch(/创建了群聊$/);
  });
  it('keeps a group conversation’s own settings to its members, and refuses bad bodies', async () => {
    const owner = await fresh('vic');
    const member = await fresh('val');
    const gid = await makeGroup(server, owner, [member, await fresh('van')]);
    const hi = await send(owner, gid, 'hello');
    const outsider = await fresh('vex');
    const calls = [
      ['delChat', { id: gid, is_group: 1 }],
      ['setChatTop', { id: gid, is_group: 1, is_top: 1 }],
      ['isNotice', { id: gid, is_group: 1, is_notice: 0 }],
      ['readAtMsg', { toContactId: gid }],
      ['setMsgIsRead', { toContactId: gid, is_group: 1 }],
    ] as const;
    // Not a member: refused, and nothing is written for them.
    for (const [name, body] of calls) {
      const res = await server.call(name, body, { token: outsider.token, lang: 'en' });
      expect(res, name).toMatchObject({ code: 403, msg: 'You are not a member of this group' });
    }
    expect((await server.call('removeMessage', { id: hi.data.msg_id }, { token: outsider.token })).code).toBe(404);
    expect((await contact(outsider, gid)) ?? null).toBeNull();
    // A member (any role): each acts on their own row only.
    for (const [name, body] of calls)
      expect((await server.call(name, body, { token: member.token })).code, name).toBe(0);
    expect(await contact(member, gid)).toMatchObject({ is_top: 1, is_notice: 0, lastSendTime: 0 });
    expect(await contact(owner, gid)).toMatchObject({ is_top: 0, is_notice: 1, lastContent: 'hello' });

    await expectBadBodies(
      server,
      'delChat',
      { id: gid, is_group: 1 },
      [{ field: 'id', value: MISSING, key: 'validation.required' }],
      { token: member.token },
    );
    await expectBadBodies(
      server,
      'readAtMsg',
      { toContactId: gid },
      [{ field: 'toContactId', value: MISSING, key: 'validation.required' }],
      { token: member.token },
    );
  });

  it('answers getContactInfo for my contacts and groups only', async () => {
    const owner = await fresh('vic');
    const m1 = await fresh('wen');
    const m2 = await fresh('xia');
    const gid = await makeGroup(server, owner, [m1, m2]);
    const outsider = await fresh('yoo');
    expect((await server.call('getContactInfo', { id: gid }, { token: m1.token })).data).toMatchObject({
      id: gid,
      is_group: 1,
      member_count: 3,
    });
    expect((await server.call('getContactInfo', { id: gid }, { token: outsider.token })).code).toBe(403);
    expect((await server.call('getContactInfo', { id: owner.userId }, { token: m1.token })).data).toMatchObject({
      id: owner.userId,
      is_group: 0,
    });
    expect((await server.call('getContactInfo', { id: 'system' }, { token: m1.token })).data).toMatchObject({
      id: 'system',
      is_group: 2,
    });
    expect((await server.call('getContactInfo', { id: 'group-x' }, { token: m1.token })).code).toBe(400);
    expect((await server.call('getContactInfo', { id: 999999 }, { token: m1.token })).code).toBe(404);
  });
});
