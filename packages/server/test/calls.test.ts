import { spawnSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CALL_LOCK_TTL_MS, CALL_PEER_GONE_MS, CALL_RING_TIMEOUT_MS } from '@sparrow/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallStore } from '../src/realtime/call-store';
import { TURNSERVER, TurnServer } from './turn';
import { describeEachDb, signUp, startServer, TestSocket, type DbTarget, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/** Where call locks live: in the process, and in Redis when the run has one. */
const stores = (): Array<{ name: string; redisUrl: string | undefined }> => [
  { name: 'memory', redisUrl: undefined },
  ...(process.env.REDIS_URL ? [{ name: 'redis', redisUrl: process.env.REDIS_URL }] : []),
];

describeEachDb('calls', (target: DbTarget) => {
  for (const store of stores()) {
    describe(`locks in ${store.name}`, () => callSuite(target, store.redisUrl));
  }
});

function callSuite(target: DbTarget, redisUrl: string | undefined) {
  let server: TestServer;
  let n = 0;
  const sockets: TestSocket[] = [];
  const fresh = (name: string, realname?: string) =>
    signUp(server, `${name}${++n}c${Math.floor(Math.random() * 1e6)}`, 'secret123', realname ?? `${name}${n}`);
  const bind = async (u: User, headers: Record<string, string> = {}) => {
    const s = await TestSocket.bound(server, u.userId, u.token, headers);
    sockets.push(s);
    return s;
  };
  const signal = (u: User, body: Record<string, unknown>, opts: { lang?: string; clientId?: string } = {}) =>
    server.call('sendToMsg', body, {
      token: u.token,
      lang: opts.lang ?? null,
      ...(opts.clientId && { headers: { clientid: opts.clientId } }),
    });

  async function befriend(a: User, b: User) {
    expect((await server.call('friendAdd', { user_id: b.userId }, { token: a.token })).code).toBe(0);
    const got = await server.call('friendIndex', { is_mine: 0 }, { token: b.token });
    const req = got.data.find((r: any) => r.create_user_info.user_id === a.userId);
    expect((await server.call('friendUpdate', { friend_id: req.friend_id, status: 1 }, { token: b.token })).code).toBe(
      0,
    );
  }

  /** Two friends, each with a socket open. */
  async function pair() {
    const a = await fresh('alice', 'Alice');
    const b = await fresh('bob', 'Bob');
    await befriend(a, b);
    return { a, b, sa: await bind(a), sb: await bind(b) };
  }

  const webrtcOf = (s: TestSocket, id: string, event: string, from = 0) =>
    s.waitFor((f) => f.type === 'webrtc' && f.data.id === id && f.data.extends.event === event, 3000, from);

  async function ring(a: User, b: User, sb: TestSocket, type = 0) {
    const id = randomUUID();
    const res = await signal(a, { id, toContactId: b.userId, type, event: 'calling' });
    expect(res.code).toBe(0);
    const rang = await webrtcOf(sb, id, 'calling');
    return { id, res, rang };
  }

  /** The newest message of a chat as `u` reads it, in Chinese unless `lang` says otherwise. */
  async function lastMessage(u: User, peer: User, lang = 'zh-CN') {
    const list = await server.call('getMessageList', { toContactId: peer.userId }, { token: u.token, lang });
    return list.data.at(-1);
  }

  async function unreadOf(u: User, peer: User): Promise<number> {
    const res = await server.call('getContacts', {}, { token: u.token });
    return res.data.find((c: any) => c.id === peer.userId)?.unread ?? 0;
  }

  beforeAll(async () => {
    server = await startServer(target, {
      env: {
        redisUrl,
        redisPrefix: `calls-test-${randomUUID().slice(0, 8)}:`,
        calls: {
          ringTimeoutMs: CALL_RING_TIMEOUT_MS,
          lockTtlMs: CALL_LOCK_TTL_MS,
          peerGoneMs: CALL_PEER_GONE_MS,
          sweepMs: 3_600_000,
        },
      },
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server.close();
  });
  beforeEach(async () => {
    await server.ctx.config.set('sysInfo.runMode', '2');
    await server.ctx.config.set('chatInfo.webrtc', '1');
  });

  it('rings, is answered on one device, relays the negotiation, and ends with the measured duration', async () => {
    const { a, b, sa, sb } = await pair();
    const sb2 = await bind(b);
    const { id, res, rang } = await ring(a, b, sb, 1);
    expect(res.data).toMatchObject({ id, type: 'webrtc', extends: { event: 'calling', code: 901, type: 1 } });
    expect(rang.data).toMatchObject({
      type: 'webrtc',
      fromUser: { id: a.userId },
      extends: { event: 'calling', status: 3, type: 1, code: 901 },
      contactInfo: { id: a.userId },
    });
    await webrtcOf(sb2, id, 'calling');

    const accepted = await signal(
      b,
      { id, toContactId: a.userId, type: 1, event: 'acceptRtc' },
      { clientId: sb.clientId },
    );
    expect(accepted.code).toBe(0);
    const toCaller = await webrtcOf(sa, id, 'acceptRtc');
    expect(toCaller.data).toMatchObject({ fromUser: { id: b.userId }, extends: { code: 904 } });
    // The other device stops ringing; the one that answered is not told again.
    await webrtcOf(sb2, id, 'otherOpt');
    expect(sb.frames.some((f) => f.type === 'webrtc' && f.data.extends.event === 'otherOpt')).toBe(false);

    const sdp = 'v=0\r\no=- 46117314 2 IN IP4 127.0.0.1\r\ns=-\r\n';
    expect((await signal(a, { id, toContactId: b.userId, event: 'offer', sdp })).code).toBe(0);
    expect((await webrtcOf(sb, id, 'offer')).data.extends.sdp).toBe(sdp);
    expect((await signal(b, { id, toContactId: a.userId, event: 'answer', sdp })).code).toBe(0);
    expect((await webrtcOf(sa, id, 'answer')).data.extends.sdp).toBe(sdp);
    const candidate = JSON.stringify({
      candidate: 'candidate:1 1 udp 2122260223 10.0.0.2 51000 typ host',
      sdpMLineIndex: 0,
      sdpMid: '0',
    });
    expect((await signal(b, { id, toContactId: a.userId, event: 'iceCandidate', iceCandidate: candidate })).code).toBe(
      0,
    );
    expect((await webrtcOf(sa, id, 'iceCandidate')).data.extends.iceCandidate).toBe(candidate);
    // An object, as some clients send it, travels as the same JSON text.
    const asObject = { candidate: 'candidate:2 1 udp 1 10.0.0.3 9 typ host', sdpMLineIndex: 0, sdpMid: '0' };
    expect((await signal(a, { id, toContactId: b.userId, event: 'iceCandidate', iceCandidate: asObject })).code).toBe(
      0,
    );
    expect(JSON.parse((await webrtcOf(sb, id, 'iceCandidate')).data.extends.iceCandidate)).toEqual(asObject);
    // A camera turned off and on again reaches the other party; without saying which, it is refused.
    expect((await signal(a, { id, toContactId: b.userId, event: 'camera', camera: 0 })).code).toBe(0);
    expect((await webrtcOf(sb, id, 'camera')).data.extends).toMatchObject({ event: 'camera', camera: 0 });
    const cameraFrom = sb.frames.length;
    expect((await signal(a, { id, toContactId: b.userId, event: 'camera', camera: '1' })).code).toBe(0);
    expect((await webrtcOf(sb, id, 'camera', cameraFrom)).data.extends.camera).toBe(1);
    const unsaid = await signal(a, { id, toContactId: b.userId, event: 'camera' });
    expect({ code: unsaid.code, fields: unsaid.data?.fields }).toEqual({ code: 400, fields: ['camera'] });

    server.clock.advance(83_000);
    const hung = await signal(a, { id, toContactId: b.userId, event: 'hangup', code: 906, callTime: 9999 });
    expect(hung.data.extends).toMatchObject({ event: 'hangup', code: 906, callTime: 83 });
    const toCallee = await webrtcOf(sb, id, 'hangup');
    expect(toCallee.data.extends).toMatchObject({ code: 906, callTime: 83 });
    // Each reader is told in their own language (these registered in English).
    expect(toCallee.data.content).toBe('Call duration 01:23');

    const mine = await lastMessage(a, b);
    expect(mine).toMatchObject({ id, type: 'webrtc', content: '通话时长 01:23', extends: { code: 906, callTime: 83 } });
    expect((await lastMessage(b, a, 'en')).content).toBe('Call duration 01:23');
    expect(await unreadOf(b, a)).toBe(0);
    // Over: the id names no call any more.
    expect((await signal(a, { id, toContactId: b.userId, event: 'hangup' })).code).toBe(404);
  });

  it('a call the caller cancels, or nobody answers, stays unread for the callee; a refused one does not', async () => {
    const { a, b, sa, sb } = await pair();
    const first = await ring(a, b, sb);
    const cancelled = await signal(a, { id: first.id, toContactId: b.userId, event: 'hangup', code: 902 });
    expect(cancelled.data.extends.code).toBe(902);
    expect((await webrtcOf(sb, first.id, 'hangup')).data.extends.code).toBe(902);
    expect((await lastMessage(a, b)).content).toBe('已取消');
    expect((await lastMessage(b, a)).content).toBe('对方已取消');
    expect((await lastMessage(b, a, 'fr')).content).toBe("Annulé par l'appelant");
    expect(await unreadOf(b, a)).toBe(1);

    const second = await ring(a, b, sb);
    expect(
      (await signal(b, { id: second.id, toContactId: a.userId, event: 'hangup', code: 903 })).data.extends.code,
    ).toBe(903);
    expect((await webrtcOf(sa, second.id, 'hangup')).data.extends.code).toBe(903);
    expect((await lastMessage(a, b)).content).toBe('对方已拒绝');
    expect((await lastMessage(b, a)).content).toBe('已拒绝');
    expect(await unreadOf(b, a)).toBe(1);

    const third = await ring(a, b, sb);
    server.clock.advance(CALL_RING_TIMEOUT_MS);
    await server.services.calls.sweep();
    expect((await webrtcOf(sa, third.id, 'hangup')).data.extends.code).toBe(902);
    expect((await webrtcOf(sb, third.id, 'hangup')).data.extends).toMatchObject({ code: 902, unanswered: 1 });
    expect(await unreadOf(b, a)).toBe(2);
    // Nobody answered: the caller reads 对方无应答, the callee a missed call.
    expect((await lastMessage(a, b)).content).toBe('对方无应答');
    expect((await lastMessage(b, a)).content).toBe('未接听');
    expect((await lastMessage(b, a, 'en')).content).toBe('Missed call');

    // The caller's own phone giving up at the end of the ring time says the same.
    const fourth = await ring(a, b, sb);
    server.clock.advance(CALL_RING_TIMEOUT_MS - 500);
    await signal(a, { id: fourth.id, toContactId: b.userId, event: 'hangup', code: 902 });
    expect((await lastMessage(a, b, 'fr')).content).toBe('Pas de réponse');
  });

  it('answers busy (907) for an offline callee, one in a call, and a caller in a call; frees the locks when a call ends', async () => {
    const { a, b, sb } = await pair();
    const carol = await fresh('carol', 'Carol');
    await befriend(carol, b);
    await befriend(carol, a);
    const sc = await bind(carol);

    const { id } = await ring(a, b, sb);
    const third = await signal(carol, { id: randomUUID(), toContactId: b.userId, event: 'calling' });
    expect(third.code).toBe(0);
    expect(third.data.extends).toMatchObject({ event: 'busy', code: 907 });
    expect((await lastMessage(carol, b)).content).toBe('对方忙');
    expect((await lastMessage(b, carol)).content).toBe('忙线未接听');
    // The caller is held too: calling out while ringing someone is busy.
    const outward = await signal(a, { id: randomUUID(), toContactId: carol.userId, event: 'calling' });
    expect(outward.data.extends.code).toBe(907);

    // A callee with no socket anywhere is busy at once.
    const dave = await fresh('dave');
    await befriend(carol, dave);
    expect(
      (await signal(carol, { id: randomUUID(), toContactId: dave.userId, event: 'calling' })).data.extends.code,
    ).toBe(907);

    // The callee, already on the call page, answers a call busy.
    await signal(a, { id, toContactId: b.userId, event: 'hangup' });
    const again = await ring(carol, b, sb);
    expect((await signal(b, { id: again.id, toContactId: carol.userId, event: 'busy', code: 907 })).code).toBe(0);
    expect((await webrtcOf(sc, again.id, 'busy')).data.extends.code).toBe(907);
    // Every lock is free: a new call rings.
    await ring(a, b, sb);
  });

  it('refuses a candidate nested 10,000 deep, nesting where a candidate has text, and passes on only its fields', async () => {
    const { a, b, sb } = await pair();
    const { id } = await ring(a, b, sb);
    await signal(b, { id, toContactId: a.userId, event: 'acceptRtc' });
    const nest = (n: number) => '{"a":'.repeat(n) + '{}' + '}'.repeat(n);
    const send = (iceCandidate: string) =>
      server.post(
        '/enterprise/im/sendToMsg',
        `{"id":"${id}","toContactId":${b.userId},"event":"iceCandidate","iceCandidate":${iceCandidate}}`,
        { 'content-type': 'application/json', authorization: a.token },
      );
    for (const nested of [`{"candidate":${nest(10_000)}}`, `{"sdpMid":"0","candidate":"c","extra":${nest(10_000)}}`]) {
      const res = await send(nested);
      expect(res.status).toBeLessThan(500);
      expect(res.json.code).toBeGreaterThanOrEqual(400);
      expect(res.json.code).toBeLessThan(500);
    }
    // Within the depth any body may have, the candidate's own shape decides.
    expect((await send(`{"candidate":${nest(4)}}`)).json).toMatchObject({
      code: 400,
      data: { fields: ['iceCandidate'] },
    });
    const from = sb.frames.length;
    expect((await send(`{"sdpMid":"0","candidate":"c","extra":${nest(4)}}`)).json.code).toBe(0);
    const passed = await webrtcOf(sb, id, 'iceCandidate', from);
    expect(JSON.parse(passed.data.extends.iceCandidate)).toEqual({ sdpMid: '0', candidate: 'c' });
    await signal(a, { id, toContactId: b.userId, event: 'hangup', code: 906 });
  });

  it('ends a call whose party has had no socket for 30 s, and keeps a quiet call alive', async () => {
    const { a, b, sa, sb } = await pair();
    const { id } = await ring(a, b, sb);
    await signal(b, { id, toContactId: a.userId, event: 'acceptRtc' });
    // Longer than a lock's TTL with both online and no signal: the sweep renews the locks.
    for (let i = 0; i < 3; i++) {
      server.clock.advance(25_000);
      await server.services.calls.sweep();
    }
    expect(75_000).toBeGreaterThan(CALL_LOCK_TTL_MS);
    expect((await signal(a, { id, toContactId: b.userId, event: 'iceCandidate', iceCandidate: '{}' })).code).toBe(0);

    sb.close();
    await sb.waitClosed();
    await new Promise((r) => setTimeout(r, 50));
    await server.services.calls.sweep();
    server.clock.advance(CALL_PEER_GONE_MS - 1_000);
    await server.services.calls.sweep();
    expect(sa.frames.some((f) => f.type === 'webrtc' && f.data.id === id && f.data.extends.event === 'hangup')).toBe(
      false,
    );
    server.clock.advance(2_000);
    await server.services.calls.sweep();
    const ended = await webrtcOf(sa, id, 'hangup');
    expect(ended.data.extends.code).toBe(906);
    expect(ended.data.extends.callTime).toBe(Math.round((75_000 + CALL_PEER_GONE_MS + 1_000) / 1000));
  });

  it("forgets a call's parties once it ends, here or on another node", async () => {
    const calls = server.services.calls;
    const held = calls.partiesHeld;
    const { a, b, sb } = await pair();
    const first = await ring(a, b, sb);
    expect((await signal(b, { id: first.id, toContactId: a.userId, event: 'acceptRtc' })).code).toBe(0);
    expect(calls.partiesHeld).toBe(held + 1);
    await signal(a, { id: first.id, toContactId: b.userId, event: 'hangup', code: 906 });
    expect(calls.partiesHeld).toBe(held);
    // Another node ends the next one (it takes the call from the shared store): the sweep here lets go.
    const second = await ring(a, b, sb);
    expect((await signal(b, { id: second.id, toContactId: a.userId, event: 'acceptRtc' })).code).toBe(0);
    expect(calls.partiesHeld).toBe(held + 1);
    const { store } = calls as unknown as { store: CallStore };
    const live = (await store.live()).find((c) => c.id === second.id)!;
    expect(await store.take(live)).toBeTruthy();
    await calls.sweep();
    expect(calls.partiesHeld).toBe(held);
  });

  it('lets a lock left by a vanished node lapse after its TTL', async () => {
    const { a, b, sb } = await pair();
    const { id } = await ring(a, b, sb);
    // No sweep runs (every node gone): past the TTL the lock no longer holds.
    server.clock.advance(CALL_LOCK_TTL_MS + 1);
    const carol = await fresh('carol');
    await befriend(carol, b);
    const next = await ring(carol, b, sb);
    expect(next.res.data.extends.code).toBe(901);
    await signal(carol, { id: next.id, toContactId: b.userId, event: 'hangup' });
    await signal(a, { id, toContactId: b.userId, event: 'hangup' });
  });

  it('refuses strangers, ex-friends, calls when turned off, oneself; a third party cannot touch a call', async () => {
    const { a, b, sa, sb } = await pair();
    const stranger = await fresh('eve');
    await bind(stranger);
    const call = (from: User, to: User) => signal(from, { id: randomUUID(), toContactId: to.userId, event: 'calling' });
    const stranged = await call(stranger, a);
    expect(stranged.code).toBe(403);
    expect(stranged.msg).toBe('对方不是你的好友');

    expect((await signal(a, { id: randomUUID(), toContactId: a.userId, event: 'calling' })).code).toBe(400);

    await server.ctx.config.set('chatInfo.webrtc', '0');
    const off = await call(a, b);
    expect(off.code).toBe(403);
    expect(off.msg).toBe('音视频通话已关闭');
    await server.ctx.config.set('chatInfo.webrtc', '1');

    await server.ctx.config.set('sysInfo.runMode', '1');
    const everyone = await call(stranger, b);
    expect(everyone.data.extends.code).toBe(901);
    await signal(stranger, { id: everyone.data.id, toContactId: b.userId, event: 'hangup' });
    await server.ctx.config.set('sysInfo.runMode', '2');

    const { id } = await ring(a, b, sb);
    await signal(b, { id, toContactId: a.userId, event: 'acceptRtc' });
    await webrtcOf(sa, id, 'acceptRtc');
    await sb.roundTrip();
    const before = { a: sa.frames.length, b: sb.frames.length };
    const unknown = await signal(stranger, { id: randomUUID(), toContactId: a.userId, event: 'hangup' });
    for (const [event, to] of [
      ['hangup', a],
      ['hangup', b],
      ['iceCandidate', a],
      ['camera', a],
      ['acceptRtc', a],
      ['offer', b],
    ] as const) {
      const res = await signal(stranger, {
        id,
        toContactId: to.userId,
        event,
        iceCandidate: '{}',
        sdp: 'v=0',
        camera: 0,
      });
      expect({ code: res.code, msg: res.msg }).toEqual({ code: unknown.code, msg: unknown.msg });
    }
    expect(unknown.code).toBe(404);
    // The callee cannot act as the caller's peer with a made-up partner either.
    expect((await signal(b, { id, toContactId: stranger.userId, event: 'hangup' })).code).toBe(404);
    await sa.roundTrip();
    await sb.roundTrip();
    expect(sa.frames.slice(before.a).filter((f) => f.type === 'webrtc')).toEqual([]);
    expect(sb.frames.slice(before.b).filter((f) => f.type === 'webrtc')).toEqual([]);

    // Unfriending ends the call.
    expect((await server.call('friendDel', { id: b.userId }, { token: a.token })).code).toBe(0);
    expect((await webrtcOf(sb, id, 'hangup')).data.extends.code).toBe(906);
    expect((await call(a, b)).code).toBe(403);
  });

  it('takes the fields old clients send empty, and answers a retried calling with the same call', async () => {
    const { a, b, sb } = await pair();
    const id = randomUUID();
    const form = `id=${id}&msg_id=0&toContactId=${b.userId}&type=0&event=calling&status=1&code=901&callTime=&sdp=&iceCandidate=`;
    const first = await server.post('/enterprise/im/sendToMsg', form, {
      authorization: a.token,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(first.json.code).toBe(0);
    await webrtcOf(sb, id, 'calling');
    const retry = await signal(a, { id, toContactId: b.userId, event: 'calling' });
    expect(retry.data.msg_id).toBe(first.json.data.msg_id);
    expect(sb.frames.filter((f) => f.type === 'webrtc' && f.data.id === id)).toHaveLength(1);
    await signal(a, { id, toContactId: b.userId, event: 'hangup', code: '', callTime: '' });
  });
}

describeEachDb('ICE servers', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target, {
      env: { turnUrls: ['turn:turn.example.org:3478?transport=udp'], turnSecret: 'testsecret', turnTtlS: 600 },
    });
  });
  afterAll(() => server.close());

  it('gives STUN from the configuration and TURN credentials coturn checks', async () => {
    await server.ctx.config.set('chatInfo.stun', JSON.stringify([{ urls: 'stun:stun.example.org:3478' }]));
    const u = await signUp(server, 'iceuser', 'secret123', 'Ice');
    const res = await server.call('iceServers', {}, { token: u.token });
    expect(res.code).toBe(0);
    const [stun, turn] = res.data.iceServers;
    expect(stun).toEqual({ urls: 'stun:stun.example.org:3478' });
    expect(turn.urls).toEqual(['turn:turn.example.org:3478?transport=udp']);
    expect(turn.username).toBe(`${Math.floor(server.clock.t / 1000) + 600}:${u.userId}`);
    expect(turn.credential).toBe(createHmac('sha1', 'testsecret').update(turn.username).digest('base64'));
    expect(res.data.ttl).toBe(600);
    expect((await server.call('iceServers', {})).code).toBe(-1);
  });
});

const UCLIENT = path.join(path.dirname(TURNSERVER), 'turnutils_uclient');

/** Suites that need coturn: run when it is installed; with CI=true a missing coturn fails. */
function describeWithTurn(name: string, fn: () => void): void {
  if (fs.existsSync(TURNSERVER) && fs.existsSync(UCLIENT)) describe(name, fn);
  else if (process.env.CI === 'true') throw new Error(`CI=true but ${TURNSERVER} is missing: apt-get install coturn`);
  else describe.skip(`${name} (no ${TURNSERVER}: apt-get install coturn)`, () => undefined);
}

/** Asks coturn for a relay allocation with these credentials; true when it grants one. */
function allocates(port: number, username: string, credential: string): boolean {
  const res = spawnSync(
    UCLIENT,
    ['-y', '-n', '1', '-m', '1', '-u', username, '-w', credential, '-p', String(port), '127.0.0.1'],
    {
      encoding: 'utf8',
      timeout: 20_000,
    },
  );
  return res.status === 0 && !/Cannot complete Allocation/.test(`${res.stdout}${res.stderr}`);
}

describeWithTurn('TURN credentials against a real coturn', () => {
  let turn: TurnServer;
  let server: TestServer;
  beforeAll(async () => {
    turn = await TurnServer.start();
    server = await startServer('sqlite', {
      env: { turnUrls: [`turn:127.0.0.1:${turn.port}?transport=udp`], turnSecret: turn.secret, turnTtlS: 300 },
    });
  });
  afterAll(async () => {
    await server.close();
    await turn.stop();
  });

  it('allocates a relay with fresh credentials, and refuses expired or forged ones', async () => {
    const u = await signUp(server, 'turnuser', 'secret123', 'Turn');
    const fresh = (await server.call('iceServers', {}, { token: u.token })).data.iceServers.at(-1);
    expect(allocates(turn.port, fresh.username, fresh.credential)).toBe(true);
    // One character changed (a credential that starts with 'x' stays forged: 1 in 64 did not).
    const forged = `${fresh.credential.startsWith('x') ? 'y' : 'x'}${fresh.credential.slice(1)}`;
    expect(allocates(turn.port, fresh.username, forged)).toBe(false);
    server.clock.advance(-(300 + 60) * 1000);
    const expired = (await server.call('iceServers', {}, { token: u.token })).data.iceServers.at(-1);
    expect(allocates(turn.port, expired.username, expired.credential)).toBe(false);
  });
});
