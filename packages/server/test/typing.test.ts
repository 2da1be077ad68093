import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPING_GROUP_MAX, type Envelope, type RouteName } from '@sparrow/protocol';
import { openDb } from '../src/db';
import { SessionService } from '../src/modules/auth';
import { createRepos } from '../src/repos';
import { Cluster, describeWithRedis } from './cluster';
import { dbTargets, describeEachDb, signUp, startServer, TestSocket, userRow, type TestServer } from './harness';

/** A server process the suite talks to: its address and its HTTP calls. */
interface Place {
  url: string;
  call(name: RouteName, body: object, token: string): Promise<Envelope<any>>;
}

interface User {
  userId: number;
  token: string;
}

/** Where the scenarios run: `one` holds the senders' sockets and takes the calls, `two` the receivers'. */
interface Setup {
  one: Place;
  two: Place;
  user(name: string): Promise<User>;
  /** Mutes a user server-wide (举报处理's 禁言) until `until`. */
  serverMute(userId: number, until: number): Promise<void>;
}

const isTyping = (from: number, chat: number | string, state?: 0 | 1) => (f: any) =>
  f.type === 'typing' &&
  f.data.from === from &&
  f.data.chat === chat &&
  (state === undefined || f.data.state === state);

/**
 * 对方正在输入… relayed over real sockets: a sender's socket on `one`, receivers' on `two`. "Nothing
 * delivered" is shown by what comes after: the sender's next frame, to a chat that relays it, arrives
 * (frames of a socket are relayed in order), then a push the receiver causes itself on `one` arrives
 * (pushes from one node arrive in order), and no typing came before it.
 */
