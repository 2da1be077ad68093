import { ErrorCodes, STATUS_TEXT_MAX, type Envelope } from '@sparrow/protocol';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../src/db';
import { Cluster, describeWithRedis, friendsOf } from './cluster';
import {
  callAs,
  dbTargets,
  describeEachDb,
  makeFriends,
  makeGroup,
  serverForSuite,
  signUp,
  TestSocket,
  type TestServer,
  type TestUser,
} from './harness';

const MINUTE = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachDb('last seen and status', (target) => {
  let server!: TestServer;
  let n = 0;
  const calls = serverForSuite(target, (s) => (server = s), { 'sysInfo.runMode': '2', 'chatInfo.online': '1' });
  const fresh = (name: string) => signUp(server, `${name}${++n}ps`);
  const profile = async (of: TestUser, as: TestUser) => calls.ok('getUserInfo', { user_id: of.userId }, as);
  const lastSeenRow = async (u: TestUser) =>
    (await server.ctx.db.selectFrom('users').select('last_seen').where('id', '=', u.userId).executeTakeFirstOrThrow())
      .last_seen;
  const clearLastSeen = (u: TestUser) =>
    server.ctx.db.updateTable('users').set({ last_seen: null }).where('id', '=', u.userId).execute();
  /** Binds a socket for `u` and closes it: their last socket going writes their last-seen time. */
  const comeAndGo = async (u: TestUser) => {
    const socket = await TestSocket.bound(server, u.userId, u.token);
    // Coming online wrote it too: cleared, so that the write of going is the one waited for.
    await clearLastSeen(u);
    socket.close();
    for (let i = 0; i < 100 && (await lastSeenRow(u)) === null; i++) await sleep(20);
    expect(await lastSeenRow(u)).not.toBeNull();
  };
  const contactRow = async (of: TestUser, as: TestUser) => {
    const rows = (await calls.ok('getContacts', {}, as)) as Array<{
      id: number;
      last_seen?: number;
      status?: unknown;
      is_online: number;
    }>;
    return rows.find((r) => r.id === of.userId);
  };

  /**
   * Alice and those who ask about her: a friend, a stranger, a member of a group of hers who is not
   * her friend, an ex-friend, and a friend she blocked.
   */
  const scene = async () => {
    const alice = await fresh('alice');
    const [friend, stranger, member, exFriend, blocked, owner] = [
      await fresh('friend'),
      await fresh('stranger'),
      await fresh('member'),
      await fresh('ex'),
      await fresh('blocked'),
      await fresh('owner'),
    ];
    await makeFriends(server, alice, friend);
    await makeFriends(server, alice, exFriend);
    await calls.ok('friendDel', { id: exFriend.userId }, alice);
    await makeFriends(server, alice, blocked);
    await calls.ok('blockAdd', { user_id: blocked.userId }, alice);
    await makeGroup(server, owner, [alice, member]);
    return { alice, friend, stranger, member, exFriend, blocked };
  };

  it('shows the last-seen time to whom last_seen_to allows, rounded down to the minute, and online while online', async () => {
    const { alice, friend, stranger, member, exFriend, blocked } = await scene();
    expect((await profile(alice, friend)).last_seen).toBeUndefined();
    await comeAndGo(alice);
    const stored = (await lastSeenRow(alice))!;
    expect(stored).toBe(server.clock.now());
    const shown = Math.floor(stored / MINUTE) * MINUTE;
    const seenBy = async () => {
      const out: Record<string, number | undefined> = {};
      for (const [who, u] of Object.entries({ friend, stranger, member, exFriend, blocked }))
        out[who] = (await profile(alice, u)).last_seen;
      return out;
    };

    // 0: everyone who may see her profile, but not across a block.
    expect((await calls.ok('updateUserInfo', { last_seen_to: 0 }, alice)).last_seen_to).toBe(0);
    expect(await seenBy()).toEqual({
      friend: shown,
      stranger: shown,
      member: shown,
      exFriend: shown,
      blocked: undefined,
    });
    expect((await profile(alice, stranger)).is_online).toBe(0);
    expect((await contactRow(alice, friend))?.last_seen).toBe(shown);

    // 1: friends only.
    expect((await calls.ok('updateUserInfo', { last_seen_to: 1 }, alice)).last_seen_to).toBe(1);
    expect(await seenBy()).toEqual({
      friend: shown,
      stranger: undefined,
      member: undefined,
      exFriend: undefined,
      blocked: undefined,
    });
    expect((await profile(alice, stranger)).is_online).toBeUndefined();
    expect((await contactRow(alice, friend))?.last_seen).toBe(shown);

    // 2: nobody; she still sees her friend's (hiding one's own hides no one else's).
    await calls.ok('updateUserInfo', { last_seen_to: 2 }, alice);
    expect(Object.values(await seenBy()).every((v) => v === undefined)).toBe(true);
    expect((await contactRow(alice, friend))?.last_seen).toBeUndefined();
    await comeAndGo(friend);
    expect((await profile(friend, alice)).last_seen).toBe(Math.floor((await lastSeenRow(friend))! / MINUTE) * MINUTE);

    // Online: shown as online, with no last-seen time; a server that shows no presence shows neither.
    await calls.ok('updateUserInfo', { last_seen_to: 0 }, alice);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    expect(await profile(alice, friend)).toMatchObject({ is_online: 1 });
    expect((await profile(alice, friend)).last_seen).toBeUndefined();
    await server.ctx.config.set('chatInfo.online', '0');
    const hidden = await profile(alice, friend);
    expect([hidden.is_online, hidden.last_seen]).toEqual([undefined, undefined]);
    socket.close();
  });

  it('keeps the last-seen time from a group member whose profile the group hides', async () => {
    const alice = await fresh('alice');
    const member = await fresh('member');
    const owner = await fresh('owner');
    const gid = await makeGroup(server, owner, [alice, member]);
    await calls.ok('groupSetting', { id: gid, setting: { profile: 0 } }, owner);
    await comeAndGo(alice);
    const seen = await profile(alice, member);
    expect(seen.profile).toBe(0);
    expect([seen.last_seen, seen.is_online]).toEqual([undefined, undefined]);
    // Nor her status, nor whether she is online, on her contact row (getContactInfo, search's rows).
    await calls.ok('setStatus', { text: '开会中', emoji: '📅' }, alice);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    const row = await calls.ok('getContactInfo', { id: alice.userId }, member);
    expect([row.status, row.last_seen, row.is_online]).toEqual([undefined, undefined, 0]);
    expect((await profile(alice, member)).status).toBeUndefined();
    // The group opening profiles again shows them.
    await calls.ok('groupSetting', { id: gid, setting: { profile: 1 } }, owner);
    const open = await calls.ok('getContactInfo', { id: alice.userId }, member);
    expect([open.status?.text, open.is_online]).toEqual(['开会中', 1]);
    socket.close();
  });

  it('shows her online only to whom her last-seen time shows: rows, contact info and isOnline pushes', async () => {
    const { alice, friend, member, blocked } = await scene();
    const watch = {
      friend: await TestSocket.bound(server, friend.userId, friend.token),
      blocked: await TestSocket.bound(server, blocked.userId, blocked.token),
      member: await TestSocket.bound(server, member.userId, member.token),
    };
    const onlineFrame = (to: 0 | 1) => (f: any) =>
      f.type === 'isOnline' && f.data.id === alice.userId && f.data.is_online === to;
    const aboutHer = (f: any) =>
      (f.type === 'isOnline' && f.data.id === alice.userId) ||
      (f.type === 'userStatus' && f.data.user_id === alice.userId);
    const info = async (as: TestUser) => (await calls.ok('getContactInfo', { id: alice.userId }, as)).is_online;
    const mine = await TestSocket.bound(server, alice.userId, alice.token);
    await watch.friend.waitFor(onlineFrame(1));
    expect([(await contactRow(alice, friend))?.is_online, await info(friend), await info(member)]).toEqual([1, 1, 1]);
    expect([(await contactRow(alice, blocked))?.is_online, await info(blocked)]).toEqual([0, 0]);

    // Friends only: a member of her group who is not her friend sees her offline.
    await calls.ok('updateUserInfo', { last_seen_to: 1 }, alice);
    expect([await info(friend), await info(member)]).toEqual([1, 0]);

    // Nobody: her friend is told at once (last_seen null, isOnline 0), and sees her offline everywhere.
    const from = watch.friend.frames.length;
    await calls.ok('updateUserInfo', { last_seen_to: 2 }, alice);
    await watch.friend.waitFor(onlineFrame(0), 3000, from);
    expect((await watch.friend.waitFor(aboutHer, 3000, from)).data).toMatchObject({ last_seen: null });
    expect([(await contactRow(alice, friend))?.is_online, await info(friend)]).toEqual([0, 0]);
    expect((await profile(alice, friend)).is_online).toBeUndefined();

    // Coming and going is told to no one it is hidden from; to her friend again once shown.
    const quiet = watch.friend.frames.length;
    mine.close();
    await comeAndGo(alice);
    await watch.friend.roundTrip();
    expect(watch.friend.frames.slice(quiet).some(aboutHer)).toBe(false);
    await calls.ok('updateUserInfo', { last_seen_to: 0 }, alice);
    const back = await TestSocket.bound(server, alice.userId, alice.token);
    await watch.friend.waitFor(onlineFrame(1), 3000, quiet);
    back.close();
    await watch.friend.waitFor(onlineFrame(0), 3000, quiet);
    // Someone she blocked heard none of it.
    await watch.blocked.roundTrip();
    expect(watch.blocked.frames.some(aboutHer)).toBe(false);
    for (const w of Object.values(watch)) w.close();
  });

  it('in runMode 1 tells everyone her status, her going and her coming, but no one across a block', async () => {
    await server.ctx.config.set('sysInfo.runMode', '1');
    try {
      const [alice, colleague, blocker, blockedOne] = [
        await fresh('alice'),
        await fresh('colleague'),
        await fresh('blocker'),
        await fresh('blockedone'),
      ];
      await calls.ok('blockAdd', { user_id: alice.userId }, blocker);
      await calls.ok('blockAdd', { user_id: blockedOne.userId }, alice);
      const watch = {
        colleague: await TestSocket.bound(server, colleague.userId, colleague.token),
        blocker: await TestSocket.bound(server, blocker.userId, blocker.token),
        blockedOne: await TestSocket.bound(server, blockedOne.userId, blockedOne.token),
      };
      const aboutHer = (f: any) =>
        (f.type === 'isOnline' && f.data.id === alice.userId) ||
        (f.type === 'userStatus' && f.data.user_id === alice.userId);
      const mine = await TestSocket.bound(server, alice.userId, alice.token);
      await watch.colleague.waitFor((f) => aboutHer(f) && f.type === 'isOnline' && f.data.is_online === 1);
      await calls.ok('setStatus', { text: '开会中' }, alice);
      await watch.colleague.waitFor((f) => aboutHer(f) && f.type === 'userStatus' && f.data.status?.text === '开会中');
      await clearLastSeen(alice);
      mine.close();
      const told = await watch.colleague.waitFor((f) => aboutHer(f) && typeof f.data.last_seen === 'number');
      expect(told.data.last_seen).toBe(Math.floor(server.clock.now() / MINUTE) * MINUTE);
      await watch.colleague.waitFor((f) => aboutHer(f) && f.type === 'isOnline' && f.data.is_online === 0);
      for (const other of [watch.blocker, watch.blockedOne]) {
        await other.roundTrip();
        expect(other.frames.filter(aboutHer)).toEqual([]);
      }
      // Their rows of her: no status, no time, not online; the colleague's has them.
      const rowOf = async (as: TestUser) =>
        ((await calls.ok('getContacts', {}, as)) as any[]).find((r) => r.id === alice.userId);
      expect((await rowOf(colleague)).status?.text).toBe('开会中');
      expect((await rowOf(colleague)).last_seen).toBe(told.data.last_seen);
      for (const as of [blocker, blockedOne]) {
        const row = await rowOf(as);
        expect([row.status, row.last_seen, row.is_online]).toEqual([undefined, undefined, 0]);
      }
      for (const w of Object.values(watch)) w.close();
    } finally {
      await server.ctx.config.set('sysInfo.runMode', '2');
    }
  });

  it('hides each one’s status and last-seen time from the other the moment one blocks the other', async () => {
    const alice = await fresh('alice');
    const bob = await fresh('bob');
    await makeFriends(server, alice, bob);
    await calls.ok('setStatus', { text: '开会中' }, alice);
    await calls.ok('setStatus', { text: '午饭' }, bob);
    const [sa, sb] = [
      await TestSocket.bound(server, alice.userId, alice.token),
      await TestSocket.bound(server, bob.userId, bob.token),
    ];
    await calls.ok('blockAdd', { user_id: alice.userId }, bob);
    const gone = (about: TestUser) => (f: any) => f.type === 'userStatus' && f.data.user_id === about.userId;
    expect((await sa.waitFor(gone(bob))).data).toEqual({ user_id: bob.userId, status: null, last_seen: null });
    expect((await sb.waitFor(gone(alice))).data).toEqual({ user_id: alice.userId, status: null, last_seen: null });
    await sb.waitFor((f) => f.type === 'isOnline' && f.data.id === alice.userId && f.data.is_online === 0);
    expect((await profile(bob, alice)).status).toBeUndefined();
    expect((await contactRow(alice, bob))?.status).toBeUndefined();
    sa.close();
    sb.close();
  });

  it('writes the last-seen time when the first socket comes too', async () => {
    const alice = await fresh('alice');
    await clearLastSeen(alice);
    const socket = await TestSocket.bound(server, alice.userId, alice.token);
    expect(await lastSeenRow(alice)).toBe(server.clock.now());
    // A second socket writes nothing.
    await clearLastSeen(alice);
    const second = await TestSocket.bound(server, alice.userId, alice.token);
    expect(await lastSeenRow(alice)).toBeNull();
    second.close();
    socket.close();
  });

  it('sets a status, shows it on the profile and the contact row, and never after it ended', async () => {
    const { alice, friend, stranger } = await scene();
    const until = server.clock.now() + 60 * MINUTE;
    const mine = await calls.ok('setStatus', { text: '开会中', emoji: '📅', until }, alice);
    expect(mine.status).toEqual({ text: '开会中', emoji: '📅', until });
    expect((await profile(alice, friend)).status).toEqual({ text: '开会中', emoji: '📅', until });
    expect((await profile(alice, stranger)).status).toEqual({ text: '开会中', emoji: '📅', until });
    expect((await contactRow(alice, friend))?.status).toEqual({ text: '开会中', emoji: '📅', until });

    server.clock.advance(60 * MINUTE);
    expect((await profile(alice, friend)).status).toBeUndefined();
    expect((await contactRow(alice, friend))?.status).toBeUndefined();
    const info = await calls.ok('getUserInfo', { user_id: alice.userId }, alice);
    expect(info.status).toBeUndefined();

    // No end: it lasts; an emoji alone is a status; empty clears it.
    await calls.ok('setStatus', { text: '', emoji: '🎧' }, alice);
    server.clock.advance(3 * 24 * 60 * MINUTE);
    expect((await profile(alice, friend)).status).toEqual({ text: '', emoji: '🎧', until: null });
    expect((await calls.ok('setStatus', { text: '', emoji: '' }, alice)).status).toBeNull();
    expect((await profile(alice, friend)).status).toBeUndefined();
  });

  it('refuses a status too long, two emoji or an end in the past, saying so in the caller’s language', async () => {
    const alice = await fresh('alice');
    const as = (lang: string) => callAs({ ...alice, lang });
    const tooLong = await server.call('setStatus', { text: '忙'.repeat(STATUS_TEXT_MAX + 1) }, as('en'));
    expect(tooLong.code).toBe(ErrorCodes.Validation);
    expect(tooLong.msg).toBe(`Text must be at most ${STATUS_TEXT_MAX} characters`);
    // Characters as a person counts them: 24 emoji of several code points each are fine.
    expect((await server.call('setStatus', { text: '👨‍👩‍👧'.repeat(STATUS_TEXT_MAX) }, as('en'))).code).toBe(0);

    const twoEmoji = await server.call('setStatus', { text: 'x', emoji: '📅📅' }, as('zh-Hans'));
    expect(twoEmoji.code).toBe(ErrorCodes.Validation);
    expect(twoEmoji.msg).toBe('表情格式不正确');

    const past = await server.call('setStatus', { text: 'x', until: server.clock.now() - 1 }, as('zh-Hans'));
    expect(past.code).toBe(ErrorCodes.StatusUntilPast);
    expect(past.msg).toBe('状态的结束时间已经过了，请选一个之后的时间');
    const pastEn = await server.call('setStatus', { text: 'x', until: server.clock.now() }, as('en'));
    expect(pastEn.msg).toBe('The status would end in the past: choose a later time');
    // 0, like none, is until changed.
    expect((await calls.ok('setStatus', { text: 'x', until: 0 }, alice)).status).toEqual({
      text: 'x',
      emoji: '',
      until: null,
    });
    expect((await server.call('setStatus', { text: 'x', until: -1 }, as('en'))).code).toBe(ErrorCodes.Validation);
    // A keycap is an emoji; © is text.
    expect((await calls.ok('setStatus', { text: 'x', emoji: '1️⃣' }, alice)).status?.emoji).toBe('1️⃣');
    expect((await server.call('setStatus', { text: 'x', emoji: '©' }, as('en'))).code).toBe(ErrorCodes.Validation);

    const who = await server.call('updateUserInfo', { last_seen_to: 3 }, as('fr'));
    expect(who.code).toBe(ErrorCodes.Validation);
    expect(who.msg).toContain('Qui voit votre dernière connexion');
  });

  it('pushes a status change to friends and my other devices only; a last-seen time to those allowed', async () => {
    const { alice, friend, stranger, blocked } = await scene();
    const sockets = {
      friend: await TestSocket.bound(server, friend.userId, friend.token),
      stranger: await TestSocket.bound(server, stranger.userId, stranger.token),
      blocked: await TestSocket.bound(server, blocked.userId, blocked.token),
      mine: await TestSocket.bound(server, alice.userId, alice.token),
    };
    const status = { text: '开会中', emoji: '📅', until: null };
    await calls.ok('setStatus', { text: '开会中', emoji: '📅' }, alice);
    const isStatus = (f: any) => f.type === 'userStatus' && f.data.user_id === alice.userId;
    const version = expect.any(Number);
    expect((await sockets.friend.waitFor(isStatus)).data).toEqual({ user_id: alice.userId, status, version });
    expect((await sockets.mine.waitFor(isStatus)).data).toEqual({ user_id: alice.userId, status, version });
    // Someone she blocked sees no status of hers, as on her profile.
    await sockets.stranger.roundTrip();
    await sockets.blocked.roundTrip();
    expect(sockets.stranger.frames.some(isStatus)).toBe(false);
    expect(sockets.blocked.frames.some(isStatus)).toBe(false);
    expect((await profile(alice, blocked)).status).toBeUndefined();

    // Going offline: her friends who may see it are told when, never someone she blocked.
    const from = sockets.friend.frames.length;
    const fromBlocked = sockets.blocked.frames.length;
    sockets.mine.close();
    const told = await sockets.friend.waitFor((f) => isStatus(f) && f.data.last_seen !== undefined, 3000, from);
    expect(told.data).toEqual({
      user_id: alice.userId,
      status,
      version,
      last_seen: Math.floor(server.clock.now() / MINUTE) * MINUTE,
    });
    await sockets.blocked.roundTrip();
    expect(sockets.blocked.frames.slice(fromBlocked).some(isStatus)).toBe(false);

    // Not shown to anyone: her friend is told it is no longer theirs to see; going offline tells no one.
    const beforeHiding = sockets.friend.frames.length;
    await calls.ok('updateUserInfo', { last_seen_to: 2 }, alice);
    const hiddenNow = await sockets.friend.waitFor((f) => isStatus(f) && f.data.last_seen === null, 3000, beforeHiding);
    expect(hiddenNow.data).toEqual({ user_id: alice.userId, status, last_seen: null });
    const again = sockets.friend.frames.length;
    await comeAndGo(alice);
    await sockets.friend.roundTrip();
    expect(sockets.friend.frames.slice(again).some(isStatus)).toBe(false);
    for (const s of Object.values(sockets)) s.close();
  });

  it('leaves one of two statuses set at once whole, never a mix of them', async () => {
    const alice = await fresh('alice');
    const choices = [
      { text: '开会中', emoji: '📅' },
      { text: '午饭', emoji: '🍜' },
      { text: '通勤', emoji: '🚗' },
      { text: '休假', emoji: '🏖️' },
    ];
    for (let round = 0; round < 3; round++) {
      const answers: Array<Envelope<any>> = await Promise.all(
        [...choices, ...choices].map((c) => server.call('setStatus', c, callAs(alice))),
      );
      expect(answers.every((a) => a.code === 0)).toBe(true);
      const row = await server.ctx.db
        .selectFrom('users')
        .select(['status_text', 'status_emoji'])
        .where('id', '=', alice.userId)
        .executeTakeFirstOrThrow();
      expect(choices).toContainEqual({ text: row.status_text, emoji: row.status_emoji });
    }
  });

  it('pushes each status with its version: the newest one a friend holds is the one stored', async () => {
    const alice = await fresh('alice');
    const friend = await fresh('friend');
    await makeFriends(server, alice, friend);
    const watch = await TestSocket.bound(server, friend.userId, friend.token);
    const choices = ['开会中', '午饭', '通勤', '休假', '忙', '在路上'].map((text) => ({ text }));
    const answers: Array<Envelope<any>> = await Promise.all(
      choices.map((c) => server.call('setStatus', c, callAs(alice))),
    );
    expect(answers.map((a) => a.code)).toEqual(choices.map(() => 0));
    const row = await server.ctx.db
      .selectFrom('users')
      .select(['status_text', 'status_at'])
      .where('id', '=', alice.userId)
      .executeTakeFirstOrThrow();
    const newest = await watch.waitFor((f) => f.type === 'userStatus' && f.data.version === Number(row.status_at));
    expect(newest.data.status.text).toBe(row.status_text);
    const versions = watch.frames.filter((f) => f.type === 'userStatus').map((f) => f.data.version as number);
    expect(new Set(versions).size).toBe(choices.length);
    expect(Math.max(...versions)).toBe(Number(row.status_at));
    watch.close();
  });
});

