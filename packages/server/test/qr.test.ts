import {
  ErrorCodes,
  parseQrLink,
  PICTURES,
  QR_VALID_MS,
  translate,
  type Envelope,
  type ErrorName,
} from '@sparrow/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { QrTokens } from '../src/modules/qr/tokens';
import { describeEachDb, signUp, startServer, TestSocket, type TestServer } from './harness';

/**
 * QR codes (docs/protocol.md §6, issue 19): signed, expiring tokens for people and groups; userInfoqq,
 * groupInfoqq, joinGroup and friend add by a scanned code; and the address a code names.
 */

type User = Awaited<ReturnType<typeof signUp>> & { realname: string };

/** The token inside a qrUrl. */
const tokenOf = (qrUrl: string) => parseQrLink(qrUrl)!.token;

/** Fails unless the answer is the named error, with its message in English (the harness's language). */
function expectRefused(res: Envelope<any>, name: ErrorName, params: Record<string, number> = {}) {
  expect({ code: res.code, msg: res.msg }).toEqual({
    code: ErrorCodes[name],
    msg: translate('en', `errors.${name}`, params),
  });
}

describeEachDb('QR codes', (target) => {
  let server: TestServer;
  let n = 0;
  const fresh = async (name: string): Promise<User> => {
    const realname = `${name[0]!.toUpperCase()}${name.slice(1)}${++n}`;
    return { ...(await signUp(server, `${name}${n}q`, 'secret123', realname)), realname };
  };

  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A's own code as checkuser hands it out (a fresh one each call). */
  async function myCode(u: User): Promise<{ qrUrl: string; qrExpire: number; token: string }> {
    const me = await server.call('checkuser', {}, { token: u.token });
    expect(me.code).toBe(0);
    return { qrUrl: me.data.qrUrl, qrExpire: me.data.qrExpire, token: tokenOf(me.data.qrUrl) };
  }

  /** A group of `owner` with `members` (their friends), and its code as groupInfo hands it out. */
  async function groupOf(owner: User, members: User[]): Promise<{ gid: string; token: string }> {
    for (const m of members) await server.ctx.repos.friends.befriend(owner.userId, m.userId, server.clock.now());
    const made = await server.call('groupAdd', { user_ids: members.map((m) => m.userId) }, { token: owner.token });
    expect(made.code, made.msg).toBe(0);
    const gid = made.data.id as string;
    const info = await server.call('groupInfo', { group_id: gid }, { token: owner.token });
    return { gid, token: tokenOf(info.data.qrUrl) };
  }

  it('hands out a person’s code on login and checkuser, valid seven days, that userInfoqq reads', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    await server.call('updateUserInfo', { motto: 'hello there' }, { token: ann.token });
    const login = await server.call('login', { account: ann.account, password: ann.password });
    expect(login.data.userInfo.qrUrl).toMatch(/\/scan\/u\/u\d+\.\d+\.[\w-]{22}$/);
    expect(login.data.userInfo.qrExpire).toBe(server.clock.now() + QR_VALID_MS);

    const code = await myCode(ann);
    expect(parseQrLink(code.qrUrl)).toMatchObject({ kind: 'user' });
    const seen = await server.call('userInfoqq', { token: code.token }, { token: bob.token });
    expect(seen.data).toEqual({
      user_id: ann.userId,
      displayName: ann.realname,
      avatar: PICTURES.person,
      motto: 'hello there',
      is_friend: 0,
    });
    // A new code on every checkuser: a later one lasts longer.
    server.clock.advance(60_000);
    expect((await myCode(ann)).qrExpire).toBe(code.qrExpire + 60_000);
  });

  it('refuses forged, foreign, expired and wrong-kind tokens with a clear message', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const { token } = await myCode(ann);
    const { gid, token: groupToken } = await groupOf(ann, [bob, await fresh('cat')]);
    const [prefix, expires, signature] = token.split('.') as [string, string, string];

    // Another id or a later expiry under the same signature, a signature spoilt, a token of another
    // server (another secret), and text that is no token at all.
    const otherId = `u${ann.userId + 1}.${expires}.${signature}`;
    const later = `${prefix}.${Number(expires) + 86_400_000}.${signature}`;
    const spoilt = `${prefix}.${expires}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const foreign = new QrTokens(() => 'another server', server.clock.now).sign('user', ann.userId).token;
    for (const bad of [otherId, later, spoilt, foreign, 'not a token at all', `${token}x`]) {
      expectRefused(await server.call('userInfoqq', { token: bad }, { token: bob.token }), 'QrInvalid');
      expectRefused(
        await server.call('friendAdd', { user_id: ann.userId, token: bad }, { token: bob.token }),
        'QrInvalid',
      );
    }
    const forgedGroup = `${groupToken.split('.')[0]!}.${groupToken.split('.')[1]!}.${'A'.repeat(22)}`;
    expectRefused(await server.call('groupInfoqq', { token: forgedGroup }, { token: bob.token }), 'QrInvalid');

    // A person's code is no group's, and the other way round.
    expectRefused(await server.call('userInfoqq', { token: groupToken }, { token: bob.token }), 'QrNotUser');
    expectRefused(await server.call('groupInfoqq', { token }, { token: bob.token }), 'QrNotGroup');
    expectRefused(await server.call('joinGroup', { group_id: gid, token }, { token: bob.token }), 'QrNotGroup');
    expectRefused(
      await server.call('friendAdd', { user_id: ann.userId, token: groupToken }, { token: bob.token }),
      'QrNotUser',
    );

    // Seven days on, both have expired, and say so.
    server.clock.advance(QR_VALID_MS + 1);
    expectRefused(await server.call('userInfoqq', { token }, { token: bob.token }), 'QrExpired');
    expectRefused(await server.call('groupInfoqq', { token: groupToken }, { token: bob.token }), 'QrExpired');
    expectRefused(
      await server.call('joinGroup', { group_id: gid, token: groupToken }, { token: bob.token }),
      'QrExpired',
    );
    expectRefused(await server.call('friendAdd', { user_id: ann.userId, token }, { token: bob.token }), 'QrExpired');
    const refused = await server.call('userInfoqq', { token }, { token: bob.token, lang: 'zh-Hans' });
    expect(refused.msg).toBe('二维码已过期，请让对方刷新后重新分享');
    expect(refused.data.fields).toEqual(['token']);
  });

  it('refuses the code of a disbanded group and of a disabled account as gone', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const dan = await fresh('dan');
    const { gid, token } = await groupOf(ann, [bob, await fresh('cat')]);
    expect((await server.call('removeGroup', { id: gid }, { token: ann.token })).code).toBe(0);
    expectRefused(await server.call('groupInfoqq', { token }, { token: dan.token }), 'GroupNotFound');
    expectRefused(await server.call('joinGroup', { group_id: gid, token }, { token: dan.token }), 'GroupNotFound');

    const { token: annCode } = await myCode(ann);
    await server.ctx.repos.users.update(ann.userId, { status: 0 });
    expectRefused(await server.call('userInfoqq', { token: annCode }, { token: dan.token }), 'UserNotFound');
    expectRefused(
      await server.call('friendAdd', { user_id: ann.userId, token: annCode }, { token: dan.token }),
      'UserNotFound',
    );
  });

  it('trusts a token made by another node of the same database (the secret is stored there)', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const { token } = await myCode(ann);
    const { app } = await buildApp({ ...server.ctx.env }, { now: server.clock.now, logger: false });
    try {
      expect(server.ctx.config.secret).toHaveLength(43);
      const res = await app.inject({
        method: 'POST',
        url: '/enterprise/im/userInfoqq',
        headers: { authorization: bob.token, 'content-type': 'application/json', 'accept-language': 'en' },
        payload: JSON.stringify({ token }),
      });
      expect(res.json()).toMatchObject({ code: 0, data: { user_id: ann.userId } });
    } finally {
      await app.close();
    }
  });

  it('joins by a group’s code: the members hear of it; invite off, a full group and a member are refused', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const cat = await fresh('cat');
    const dan = await fresh('dan');
    const eve = await fresh('eve');
    const { gid, token } = await groupOf(ann, [bob, cat]);

    const preview = await server.call('groupInfoqq', { token }, { token: dan.token });
    expect(preview.data).toMatchObject({ group_id: gid, member_count: 3, isJoin: 0 });
    expect((await server.call('groupInfoqq', { token }, { token: ann.token })).data.isJoin).toBe(1);
    expect((await server.call('groupInfoqq', { token }, { token: bob.token })).data.isJoin).toBe(3);
    // A member scanning their own group's code is already in it: the client opens the chat.
    expectRefused(await server.call('joinGroup', { group_id: gid, token }, { token: bob.token }), 'AlreadyMember');
    // The token names its group: it opens no other.
    const other = await groupOf(dan, [eve, cat]);
    expectRefused(await server.call('joinGroup', { group_id: other.gid, token }, { token: eve.token }), 'QrInvalid');

    await server.call('groupSetting', { id: gid, setting: { invite: 0 } }, { token: ann.token });
    expectRefused(await server.call('joinGroup', { group_id: gid, token }, { token: dan.token }), 'QrJoinClosed');
    await server.call('groupSetting', { id: gid, setting: { invite: 1 } }, { token: ann.token });

    await server.ctx.config.set('chatInfo.groupUserMax', '3');
    expectRefused(await server.call('joinGroup', { group_id: gid, token }, { token: dan.token }), 'GroupFull', {
      max: 3,
    });
    await server.ctx.config.set('chatInfo.groupUserMax', '4');

    const watching = await TestSocket.bound(server, bob.userId, bob.token);
    const joining = await TestSocket.bound(server, dan.userId, dan.token);
    try {
      const joined = await server.call('joinGroup', { group_id: gid, token }, { token: dan.token });
      expect(joined.code, joined.msg).toBe(0);
      expect(joined.data).toMatchObject({ id: gid, is_group: 1, role: 3, member_count: 4 });
      await joining.waitFor((f) => f.type === 'addGroup' && f.data.id === gid);
      await watching.waitFor(
        (f) => f.type === 'addGroupUser' && f.data.group_id === gid && f.data.user_ids.includes(dan.userId),
      );
      const line = await watching.waitFor((f) => f.type === 'group' && f.data.extends?.event === 'join');
      expect(line.data).toMatchObject({ type: 'event', toContactId: gid, extends: { user_id: dan.userId } });
      // Now full: the next one is refused even with a genuine code.
      expectRefused(await server.call('joinGroup', { group_id: gid, token }, { token: eve.token }), 'GroupFull', {
        max: 4,
      });
    } finally {
      watching.close();
      joining.close();
      await server.ctx.config.set('chatInfo.groupUserMax', '0');
    }
  });

  it('a removed member cannot re-join with a code seen while a member; a reset revokes every earlier code', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const cat = await fresh('cat');
    const dan = await fresh('dan');
    const { gid, token: seen } = await groupOf(ann, [bob, cat]);
    // Bob keeps the code he was shown, then is removed.
    const removed = await server.call('removeUser', { id: gid, user_id: bob.userId }, { token: ann.token });
    expect(removed.code, removed.msg).toBe(0);
    expectRefused(await server.call('groupInfoqq', { token: seen }, { token: bob.token }), 'QrExpired');
    expectRefused(await server.call('joinGroup', { group_id: gid, token: seen }, { token: bob.token }), 'QrExpired');
    // A member scanning the old code is already in: shown the group, and told so on joining.
    expect((await server.call('groupInfoqq', { token: seen }, { token: cat.token })).data).toMatchObject({
      group_id: gid,
      isJoin: 3,
    });
    expectRefused(
      await server.call('joinGroup', { group_id: gid, token: seen }, { token: cat.token }),
      'AlreadyMember',
    );
    // Leaving of one's own accord revokes nothing: a leaver is welcome back, as anyone with the code.
    const current = tokenOf((await server.call('groupInfo', { group_id: gid }, { token: cat.token })).data.qrUrl);
    expect((await server.call('removeUser', { id: gid, user_id: cat.userId }, { token: cat.token })).code).toBe(0);
    const back = await server.call('joinGroup', { group_id: gid, token: current }, { token: cat.token });
    expect(back.code, back.msg).toBe(0);

    // Reset: only the owner or an administrator; every earlier code stops admitting, the fresh one works.
    expectRefused(await server.call('resetGroupQr', { group_id: gid }, { token: cat.token }), 'Forbidden');
    expectRefused(await server.call('resetGroupQr', { group_id: gid }, { token: bob.token }), 'NotMember');
    const reset = await server.call('resetGroupQr', { group_id: gid }, { token: ann.token });
    expect(reset.code, reset.msg).toBe(0);
    expect(reset.data.qrExpire).toBe(server.clock.now() + QR_VALID_MS);
    expectRefused(await server.call('joinGroup', { group_id: gid, token: current }, { token: dan.token }), 'QrExpired');
    const joined = await server.call(
      'joinGroup',
      { group_id: gid, token: tokenOf(reset.data.qrUrl) },
      { token: dan.token },
    );
    expect(joined.code, joined.msg).toBe(0);
    // What groupInfo hands out now is of the new generation too.
    const shown = tokenOf((await server.call('groupInfo', { group_id: gid }, { token: dan.token })).data.qrUrl);
    expect((await server.call('groupInfoqq', { token: shown }, { token: bob.token })).data.isJoin).toBe(0);
  });

  it('a removal revokes the codes in its own transaction: no code shown or checked while it runs lets the member back', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const cat = await fresh('cat');
    const { gid, token: seen } = await groupOf(ann, [bob, cat]);
    // Each change of the group waits here, before its transaction, until let through.
    const groups = server.ctx.repos.groups;
    const locked = groups.locked.bind(groups);
    const waiting: Array<() => void> = [];
    groups.locked = (id, work) => new Promise<void>((go) => waiting.push(go)).then(() => locked(id, work));
    const held = async (n: number) => {
      while (waiting.length < n) await new Promise((r) => setTimeout(r, 5));
    };
    try {
      const removal = server.call('removeUser', { id: gid, user_id: bob.userId }, { token: ann.token });
      await held(1);
      // While the removal is on its way Bob is a member: he is shown a code, and his join with the
      // one he kept gets past the check made before the lock.
      const shown = await server.call('groupInfo', { group_id: gid }, { token: bob.token });
      expect(shown.code, shown.msg).toBe(0);
      const rejoin = server.call('joinGroup', { group_id: gid, token: seen }, { token: bob.token });
      await held(2);
      groups.locked = locked;
      waiting[0]!();
      expect((await removal).code).toBe(0);
      waiting[1]!();
      expectRefused(await rejoin, 'QrExpired');
      const later = await server.call(
        'joinGroup',
        { group_id: gid, token: tokenOf(shown.data.qrUrl) },
        { token: bob.token },
      );
      expectRefused(later, 'QrExpired');
      expect(await server.ctx.repos.groups.member(Number(gid.slice('group-'.length)), bob.userId)).toBeUndefined();
    } finally {
      groups.locked = locked;
      for (const go of waiting) go();
    }
  });

  it('adds a friend by a scanned code where search would not find them, and only the person the code names', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const cat = await fresh('cat');
    // Search matches an account, email or phone exactly: Bob knows Ann's name, which finds no one.
    const found = await server.call('searchUser', { keywords: ann.realname }, { token: bob.token });
    expect(found.data).toEqual([]);

    const { token } = await myCode(ann);
    const seen = await server.call('userInfoqq', { token }, { token: bob.token });
    expect(seen.data.is_friend).toBe(0);
    // The code is Ann's: it asks no one else.
    expectRefused(await server.call('friendAdd', { user_id: cat.userId, token }, { token: bob.token }), 'QrInvalid');

    const annSocket = await TestSocket.bound(server, ann.userId, ann.token);
    try {
      const sent = await server.call(
        'friendAdd',
        { user_id: ann.userId, remark: '扫码添加', token },
        { token: bob.token },
      );
      expect(sent).toMatchObject({ code: 0, msg: translate('en', 'ok.requestSent') });
      await annSocket.waitFor((f) => f.type === 'simple' && f.data.extends?.user_id === bob.userId);
    } finally {
      annSocket.close();
    }
    const asked = await server.call('friendIndex', {}, { token: ann.token });
    const request = asked.data.find((r: any) => r.create_user_info.user_id === bob.userId);
    expect(request).toMatchObject({ remark: '扫码添加', status: 2 });
    expect(
      (await server.call('friendUpdate', { friend_id: request.friend_id, status: 1 }, { token: ann.token })).code,
    ).toBe(0);
    expect((await server.call('userInfoqq', { token }, { token: bob.token })).data.is_friend).toBe(1);

    // An old client's form sends an unused token as ''; it means "no code".
    const form = await server.post('/enterprise/friend/add', `user_id=${cat.userId}&remark=hi&token=`, {
      authorization: bob.token,
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': 'en',
    });
    expect(form.json.code, form.json.msg).toBe(0);
  });

  it('names in a code the address the client used when PUBLIC_URL is not set', async () => {
    const ann = await fresh('ann');
    const { gid } = await groupOf(ann, [await fresh('bob'), await fresh('cat')]);
    const base = async (headers: Record<string, string>, s: TestServer = server) => {
      const me = await s.call('checkuser', {}, { token: ann.token, headers });
      const group = s === server ? await s.call('groupInfo', { group_id: gid }, { token: ann.token, headers }) : me;
      expect(parseQrLink(group.data.qrUrl)!.base).toBe(parseQrLink(me.data.qrUrl)!.base);
      return parseQrLink(me.data.qrUrl)!.base;
    };
    expect(await base({ host: '192.168.1.5:8000' })).toBe('http://192.168.1.5:8000');
    expect(await base({ host: 'IM.Example.org' })).toBe('http://im.example.org');
    // A proxy on this host (trusted by default) says what the client asked for.
    expect(
      await base({ host: '127.0.0.1:8000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'chat.example.org' }),
    ).toBe('https://chat.example.org');
    // A Host that is no host name is not copied into a link.
    expect(await base({ host: 'evil"><script>' })).toBe(server.ctx.env.publicUrl);

    const login = await server.call(
      'login',
      { account: ann.account, password: ann.password },
      { headers: { host: '10.0.0.7:8000' } },
    );
    expect(login.data.userInfo.qrUrl.startsWith('http://10.0.0.7:8000/scan/u/')).toBe(true);
  });

  it('ignores forwarded headers TRUST_PROXY does not trust, and names PUBLIC_URL when it is set', async () => {
    const untrusting = await startServer(target, { env: { trustProxy: false } });
    const fixed = await startServer(target, { env: { publicUrl: 'https://im.example.com', publicUrlSet: true } });
    try {
      const forwarded = { host: '192.168.1.5:8000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
      const a = await signUp(untrusting, 'ann0q', 'secret123', 'Ann');
      const seen = await untrusting.call('checkuser', {}, { token: a.token, headers: forwarded });
      expect(parseQrLink(seen.data.qrUrl)!.base).toBe('http://192.168.1.5:8000');

      const b = await signUp(fixed, 'ann0q', 'secret123', 'Ann');
      const named = await fixed.call('checkuser', {}, { token: b.token, headers: forwarded });
      expect(parseQrLink(named.data.qrUrl)!.base).toBe('https://im.example.com');
    } finally {
      await untrusting.close();
      await fixed.close();
    }
  });
});