function scenarios(setup: () => Setup) {
  let one: Place;
  let two: Place;
  let a: User, b: User, c: User, z: User, stranger: User, exFriend: User, blockedByA: User, blocksA: User;
  let removed: User;
  let muted: User;
  let hushed: User;
  let small = '';
  let gone = '';
  let quiet = '';
  let left = '';
  let large = '';
  let bSock: TestSocket, cSock: TestSocket, zSock: TestSocket, aOther: TestSocket;
  const watchers = new Map<number, TestSocket>();
  const opened: TestSocket[] = [];

  const ok = async (place: Place, name: RouteName, body: object, as: User) => {
    const res = await place.call(name, body, as.token);
    expect(res.code, `${name}: ${res.msg}`).toBe(0);
    return res.data;
  };
  const befriend = async (x: User, y: User) => {
    await ok(one, 'friendAdd', { user_id: y.userId }, x);
    await ok(one, 'friendAdd', { user_id: x.userId }, y);
  };
  const socketOf = async (place: Place, u: User) => {
    const sock = await TestSocket.bound(place, u.userId, u.token);
    opened.push(sock);
    return sock;
  };
  const watch = async (u: User) => {
    const sock = await socketOf(two, u);
    watchers.set(u.userId, sock);
    return sock;
  };

  /**
   * Sends `frame` from a fresh socket of `sender` on `one`, then a typing 1 to `control` (a chat that
   * relays it to `controlSock`), and shows that none of `quietOn` got a typing from `sender` in
   * `chatOf(receiver)` by the time a push of their own (setChatTop on `one`) reached them.
   */
  const expectQuiet = async (
    sender: User,
    frame: object,
    quietOn: User[],
    chatOf: (receiver: User) => number | string,
    control: { to: number | string; sock: TestSocket; chat: number | string },
  ) => {
    const marks = new Map(quietOn.map((u) => [u.userId, watchers.get(u.userId)!.frames.length]));
    const controlFrom = control.sock.frames.length;
    const sock = await socketOf(one, sender);
    sock.send(frame);
    sock.send({ type: 'typing', to: control.to, state: 1 });
    await control.sock.waitFor(isTyping(sender.userId, control.chat, 1), 5000, controlFrom);
    for (const u of quietOn) {
      const w = watchers.get(u.userId)!;
      const from = w.frames.length;
      await ok(one, 'setChatTop', { id: -1, is_top: 1, is_group: 0 }, u);
      await w.waitFor((f) => f.type === 'setChatTop', 5000, from);
      const got = w.frames.slice(marks.get(u.userId)).filter(isTyping(sender.userId, chatOf(u)));
      expect(got, `typing from ${sender.userId} to ${u.userId}`).toEqual([]);
    }
    sock.close();
  };

  /**
   * Sends `frame` from a fresh socket of `sender` on `one`, and shows that none of `quietOn` got a
   * typing from `sender` in `chatOf(receiver)`: for a sender none of whose frames is relayed, so no
   * control frame can follow; the socket's pong comes once its typing frames before are relayed.
   */
  const expectDropped = async (
    sender: User,
    frame: object,
    quietOn: User[],
    chatOf: (receiver: User) => number | string,
  ) => {
    const marks = new Map(quietOn.map((u) => [u.userId, watchers.get(u.userId)!.frames.length]));
    const sock = await socketOf(one, sender);
    sock.send(frame);
    await sock.roundTrip();
    for (const u of quietOn) {
      const w = watchers.get(u.userId)!;
      const from = w.frames.length;
      await ok(one, 'setChatTop', { id: -1, is_top: 1, is_group: 0 }, u);
      await w.waitFor((f) => f.type === 'setChatTop', 5000, from);
      const got = w.frames.slice(marks.get(u.userId)).filter(isTyping(sender.userId, chatOf(u)));
      expect(got, `typing from ${sender.userId} to ${u.userId}`).toEqual([]);
    }
    sock.close();
  };

  beforeAll(async () => {
    const s = setup();
    ({ one, two } = s);
    const names = ['a', 'b', 'c', 'z', 'stranger', 'exfriend', 'blockedbya', 'blocksa', 'removed', 'muted', 'hushed'];
    const made = await Promise.all(names.map((n) => s.user(n)));
    [a, b, c, z, stranger, exFriend, blockedByA, blocksA, removed, muted, hushed] = made as [
      User,
      User,
      User,
      User,
      User,
      User,
      User,
      User,
      User,
      User,
      User,
    ];
    for (const u of [b, c, z, exFriend, blockedByA, blocksA, removed, muted, hushed]) await befriend(a, u);
    for (const u of [b, c, stranger, exFriend, blockedByA, blocksA, removed, muted]) await befriend(z, u);
    await ok(one, 'friendDel', { id: exFriend.userId }, a);
    await ok(one, 'blockAdd', { user_id: blockedByA.userId }, a);
    await ok(one, 'blockAdd', { user_id: a.userId }, blocksA);
    small = (await ok(one, 'groupAdd', { user_ids: [b.userId, c.userId, muted.userId] }, a)).id;
    left = (await ok(one, 'groupAdd', { user_ids: [removed.userId, z.userId] }, a)).id;
    await ok(one, 'removeUser', { id: left, user_id: removed.userId }, a);
    await ok(one, 'setNoSpeak', { id: small, user_id: muted.userId, noSpeakTimer: 1 }, a);
    gone = (await ok(one, 'groupAdd', { user_ids: [b.userId, c.userId] }, a)).id;
    await ok(one, 'removeGroup', { id: gone }, a);
    // 全员禁言: only the owner and administrators speak, and type.
    quiet = (await ok(one, 'groupAdd', { user_ids: [b.userId, c.userId] }, a)).id;
    await ok(one, 'groupSetting', { id: quiet, setting: { nospeak: 1 } }, a);
    await s.serverMute(hushed.userId, Date.now() + 3_600_000);
    // One more member than a group may have to show typing: a, b and the rest.
    const rest = await Promise.all(Array.from({ length: TYPING_GROUP_MAX - 1 }, (_, i) => s.user(`many${i}`)));
    for (const u of rest) await befriend(a, u);
    large = (await ok(one, 'groupAdd', { user_ids: [b.userId, ...rest.map((u) => u.userId)] }, a)).id;
    bSock = await watch(b);
    cSock = await watch(c);
    zSock = await watch(z);
    aOther = await watch(a);
    for (const u of [stranger, exFriend, blockedByA, blocksA, removed, muted, hushed]) await watch(u);
  }, 120_000);

  afterAll(() => {
    for (const s of opened) s.close();
  });

  it("a private chat: A's start and stop on one node reach B's socket on the other, not A's other socket", async () => {
    const sock = await socketOf(one, a);
    const from = bSock.frames.length;
    sock.send({ type: 'typing', to: b.userId, state: 1 });
    const start = await bSock.waitFor(isTyping(a.userId, a.userId, 1), 5000, from);
    expect(start.data).toEqual({ from: a.userId, chat: a.userId, state: 1 });
    sock.send({ type: 'typing', to: b.userId, state: 0 });
    await bSock.waitFor(isTyping(a.userId, a.userId, 0), 5000, from);
    // A's other socket: B's own typing to A reaches it, and nothing of A's came before.
    const bSender = await socketOf(one, b);
    bSender.send({ type: 'typing', to: a.userId, state: 1 });
    await aOther.waitFor(isTyping(b.userId, b.userId, 1), 5000);
    expect(aOther.frames.filter((f) => f.type === 'typing' && f.data.from === a.userId)).toEqual([]);
    sock.close();
    bSender.close();
  });

  it('a small group: the other members get it, under the group, not A', async () => {
    const sock = await socketOf(one, a);
    const [fromB, fromC] = [bSock.frames.length, cSock.frames.length];
    sock.send({ type: 'typing', to: small, state: 1 });
    await bSock.waitFor(isTyping(a.userId, small, 1), 5000, fromB);
    await cSock.waitFor(isTyping(a.userId, small, 1), 5000, fromC);
    const cSender = await socketOf(one, c);
    cSender.send({ type: 'typing', to: small, state: 1 });
    await aOther.waitFor(isTyping(c.userId, small, 1), 5000);
    expect(aOther.frames.filter((f) => f.type === 'typing' && f.data.from === a.userId)).toEqual([]);
    sock.close();
    cSender.close();
  });

  it('nothing to a stranger, an ex-friend, or across a block either way', async () => {
    const viaZ = () => ({ to: z.userId, sock: zSock, chat: a.userId });
    for (const u of [stranger, exFriend, blockedByA, blocksA]) {
      await expectQuiet(a, { type: 'typing', to: u.userId, state: 1 }, [u], () => a.userId, viaZ());
    }
    // The other way: the blocked one and the blocker typing to A.
    for (const u of [blockedByA, blocksA]) {
      await expectQuiet(u, { type: 'typing', to: a.userId, state: 1 }, [a], () => u.userId, {
        to: z.userId,
        sock: zSock,
        chat: u.userId,
      });
    }
  });

  it('nothing from a removed member, a muted member, or in a group larger than TYPING_GROUP_MAX', async () => {
    await expectQuiet(removed, { type: 'typing', to: left, state: 1 }, [a, z], () => left, {
      to: z.userId,
      sock: zSock,
      chat: removed.userId,
    });
    await expectQuiet(muted, { type: 'typing', to: small, state: 1 }, [a, b], () => small, {
      to: z.userId,
      sock: zSock,
      chat: muted.userId,
    });
    await expectQuiet(a, { type: 'typing', to: large, state: 1 }, [b], () => large, {
      to: z.userId,
      sock: zSock,
      chat: a.userId,
    });
  });

  it("the setting off, the sender's or the receiver's: nothing either way; on again, relayed again", async () => {
    const me = await ok(one, 'updateUserInfo', { typing: 0 }, b);
    expect(me.typing).toBe(0);
    expect((await ok(one, 'checkuser', {}, b)).typing).toBe(0);
    const viaZ = (from: User) => ({ to: z.userId, sock: zSock, chat: from.userId });
    await expectQuiet(a, { type: 'typing', to: b.userId, state: 1 }, [b], () => a.userId, viaZ(a));
    await expectQuiet(a, { type: 'typing', to: small, state: 1 }, [b], () => small, viaZ(a));
    // B, off, types to A: nothing; the pong comes once the frame before it was relayed (or dropped),
    // so turning the setting on after it cannot let that frame through.
    const sock = await socketOf(one, b);
    const fromA = aOther.frames.length;
    const fromZ = zSock.frames.length;
    sock.send({ type: 'typing', to: a.userId, state: 1 });
    await sock.roundTrip();
    expect((await ok(one, 'updateUserInfo', { typing: 1 }, b)).typing).toBe(1);
    sock.send({ type: 'typing', to: z.userId, state: 1 });
    await zSock.waitFor(isTyping(b.userId, b.userId, 1), 5000, fromZ);
    await ok(one, 'setChatTop', { id: -1, is_top: 1, is_group: 0 }, a);
    await aOther.waitFor((f) => f.type === 'setChatTop', 5000, fromA);
    expect(aOther.frames.slice(fromA).filter(isTyping(b.userId, b.userId))).toEqual([]);
    // On again, relayed again; A off in turn: A hears nothing of B, and B nothing of A.
    sock.close();
    const fresh = await socketOf(one, b);
    fresh.send({ type: 'typing', to: a.userId, state: 1 });
    await aOther.waitFor(isTyping(b.userId, b.userId, 1), 5000, fromA);
    fresh.close();
    await ok(one, 'updateUserInfo', { typing: 0 }, a);
    try {
      await expectQuiet(b, { type: 'typing', to: a.userId, state: 1 }, [a], () => b.userId, viaZ(b));
      await expectQuiet(b, { type: 'typing', to: small, state: 1 }, [a], () => small, viaZ(b));
    } finally {
      await ok(one, 'updateUserInfo', { typing: 1 }, a);
    }
    const twice = await one.call('updateUserInfo', { typing: 2 }, a.token);
    expect(twice.code).not.toBe(0);
  });

  it('nothing in a disbanded group, from a member under 全员禁言, or from a user muted server-wide', async () => {
    const viaZ = { to: z.userId, sock: zSock, chat: a.userId };
    await expectQuiet(a, { type: 'typing', to: gone, state: 1 }, [b, c], () => gone, viaZ);
    await expectQuiet(b, { type: 'typing', to: quiet, state: 1 }, [a, c], () => quiet, {
      to: z.userId,
      sock: zSock,
      chat: b.userId,
    });
    // The owner still speaks there, and types.
    const owner = await socketOf(one, a);
    const from = bSock.frames.length;
    owner.send({ type: 'typing', to: quiet, state: 1 });
    await bSock.waitFor(isTyping(a.userId, quiet, 1), 5000, from);
    owner.close();
    await expectDropped(hushed, { type: 'typing', to: a.userId, state: 1 }, [a], () => hushed.userId);
  });

  it('a burst of starts is relayed once; a stop lets the next start through at once', async () => {
    const sock = await socketOf(one, a);
    const from = bSock.frames.length;
    for (let i = 0; i < 3; i++) sock.send({ type: 'typing', to: b.userId, state: 1 });
    sock.send({ type: 'typing', to: small, state: 1 });
    await bSock.waitFor(isTyping(a.userId, small, 1), 5000, from);
    expect(bSock.frames.slice(from).filter(isTyping(a.userId, a.userId))).toHaveLength(1);
    sock.close();

    const again = await socketOf(one, a);
    const mark = bSock.frames.length;
    again.send({ type: 'typing', to: b.userId, state: 1 });
    again.send({ type: 'typing', to: b.userId, state: 0 });
    again.send({ type: 'typing', to: b.userId, state: 1 });
    // A stop with no start before it is dropped: the last 0 here reaches no one.
    again.send({ type: 'typing', to: b.userId, state: 0 });
    again.send({ type: 'typing', to: b.userId, state: 0 });
    again.send({ type: 'typing', to: small, state: 1 });
    await bSock.waitFor(isTyping(a.userId, small, 1), 5000, mark);
    expect(
      bSock.frames
        .slice(mark)
        .filter(isTyping(a.userId, a.userId))
        .map((f) => f.data.state),
    ).toEqual([1, 0, 1, 0]);
    again.close();
  });

  it('a Raingad socket (bound over HTTP) is sent nothing, and its own typing frame is refused', async () => {
    const old = await TestSocket.open(two);
    opened.push(old);
    const bound = await ok(two, 'bindUid', { client_id: old.clientId, user_id: b.userId }, b);
    expect(bound).toBeNull();
    const sock = await socketOf(one, a);
    const from = bSock.frames.length;
    sock.send({ type: 'typing', to: b.userId, state: 1 });
    await bSock.waitFor(isTyping(a.userId, a.userId, 1), 5000, from);
    const oldFrom = old.frames.length;
    await ok(one, 'setChatTop', { id: -1, is_top: 1, is_group: 0 }, b);
    await old.waitFor((f) => f.type === 'setChatTop', 5000, oldFrom);
    expect(old.frames.filter((f) => f.type === 'typing')).toEqual([]);
    // Its typing frame counts as a bad frame, and is relayed to no one.
    const aFrom = aOther.frames.length;
    old.send({ type: 'typing', to: a.userId, state: 1 });
    await old.roundTrip();
    const control = await socketOf(one, z);
    control.send({ type: 'typing', to: a.userId, state: 1 });
    await aOther.waitFor(isTyping(z.userId, z.userId, 1), 5000, aFrom);
    expect(aOther.frames.slice(aFrom).filter((f) => f.type === 'typing' && f.data.from === b.userId)).toEqual([]);
    sock.close();
    control.close();
  });

  it('malformed typing frames are ignored and counted as bad frames; an unbound socket relays nothing', async () => {
    const sock = await socketOf(one, a);
    const from = bSock.frames.length;
    const bad = [
      { type: 'typing', to: b.userId, state: 2 },
      { type: 'typing', to: String(b.userId), state: 1 },
      { type: 'typing', to: 'group-x', state: 1 },
      { type: 'typing', to: 'group-0', state: 1 },
      { type: 'typing', to: -1, state: 1 },
      { type: 'typing', to: 1.5, state: 1 },
      { type: 'typing', state: 1 },
      { type: 'typing', to: b.userId },
      { type: 'typing', to: 'x'.repeat(10_000), state: 1 },
    ];
    for (const f of bad) sock.send(f);
    // Still served, and still relaying a good frame.
    await sock.roundTrip();
    sock.send({ type: 'typing', to: b.userId, state: 1 });
    await bSock.waitFor(isTyping(a.userId, a.userId, 1), 5000, from);
    expect(bSock.frames.slice(from).filter((f) => f.type === 'typing')).toHaveLength(1);
    // A group that does not exist, or that A is not in, is as quiet as any other refusal.
    const unbound = await TestSocket.open(one);
    opened.push(unbound);
    const mark = bSock.frames.length;
    unbound.send({ type: 'typing', to: b.userId, state: 1 });
    await unbound.roundTrip();
    const control = await socketOf(one, z);
    control.send({ type: 'typing', to: b.userId, state: 1 });
    await bSock.waitFor(isTyping(z.userId, z.userId, 1), 5000, mark);
    expect(bSock.frames.slice(mark).filter((f) => f.type === 'typing')).toEqual([
      expect.objectContaining({ data: { from: z.userId, chat: z.userId, state: 1 } }),
    ]);
    control.close();
    // Past twenty bad frames the socket is closed, as for any other nonsense.
    for (let i = 0; i < 12; i++) sock.send({ type: 'typing', to: 0, state: 1 });
    expect(await sock.waitClosed()).toBe(1008);
    await expectQuiet(a, { type: 'typing', to: 'group-999999', state: 1 }, [b], () => 'group-999999', {
      to: z.userId,
      sock: zSock,
      chat: a.userId,
    });
    expect(bSock.frames.slice(from).filter((f) => f.type === 'typing' && f.data.from === a.userId)).toHaveLength(1);
  });
}