describeWithRedis('last seen across two servers', (redisUrl) => {
  for (const target of dbTargets()) describe(target, () => twoServers(target));

  function twoServers(target: 'sqlite' | 'postgres') {
    let cluster!: Cluster;
    let redis!: Redis;
    beforeAll(async () => {
      cluster = await Cluster.start(target, redisUrl, 2);
      redis = new Redis(redisUrl);
    }, 60_000);
    afterAll(async () => {
      redis?.disconnect();
      await cluster?.stop();
    });
    /** Waits until `count` sockets of a user are counted present (the presence set the nodes share). */
    const present = async (userId: number, count: number) => {
      const key = `${cluster.nodes[0]!.env.REDIS_PREFIX}presence:${userId}`;
      for (let i = 0; i < 250 && (await redis.zcard(key)) !== count; i++) await sleep(20);
      expect(await redis.zcard(key)).toBe(count);
    };

    it(`[${target}] writes the last-seen time when the last socket, on the other server, goes, and when that server shuts down`, async () => {
      const [a, b] = await friendsOf(cluster.nodes[0]!, `seen${target}${Date.now() % 100_000}x`, 2);
      const node = (i: number) => cluster.nodes[i]!;
      const seenFrom1 = async () => (await node(0).call('getUserInfo', { user_id: b!.userId }, a!.token)).data;

      // b on node 2 twice: the first socket going leaves b online; the second going writes the time.
      const s1 = await TestSocket.bound({ url: node(1).url }, b!.userId, b!.token);
      const s2 = await TestSocket.bound({ url: node(1).url }, b!.userId, b!.token);
      const watcher = await TestSocket.bound({ url: node(0).url }, a!.userId, a!.token);
      expect(await seenFrom1()).toMatchObject({ is_online: 1 });
      s1.close();
      await present(b!.userId, 1);
      expect(await seenFrom1()).toMatchObject({ is_online: 1 });
      expect((await seenFrom1()).last_seen).toBeUndefined();
      const before = Date.now();
      s2.close();
      const told = await watcher.waitFor((f) => f.type === 'userStatus' && f.data.last_seen !== undefined, 5000);
      const shown = await seenFrom1();
      expect(shown.is_online).toBe(0);
      expect(shown.last_seen).toBe(told.data.last_seen);
      expect(shown.last_seen).toBeGreaterThanOrEqual(Math.floor(before / MINUTE) * MINUTE);

      // Node 2 shutting down closes b's socket there: the time is written before it stops.
      const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
      try {
        const s3 = await TestSocket.bound({ url: node(1).url }, b!.userId, b!.token);
        await opened.db.updateTable('users').set({ last_seen: null }).where('id', '=', b!.userId).execute();
        await node(1).stop();
        await s3.waitClosed(5000).catch(() => undefined);
        const row = await opened.db
          .selectFrom('users')
          .select('last_seen')
          .where('id', '=', b!.userId)
          .executeTakeFirstOrThrow();
        expect(row.last_seen, node(1).log.join('')).not.toBeNull();
        expect((await seenFrom1()).is_online).toBe(0);
        // Each socket went once: no warning of a second drop after the bus and presence closed.
        expect(node(1).log.join('')).not.toMatch(/drop failed|not recorded|unwatch failed/);
      } finally {
        await opened.close();
        watcher.close();
        await node(1).start();
      }
    }, 60_000);

    it(`[${target}] keeps a user's channel watched when their socket is dropped and another bound at once`, async () => {
      const [a, b] = await friendsOf(cluster.nodes[0]!, `rebind${target}${Date.now() % 100_000}x`, 2);
      const node1 = { url: cluster.nodes[1]!.url };
      for (let round = 0; round < 12; round++) {
        const first = await TestSocket.bound(node1, b!.userId, b!.token);
        await present(b!.userId, 1);
        // The new socket's bind is under way while the old one is dropped: the drop must not stop watching.
        const again = await TestSocket.open(node1);
        again.send({ type: 'bindUid', user_id: b!.userId, token: b!.token });
        await sleep(round % 4);
        first.close();
        await again.waitFor((f) => f.type === 'pong');
        await present(b!.userId, 1);
        // A push published on the other server still reaches the socket bound again.
        const text = `round ${round}`;
        expect((await cluster.nodes[0]!.call('setStatus', { text }, a!.token)).code).toBe(0);
        await again.waitFor((f) => f.type === 'userStatus' && f.data.status?.text === text, 5000);
        again.close();
        await present(b!.userId, 0);
      }
    }, 60_000);

    it(`[${target}] leaves one of statuses set at once on both servers whole`, async () => {
      const [a] = await friendsOf(cluster.nodes[0]!, `race${target}${Date.now() % 100_000}x`, 1);
      const choices = [
        { text: '开会中', emoji: '📅' },
        { text: '午饭', emoji: '🍜' },
        { text: '通勤', emoji: '🚗' },
      ];
      const answers = await Promise.all(
        [...choices, ...choices].map((c, i) => cluster.nodes[i % 2]!.call('setStatus', c, a!.token)),
      );
      expect(answers.map((r) => r.code)).toEqual(answers.map(() => 0));
      const status = (await cluster.nodes[0]!.call('getUserInfo', { user_id: a!.userId }, a!.token)).data.status;
      expect(choices).toContainEqual({ text: status.text, emoji: status.emoji });
    }, 60_000);
  }
});
