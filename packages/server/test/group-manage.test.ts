import { parseQrLink } from '@sparrow/protocol';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

describeEachDb('group management', (target) => {
  let server: TestServer;
  let owner: User, admin: User, member: User, other: User, outsider: User;
  let n = 0;

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('sysInfo.runMode', '1');
    owner = await signUp(server, 'gowner', 'secret123', 'Owner');
    admin = await signUp(server, 'gadmin', 'secret123', 'Admin');
    member = await signUp(server, 'gmember', 'secret123', 'Member');
    other = await signUp(server, 'gother', 'secret123', 'Other');
    outsider = await signUp(server, 'goutsider', 'secret123', 'Outsider');
  });
  afterAll(async () => {
    await server.close();
  });

  async function group(): Promise<string> {
    const res = await server.call(
      'groupAdd',
      { user_ids: [admin.userId, member.userId, other.userId], name: `G${++n}` },
      { token: owner.token },
    );
    const gid = res.data.id as string;
    await server.call('setManager', { id: gid, user_id: admin.userId, role: 2 }, { token: owner.token });
    return gid;
  }
  const send = (u: User, gid: string, content: string) =>
    server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content },
      { token: u.token },
    );

  it('mutes for the product’s durations, refuses with the end time, and lifts on expiry', async () => {
    const gid = await group();
    const sm = await TestSocket.bound(server, member.userId, member.token);
    const start = server.clock.now();
    expect(
      (await server.call('setNoSpeak', { id: gid, user_id: member.userId, noSpeakTimer: 1 }, { token: admin.token }))
        .code,
    ).toBe(0);
    const pushed = await sm.waitFor((f) => f.type === 'setNoSpeak');
    expect(pushed.data).toEqual({ group_id: gid, user_id: member.userId, no_speak_until: start + 600_000 });
    const refused = await send(member, gid, 'hi');
    expect(refused.code).toBe(401);
    expect(refused.data.no_speak_until).toBe(start + 600_000);
    const info = await server.call('groupInfo', { group_id: gid }, { token: member.token });
    expect(info.data.no_speak_until).toBe(start + 600_000);
    server.clock.advance(599_000);
    expect((await send(member, gid, 'hi')).code).toBe(401);
    server.clock.advance(2000);
    expect((await send(member, gid, 'free')).code).toBe(0);
    for (const [timer, seconds] of [
      [2, 3600],
      [3, 3 * 3600],
      [4, 86_400],
    ] as const) {
      await server.call('setNoSpeak', { id: gid, user_id: member.userId, noSpeakTimer: timer }, { token: owner.token });
      const list = await server.call('groupUserList', { group_id: gid }, { token: owner.token });
      expect(list.data.find((m: any) => m.user_id === member.userId).no_speak_until).toBe(
        server.clock.now() + seconds * 1000,
      );
    }
    await server.call('setNoSpeak', { id: gid, user_id: member.userId, noSpeakTimer: 0 }, { token: owner.token });
    expect((await send(member, gid, 'lifted')).code).toBe(0);
    const bad = await server.call(
      'setNoSpeak',
      { id: gid, user_id: member.userId, noSpeakTimer: 5 },
      { token: owner.token },
    );
    expect(bad.data.fields).toEqual(['noSpeakTimer']);
    const events = (await server.call('getMessageList', { toContactId: gid }, { token: member.token })).data.filter(
      (m: any) => m.type === 'event',
    );
    expect(events.map((m: any) => m.content)).toContain('Admin muted you for 10 minutes');
    sm.close();
  });

  it('sanitizes the announcement and posts it as a message that mentions everyone', async () => {
    const gid = await group();
    const sm = await TestSocket.bound(server, member.userId, member.token);
    const dirty =
      '<p class="ql-indent-2"><strong>Bold</strong> <script>alert(1)</script><img src=x onerror="alert(1)">' +
      '<a href="javascript:alert(1)">js</a> <a href="https://example.com" onclick="x()">web</a> <a href="mailto:a@b.c">m</a></p>' +
      '<p class="ql-indent-9">too deep</p><ol><li data-list="bullet">one</li></ol>';
    expect((await server.call('setNotice', { id: gid, notice: dirty }, { token: admin.token })).code).toBe(0);
    const pushed = await sm.waitFor((f) => f.type === 'setNotice');
    const notice: string = pushed.data.notice;
    expect(notice).not.toMatch(/script|onerror|onclick|javascript:|<img/);
    expect(notice).toContain('<strong>Bold</strong>');
    expect(notice).toContain('href="https://example.com"');
    expect(notice).toContain('href="mailto:a@b.c"');
    expect(notice).toContain('class="ql-indent-2"');
    expect(notice).not.toContain('ql-indent-9');
    expect(notice).toContain('<li data-list="bullet">one</li>');
    const msg = await sm.waitFor((f) => f.type === 'group' && f.data.type === 'text' && f.data.extends?.notice === 1);
    expect(msg.data.at).toEqual([0]);
    expect(msg.data.content).toContain('Bold');
    // Each reader reads its heading in their own language.
    for (const [lang, head] of [
      ['zh-CN', '群公告'],
      ['en', 'Group announcement'],
      ['fr', 'Annonce du groupe'],
    ] as const) {
      const list = await server.call('getMessageList', { toContactId: gid }, { token: member.token, lang });
      const posted = list.data.find((m: any) => m.msg_id === msg.data.msg_id);
      expect(posted.content).toBe(`${head}\n${msg.data.content.split('\n').slice(1).join('\n')}`);
    }
    const row = (await server.call('getContacts', {}, { token: member.token })).data.find((c: any) => c.id === gid);
    expect(row.is_at).toBeGreaterThan(0);
    expect(row.notice).toBe(notice);
    expect((await server.call('groupInfo', { group_id: gid }, { token: member.token })).data.notice).toBe(notice);
    const long = await server.call(
      'setNotice',
      { id: gid, notice: `<p>${'x'.repeat(5001)}</p>` },
      { token: owner.token },
    );
    expect(long.code).toBe(400);
    sm.close();
  });

  describe('pushes every change to the members, and a removal to the removed, who then sees nothing', () => {
    let gid: string;
    let so: TestSocket;
    let sm: TestSocket;
    let sx: TestSocket;
    beforeAll(async () => {
      gid = await group();
      so = await TestSocket.bound(server, owner.userId, owner.token);
      sm = await TestSocket.bound(server, member.userId, member.token);
      sx = await TestSocket.bound(server, other.userId, other.token);
    });
    afterAll(() => {
      so.close();
      sm.close();
      sx.close();
    });

    it('pushes a new name to the members', async () => {
      await server.call('editGroupName', { id: gid, displayName: 'New name' }, { token: admin.token });
      expect((await sm.waitFor((f) => f.type === 'editGroupName')).data).toEqual({
        id: gid,
        displayName: 'New name',
        editUserName: 'Admin',
      });
    });

    it("pushes who may speak, enforces it, and tells each change once in each reader's words", async () => {
      await server.call('groupSetting', { id: gid, setting: { nospeak: 1 } }, { token: owner.token });
      expect((await sm.waitFor((f) => f.type === 'groupSetting')).data.setting).toMatchObject({
        nospeak: 1,
        invite: 1,
        history: 1,
      });
      expect((await send(member, gid, 'x')).code).toBe(401);
      expect((await send(admin, gid, 'x')).code).toBe(0);
      await server.call('groupSetting', { id: gid, setting: { nospeak: 2 } }, { token: owner.token });
      expect((await send(admin, gid, 'x')).msg).toBe('Only the owner can speak in this group');
      await server.call('groupSetting', { id: gid, setting: { nospeak: 0 } }, { token: owner.token });
      // Each change of who may speak is told in the chat, once, in each reader's words.
      const told = (await server.call('getMessageList', { toContactId: gid }, { token: member.token })).data
        .filter((m: any) => m.type === 'event' && m.extends.event === 'nospeak')
        .map((m: any) => m.content);
      expect(told).toEqual([
        'Owner let only the owner and administrators speak',
        'Owner let only the owner speak',
        'Owner let everyone speak',
      ]);
      await server.call('groupSetting', { id: gid, setting: { invite: 0, nospeak: 0 } }, { token: owner.token });
      const zh = (
        await server.call('getMessageList', { toContactId: gid }, { token: member.token, lang: 'zh-CN' })
      ).data
        .filter((m: any) => m.type === 'event' && m.extends.event === 'nospeak')
        .map((m: any) => m.content);
      expect(zh.at(-1)).toBe('Owner关闭了全员禁言');
      expect(zh).toHaveLength(3);
    });

    it("sends under a member's group card", async () => {
      await server.call('updateCard', { group_id: gid, nickname: '小明' }, { token: member.token });
      const carded = await send(member, gid, 'with card');
      expect(carded.data.fromUser.displayName).toBe('小明');
    });

    it('tells a removal to the removed, who then sees nothing, and hears again once added back', async () => {
      await server.call('removeUser', { id: gid, user_id: other.userId }, { token: admin.token });
      expect((await sx.waitFor((f) => f.type === 'removeUser')).data).toMatchObject({
        group_id: gid,
        user_id: other.userId,
      });
      await so.waitFor((f) => f.type === 'removeUser');
      const before = sx.frames.length;
      await send(owner, gid, 'after removal');
      await sm.waitFor((f) => f.type === 'group' && f.data.content === 'after removal');
      expect(sx.frames.length).toBe(before);
      expect((await server.call('getMessageList', { toContactId: gid }, { token: other.token })).code).toBe(403);
      expect((await server.call('getContacts', {}, { token: other.token })).data.some((c: any) => c.id === gid)).toBe(
        false,
      );
      // Added back, they hear the very next message (the member list a send fans out to follows joins).
      expect(
        (await server.call('addGroupUser', { id: gid, user_ids: [other.userId] }, { token: owner.token })).code,
      ).toBe(0);
      await send(owner, gid, 'welcome back');
      await sx.waitFor((f) => f.type === 'group' && f.data.content === 'welcome back');
    });

    it('hands the group to a new owner, the old one becoming an administrator', async () => {
      await server.call('changeOwner', { id: gid, user_id: member.userId }, { token: owner.token });
      expect((await sm.waitFor((f) => f.type === 'changeOwner')).data).toEqual({
        group_id: gid,
        user_id: member.userId,
      });
      const roles = (await server.call('groupUserList', { group_id: gid }, { token: owner.token })).data.map(
        (m: any) => [m.user_id, m.role],
      );
      expect(roles[0]).toEqual([member.userId, 1]);
      expect(roles).toContainEqual([owner.userId, 2]);
      expect((await server.call('removeGroup', { id: gid }, { token: owner.token })).code).toBe(403);
    });

    it('clears the history for everyone', async () => {
      await server.call('clearMessage', { id: gid }, { token: member.token });
      await so.waitFor((f) => f.type === 'clearMessage');
      expect((await server.call('getMessageList', { toContactId: gid }, { token: owner.token })).data).toEqual([]);
    });

    it('disbands it: the members keep the chat read-only and searchable, strangers see nothing', async () => {
      expect((await send(owner, gid, 'before the end')).code).toBe(0);
      await server.call('removeGroup', { id: gid }, { token: member.token });
      // As in WeChat the members keep the chat, read-only, with a line saying so.
      const line = await so.waitFor((f) => f.type === 'group' && f.data.extends.event === 'disband');
      expect(line.data.content).toMatch(/disbanded the group$|解散了该群聊$/);
      expect((await so.waitFor((f) => f.type === 'disbandGroup')).data).toEqual({ group_id: gid });
      const listed = (await server.call('getContacts', {}, { token: owner.token })).data.find((c: any) => c.id === gid);
      expect(listed).toMatchObject({ disbanded: 1, lastContent: line.data.content });
      const history = await server.call('getMessageList', { toContactId: gid }, { token: owner.token });
      expect(history.data.map((m: any) => m.content)).toContain('before the end');
      // Nothing in it changes any more: a send, a withdrawal, a deletion for all, a group change.
      const said = history.data.find((m: any) => m.content === 'before the end');
      const refusals = [
        await send(owner, gid, 'after the end'),
        await server.call('undoMessage', { id: said.msg_id }, { token: owner.token }),
        await server.call('delMessage', { id: said.msg_id }, { token: owner.token }),
        await server.call('groupInfo', { group_id: gid }, { token: owner.token }),
        await server.call('editGroupName', { id: gid, displayName: 'again' }, { token: member.token }),
      ];
      expect(refusals.map((r) => r.code)).toEqual([401, 401, 401, 401, 401]);
      expect(new Set(refusals.map((r) => r.msg)).size).toBe(1);
      // Its history is still found by search, as its chat is still read.
      const found = await server.call('searchMessage', { keywords: 'before the end' }, { token: owner.token });
      expect(found.data.map((h: any) => h.content)).toContain('before the end');
      const notFound = await server.call('searchMessage', { keywords: 'before the end' }, { token: outsider.token });
      expect(notFound.data).toEqual([]);
      // Someone who was never in it is answered as for any group they are not in.
      const stranger = await server.call('groupInfo', { group_id: gid }, { token: outsider.token });
      expect(stranger.code).toBe(403);
      expect((await server.call('getMessageList', { toContactId: gid }, { token: outsider.token })).code).toBe(403);
      // Each member deletes the chat when they like.
      expect((await server.call('delChat', { id: gid }, { token: owner.token })).code).toBe(0);
      expect((await server.call('getContacts', {}, { token: owner.token })).data.some((c: any) => c.id === gid)).toBe(
        false,
      );
      expect(
        (await server.call('getContacts', {}, { token: member.token })).data.find((c: any) => c.id === gid),
      ).toMatchObject({ disbanded: 1 });
    });
  });

  it('joins by QR code with history hidden or shown, and refuses a bad or expired token', async () => {
    const gid = await group();
    await send(owner, gid, 'before join');
    const info = await server.call('groupInfo', { group_id: gid }, { token: owner.token });
    const token = parseQrLink(info.data.qrUrl)!.token;
    expect(info.data.qrExpire).toBe(server.clock.now() + 7 * 86_400_000);
    const preview = await server.call('groupInfoqq', { token }, { token: outsider.token });
    expect(preview.data).toMatchObject({ group_id: gid, member_count: 4, isJoin: 0 });
    expect(
      (
        await server.call(
          'groupInfoqq',
          { token: token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')) },
          { token: outsider.token },
        )
      ).code,
    ).toBe(400);

    await server.call('groupSetting', { id: gid, setting: { history: 0 } }, { token: owner.token });
    const joined = await server.call('joinGroup', { group_id: gid, token }, { token: outsider.token });
    expect(joined.code).toBe(0);
    const seen = (await server.call('getMessageList', { toContactId: gid }, { token: outsider.token })).data;
    expect(seen.map((m: any) => m.content)).toEqual(['You joined the group by scanning its QR code']);
    await server.call('groupSetting', { id: gid, setting: { history: 1 } }, { token: owner.token });
    const all = (await server.call('getMessageList', { toContactId: gid }, { token: outsider.token })).data;
    expect(all.map((m: any) => m.content)).toContain('before join');
    expect((await server.call('joinGroup', { group_id: gid, token }, { token: outsider.token })).code).toBe(400);

    server.clock.advance(7 * 86_400_000 + 1000);
    const late = await signUp(server, `glate${++n}`, 'secret123', 'Late');
    expect((await server.call('joinGroup', { group_id: gid, token }, { token: late.token })).code).toBe(400);
    const fresh = await server.call('groupInfo', { group_id: gid }, { token: owner.token });
    const token2 = parseQrLink(fresh.data.qrUrl)!.token;
    await server.call('groupSetting', { id: gid, setting: { invite: 0 } }, { token: owner.token });
    expect((await server.call('joinGroup', { group_id: gid, token: token2 }, { token: late.token })).code).toBe(403);
    await server.ctx.config.set('chatInfo.groupUserMax', '5');
    await server.call('groupSetting', { id: gid, setting: { invite: 1 } }, { token: owner.token });
    expect((await server.call('joinGroup', { group_id: gid, token: token2 }, { token: late.token })).code).toBe(400);
    await server.ctx.config.set('chatInfo.groupUserMax', '0');
    expect((await server.call('joinGroup', { group_id: gid, token: token2 }, { token: late.token })).code).toBe(0);
  });

  it('draws a group avatar from its members, redraws it on changes, and keeps an uploaded one', async () => {
    const gid = await group();
    const first = (await server.call('groupInfo', { group_id: gid }, { token: owner.token })).data.avatar as string;
    expect(first).toMatch(/^\/storage\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    const img = await server.get(first);
    expect(img.status).toBe(200);
    expect((await sharp(img.body).metadata()).width).toBe(256);
    await server.call('removeUser', { id: gid, user_id: other.userId }, { token: owner.token });
    const second = (await server.call('groupInfo', { group_id: gid }, { token: owner.token })).data.avatar;
    expect(second).not.toBe(first);
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const watching = await TestSocket.bound(server, owner.userId, owner.token);
    const up = await server.upload(
      'uploadGroupAvatar',
      { name: 'g.png', bytes: png, type: 'image/png' },
      { token: admin.token, fields: { group_id: gid } },
    );
    expect(up.json.code).toBe(0);
    // A new picture has a push of its own; Raingad 6.x clients hear of it as setManager {group_id, avatar},
    // which names no member and changes no role.
    expect((await watching.waitFor((f) => f.type === 'groupAvatar')).data).toEqual({
      group_id: gid,
      avatar: up.json.data,
    });
    expect((await watching.waitFor((f) => f.type === 'setManager')).data).toEqual({
      group_id: gid,
      avatar: up.json.data,
    });
    watching.close();
    await server.call('addGroupUser', { id: gid, user_ids: [other.userId] }, { token: owner.token });
    expect((await server.call('groupInfo', { group_id: gid }, { token: owner.token })).data.avatar).toBe(up.json.data);
    const noGroup = await server.upload(
      'uploadGroupAvatar',
      { name: 'g.png', bytes: png, type: 'image/png' },
      { token: admin.token },
    );
    expect(noGroup.json.code).toBe(400);
  });
  it('binds a live socket to a group only for its members (bindGroup, kept for old clients)', async () => {
    const gid = await group();
    const sock = await TestSocket.bound(server, member.userId, member.token);
    const out = await TestSocket.bound(server, outsider.userId, outsider.token);
    expect(
      (await server.call('bindGroup', { client_id: sock.clientId, group_id: gid }, { token: member.token })).code,
    ).toBe(0);
    expect(
      (await server.call('bindGroup', { client_id: out.clientId, group_id: gid }, { token: outsider.token })).code,
    ).toBe(403);
    expect(
      (await server.call('bindGroup', { client_id: 'no-such-client', group_id: gid }, { token: member.token })).code,
    ).toBe(400);
    expect(
      (await server.call('bindGroup', { client_id: sock.clientId, group_id: 'group-x' }, { token: member.token })).code,
    ).toBe(400);
    sock.close();
    out.close();
  });
});