describeEachDb('typing (对方正在输入…)', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => server?.close());
  scenarios(() => {
    const place: Place = { url: server.url, call: (name, body, token) => server.call(name, body, { token }) };
    return {
      one: place,
      two: place,
      user: async (name) => {
        const u = await signUp(server, `${name}${process.pid}t`);
        return { userId: u.userId, token: u.token };
      },
      serverMute: async (userId, until) => {
        await server.ctx.db.updateTable('users').set({ muted_until: until }).where('id', '=', userId).execute();
      },
    };
  });
});

describeWithRedis('typing across two nodes', (redisUrl) => {
  if (!dbTargets().includes('postgres')) return;
  let cluster: Cluster | undefined;
  let close: (() => Promise<void>) | undefined;
  let sessions!: SessionService;
  let db!: ReturnType<typeof openDb>['db'];
  beforeAll(async () => {
    cluster = await Cluster.start('postgres', redisUrl, 2);
    const opened = openDb({ databaseUrl: cluster.databaseUrl, dataDir: cluster.dataDir });
    db = opened.db;
    sessions = new SessionService(createRepos(opened.db, opened.dialect), Date.now);
    close = async () => {
      await opened.close();
      await cluster?.stop();
    };
  }, 60_000);
  afterAll(async () => close?.());
  describe('node one to node two', () => {
    scenarios(() => ({
      one: cluster!.nodes[0]!,
      two: cluster!.nodes[1]!,
      user: async (name) => {
        const row = await db
          .insertInto('users')
          .values(userRow(`${name}${process.pid}tc`))
          .returning('id')
          .executeTakeFirstOrThrow();
        const s = await sessions.create(row.id, { cid: '', isMobile: false, userAgent: 't', ip: '::1' });
        return { userId: row.id, token: `bearer ${s.token}` };
      },
      serverMute: async (userId, until) => {
        await db.updateTable('users').set({ muted_until: until }).where('id', '=', userId).execute();
      },
    }));
  });
});
