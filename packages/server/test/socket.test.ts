import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '@sparrow/protocol';
import { AdminService } from '../src/modules/admin';
import { BROADCAST_BATCH_MS, MAX_BUFFERED_BYTES, SLOW_CLOSE_GRACE_MS } from '../src/realtime/hub';
import {
  captureLog,
  describeEachDb,
  expectBadBodies,
  LOG_LEVEL,
  logIn,
  MISSING,
  signUp,
  startServer,
  TestSocket,
  type LogLine,
  type TestServer,
} from './harness';

const { warn: WARN, error: ERROR } = LOG_LEVEL;

/**
 * Collects garbage, so that memory read after it is memory held: the suite's requests leave tens of
 * megabytes of garbage behind that would hide what a socket keeps.
 */
async function heldArrayBuffers(): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  // Buffers' memory is given back by a sweeper thread after the collection: let it finish.
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return process.memoryUsage().arrayBuffers;
}

const MOBILE = {
  'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
};
const DESKTOP = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDb('socket /wss', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server.close();
  });

  it('init → bindUid → pong; multiport once the user has a second socket', async () => {
    const ann = await signUp(server, 'ann_ws');
    const first = await TestSocket.open(server);
    expect(first.frames[0]).toEqual({ type: 'init', client_id: first.clientId });
    expect(first.clientId).toMatch(/^[0-9a-f-]{36}$/);
    first.send({ type: 'bindUid', user_id: ann.userId, token: ann.token });
    expect(await first.waitFor((f) => f.type === 'pong')).toEqual({ type: 'pong', multiport: false });

    const second = await TestSocket.open(server);
    expect(second.clientId).not.toBe(first.clientId);
    second.send({ type: 'bindUid', user_id: String(ann.userId), token: ann.token });
    expect(await second.waitFor((f) => f.type === 'pong')).toEqual({ type: 'pong', multiport: true });
    expect(await first.roundTrip()).toEqual({ type: 'pong', multiport: true });

    second.close();
    await second.waitClosed();
    await sleep(50);
    expect(await first.roundTrip()).toEqual({ type: 'pong', multiport: false });
    first.close();
  });

  it('answers ping with pong before binding too', async () => {
    const sock = await TestSocket.open(server);
    expect(await sock.roundTrip()).toEqual({ type: 'pong', multiport: false });
    sock.close();
  });

  it('closes on a bad, revoked or foreign token (4001)', async () => {
    const ben = await signUp(server, 'ben_ws');
    const cat = await signUp(server, 'cat_ws');

    const bad = await TestSocket.open(server);
    bad.send({ type: 'bindUid', user_id: ben.userId, token: 'bearer this-is-not-a-token-at-all' });
    expect(await bad.waitClosed()).toBe(4001);

    const old = await logIn(server, 'ben_ws', ben.password);
    await server.call('logout', {}, { token: old });
    const revoked = await TestSocket.open(server);
    revoked.send({ type: 'bindUid', user_id: ben.userId, token: old });
    expect(await revoked.waitClosed()).toBe(4001);

    const foreign = await TestSocket.open(server);
    foreign.send({ type: 'bindUid', user_id: cat.userId, token: ben.token });
    expect(await foreign.waitClosed()).toBe(4001);
    expect(foreign.frames.some((f) => f.type === 'pong')).toBe(false);
  });

  it('ignores invalid frames, and closes a flood of them (1008)', async () => {
    const sock = await TestSocket.open(server);
    sock.send('not json');
    sock.send({ type: 'sendMessage', content: 'hi' });
    sock.send({ type: 'bindUid', user_id: 1 });
    sock.ws.send(Buffer.from([1, 2, 3]));
    sock.send('"just a string"');
    expect(await sock.roundTrip()).toEqual({ type: 'pong', multiport: false });
    expect(sock.closeCode).toBeNull();

    const flood = await TestSocket.open(server);
    for (let i = 0; i < 30; i++) flood.send({ type: 'nonsense', i });
    expect(await flood.waitClosed()).toBe(1008);
    sock.close();
  });

  it('closes a socket that sends too many frames, even valid ones (1008)', async () => {
    const sock = await TestSocket.open(server);
    for (let i = 0; i < 250; i++) sock.send({ type: 'pong' });
    expect(await sock.waitClosed()).toBe(1008);
  });

  describe('HTTP bindUid', () => {
    it('binds a live socket of mine: it then receives my pushes', async () => {
      const dan = await signUp(server, 'dan_ws');
      const sock = await TestSocket.open(server);
      const res = await server.call('bindUid', { client_id: sock.clientId, user_id: dan.userId }, { token: dan.token });
      expect(res).toEqual({ code: 0, msg: '', data: null });
      await server.ctx.config.set('chatInfo.sendInterval', '0');
      expect((await sock.waitFor((f) => f.type === 'updateConfig')).data.chatInfo.sendInterval).toBe(0);
      sock.close();
    });

    it('refuses an unknown client_id, another user’s socket, and another user’s id', async () => {
      const eve = await signUp(server, 'eve_ws');
      const fay = await signUp(server, 'fay_ws');
      const unknown = await server.call(
        'bindUid',
        { client_id: '00000000-0000-4000-8000-000000000000', user_id: eve.userId },
        { token: eve.token },
      );
      expect(unknown).toMatchObject({
        code: 400,
        msg: 'That connection does not exist or has closed',
        data: { fields: ['client_id'] },
      });

      const faysSocket = await TestSocket.bound(server, fay.userId, fay.token);
      const stolen = await server.call(
        'bindUid',
        { client_id: faysSocket.clientId, user_id: eve.userId },
        { token: eve.token },
      );
      expect(stolen).toEqual(unknown);

      const mine = await TestSocket.open(server);
      const asFay = await server.call(
        'bindUid',
        { client_id: mine.clientId, user_id: fay.userId },
        { token: eve.token },
      );
      expect(asFay.code).toBe(403);

      const closed = await TestSocket.open(server);
      closed.close();
      await closed.waitClosed();
      await sleep(50);
      const gone = await server.call(
        'bindUid',
        { client_id: closed.clientId, user_id: eve.userId },
        { token: eve.token },
      );
      expect(gone.code).toBe(400);

      expect((await server.call('bindUid', { client_id: mine.clientId, user_id: eve.userId })).code).toBe(-1);
      expect(await faysSocket.roundTrip()).toEqual({ type: 'pong', multiport: false });
      faysSocket.close();
      mine.close();
    });

    it('refuses a bad body', async () => {
      const gus = await signUp(server, 'gus_ws');
      await expectBadBodies(
        server,
        'bindUid',
        { client_id: 'x', user_id: gus.userId },
        [
          { field: 'client_id', value: MISSING, key: 'validation.required' },
          { field: 'client_id', value: '', key: 'validation.required' },
          { field: 'client_id', value: 'c'.repeat(65), key: 'validation.tooLong', params: { max: 64 } },
          { field: 'user_id', value: MISSING, key: 'validation.required' },
          { field: 'user_id', value: 'me', key: 'validation.invalid' },
        ],
        { token: gus.token },
      );
    });

    it('login with client_id binds that socket', async () => {
      const hal = await signUp(server, 'hal_ws');
      const sock = await TestSocket.open(server);
      const login = await server.call('login', { account: 'hal_ws', password: hal.password, client_id: sock.clientId });
      expect(login.code).toBe(0);
      await server.ctx.config.set('chatInfo.sendInterval', '0');
      await sock.waitFor((f) => f.type === 'updateConfig');
      await server.call('logout', {}, { token: login.data.authToken });
      expect(await sock.waitClosed()).toBe(4004);
    });
  });

  it('login with a closed or foreign client_id still signs in, and binds nothing', async () => {
    const oli = await signUp(server, 'oli_ws');
    const pia = await signUp(server, 'pia_ws');
    const closed = await TestSocket.open(server);
    closed.close();
    await closed.waitClosed();
    const stale = await server.call('login', { account: 'oli_ws', password: oli.password, client_id: closed.clientId });
    expect(stale.code).toBe(0);
    expect((await server.call('checkuser', {}, { token: stale.data.authToken })).code).toBe(0);

    const piasSocket = await TestSocket.bound(server, pia.userId, pia.token);
    const foreign = await server.call('login', {
      account: 'oli_ws',
      password: oli.password,
      client_id: piasSocket.clientId,
    });
    expect(foreign.code).toBe(0);
    await server.call('logout', {}, { token: foreign.data.authToken });
    expect(await piasSocket.roundTrip()).toEqual({ type: 'pong', multiport: false });
    piasSocket.close();
  });

  it('pushes updateConfig to bound sockets on every change, not to unbound ones', async () => {
    const ivy = await signUp(server, 'ivy_ws');
    const bound = await TestSocket.bound(server, ivy.userId, ivy.token);
    const loose = await TestSocket.open(server);
    await server.ctx.config.set('chatInfo.redoTime', '600');
    const frame = await bound.waitFor((f) => f.type === 'updateConfig' && f.data.chatInfo.redoTime === 600);
    expect(Number.isInteger(frame.time)).toBe(true);
    expect(frame.time).toBeLessThan(1e11);
    expect(frame.data).toMatchObject({ sysInfo: { name: 'Sparrow' }, fileUpload: { size: 50 } });
    expect(frame.data.rateLimits).toBeUndefined();
    expect(await loose.roundTrip()).toBeTruthy();
    expect(loose.frames.some((f) => f.type === 'updateConfig')).toBe(false);
    await server.ctx.config.set('chatInfo.redoTime', '86400');
    bound.close();
    loose.close();
  });

  it('pushes a frame for everyone to the sockets bound when it was given, not to one bound while it waits', async () => {
    const ada = await signUp(server, 'ada_ws');
    const bea = await signUp(server, 'bea_ws');
    const early = await TestSocket.bound(server, ada.userId, ada.token);
    const loose = await TestSocket.open(server);
    await server.ctx.config.set('chatInfo.redoTime', '700');
    loose.send({ type: 'bindUid', user_id: bea.userId, token: bea.token });
    await loose.waitFor((f) => f.type === 'pong');
    await early.waitFor((f) => f.type === 'updateConfig' && f.data.chatInfo.redoTime === 700);
    await new Promise((r) => setTimeout(r, BROADCAST_BATCH_MS + 50));
    expect(loose.frames.some((f) => f.type === 'updateConfig')).toBe(false);
    await server.ctx.config.set('chatInfo.redoTime', '86400');
    await loose.waitFor((f) => f.type === 'updateConfig' && f.data.chatInfo.redoTime === 86400);
    early.close();
    loose.close();
  });

  it('writes a batch for everyone to each socket as exactly its frames, one message each, in order', async () => {
    const ann = await signUp(server, 'ann_batch');
    const rex = await signUp(server, 'rex_batch');
    const ben = await signUp(server, 'ben_batch');
    const { hub } = server.ctx.realtime;
    const a = await TestSocket.bound(server, ann.userId, ann.token);
    // A Raingad client's socket: bound over HTTP, it reads an announcement as a `simple` message and no `readAll`.
    const r = await TestSocket.open(server);
    await server.call('bindUid', { client_id: r.clientId, user_id: rex.userId }, { token: rex.token });
    const b = await TestSocket.open(server);
    const connB = hub.get(b.clientId)!;
    // The hub writes a batch to the connection under `ws`: it must be the one `ws` writes to.
    expect((connB.ws as unknown as { _socket: Socket })._socket).toBe(connB.socket);
    hub.flushBroadcasts();
    await Promise.all([a.roundTrip(), r.roundTrip(), b.roundTrip()]);
    const from = [a, r, b].map((s) => s.frames.length);

    const time = Math.floor(Date.now() / 1000);
    const online = (id: number) => ({ type: 'isOnline', time, data: { id, is_online: 1 } }) as const;
    // Payloads under 126 bytes, under 64 KiB and over it: each length form of a frame's header.
    const notice = (id: number, length: number) =>
      ({
        type: 'adminNotice',
        time,
        data: { id, title: `t${id}`, notice: 'n'.repeat(length), create_time: time },
      }) as const;
    const readAll = { type: 'readAll', time, data: { toContactId: rex.userId, msg_id: 1, is_group: 0 } } as const;
    const f1 = online(ann.userId);
    const f2 = notice(901, 300);
    const f4 = online(ben.userId);
    const f5 = notice(902, 70_000);
    const f6 = online(rex.userId);
    hub.broadcast(f1, ann.userId);
    hub.broadcast(f2);
    hub.broadcast(readAll);
    hub.bind(connB, ben.userId, 0, false);
    hub.broadcast(f4, ben.userId);
    hub.broadcast(f5);
    hub.broadcast(f6, rex.userId);
    hub.flushBroadcasts();
    await Promise.all([a.roundTrip(), r.roundTrip(), b.roundTrip()]);

    const got = (s: TestSocket, i: number) => s.frames.slice(from[i]).filter((f) => f.type !== 'pong');
    const simple = (f: ReturnType<typeof notice>) =>
      expect.objectContaining({
        type: 'simple',
        data: expect.objectContaining({
          id: `admin_notice-${f.data.id}`,
          extends: { title: f.data.title, notice: f.data.notice },
        }),
      });
    expect(got(a, 0)).toEqual([f2, readAll, f4, f5, f6]);
    expect(got(r, 1)).toEqual([f1, simple(f2), f4, simple(f5)]);
    expect(got(b, 2)).toEqual([f5, f6]);
    a.close();
    r.close();
    b.close();
  });

  it('writes a socket the frames for everyone before a push to it; the other sockets keep theirs for the batch', async () => {
    const [ivy, jon] = await Promise.all([signUp(server, 'ivy_order'), signUp(server, 'jon_order')]);
    const { hub } = server.ctx.realtime;
    const a = await TestSocket.bound(server, ivy.userId, ivy.token);
    const b = await TestSocket.bound(server, jon.userId, jon.token);
    hub.flushBroadcasts();
    await Promise.all([a.roundTrip(), b.roundTrip()]);
    const from = [a, b].map((s) => s.frames.length);
    const got = (s: TestSocket, i: number) => s.frames.slice(from[i]).filter((f) => f.type !== 'pong');

    const time = Math.floor(Date.now() / 1000);
    const online = { type: 'isOnline', time, data: { id: 990_001, is_online: 1 } } as const;
    const push = { type: 'isOnline', time, data: { id: 990_002, is_online: 0 } } as const;
    hub.broadcast(online);
    hub.deliver([ivy.userId], push);
    // The push took the frame before it to its own socket only: the other's waits for the batch.
    const [connA, connB] = [hub.get(a.clientId)!, hub.get(b.clientId)!];
    expect(connA.flushed).toBe(connB.flushed + 1);
    hub.flushBroadcasts();
    expect(connB.flushed).toBe(connA.flushed);
    await Promise.all([a.roundTrip(), b.roundTrip()]);
    expect(got(a, 0)).toEqual([online, push]);
    expect(got(b, 1)).toEqual([online]);
    a.close();
    b.close();
  });

  it('logout closes that session’s socket (4004), not another session’s', async () => {
    const jo = await signUp(server, 'jo_ws');
    const other = await logIn(server, 'jo_ws', jo.password);
    const a = await TestSocket.bound(server, jo.userId, jo.token);
    const b = await TestSocket.bound(server, jo.userId, other);
    expect((await server.call('logout', { client_id: a.clientId }, { token: jo.token })).code).toBe(0);
    expect(await a.waitClosed()).toBe(4004);
    expect(await b.roundTrip()).toEqual({ type: 'pong', multiport: false });
    b.close();
  });

  it('checks the sessions of heartbeats that arrive together with one statement', async () => {
    const people = await Promise.all(['hb1_ws', 'hb2_ws', 'hb3_ws', 'hb4_ws'].map((name) => signUp(server, name)));
    const socks = await Promise.all(people.map((p) => TestSocket.bound(server, p.userId, p.token)));
    const statements = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(/^sparrow_db_queries_total (\S+)/m.exec(text)![1]);
    };
    // A quiet moment first: what the binds set going has ended.
    await new Promise((r) => setTimeout(r, 200));
    const before = await statements();
    for (const sock of socks) sock.send({ type: 'ping' });
    await Promise.all(socks.map((sock) => sock.waitFor((f) => f.type === 'pong')));
    await new Promise((r) => setTimeout(r, 300));
    expect((await statements()) - before).toBe(1);
    // All four are still open: each of their sessions holds.
    for (const sock of socks) expect(await sock.roundTrip()).toMatchObject({ type: 'pong' });
    for (const sock of socks) sock.close();
  });

  it('closes a bound socket on its next heartbeat once its user is disabled elsewhere', async () => {
    const kit = await signUp(server, 'kit_ws');
    const sock = await TestSocket.bound(server, kit.userId, kit.token);
    await new AdminService(server.ctx.repos, server.ctx.config, server.clock.now).users.setStatus('kit_ws', false);
    sock.send({ type: 'ping' });
    expect(await sock.waitClosed()).toBe(4004);
  });

  describe('forced offline (multipleLogin 0)', () => {
    afterAll(async () => {
      await server.ctx.config.set('sysInfo.multipleLogin', '1');
    });

    it('a second mobile login sends offline to the first mobile session, closes it and revokes it; desktop stays', async () => {
      const lea = await signUp(server, 'lea_ws');
      await server.ctx.config.set('sysInfo.multipleLogin', '0');
      const phone1 = await logIn(server, 'lea_ws', lea.password, { headers: MOBILE });
      const desk = await logIn(server, 'lea_ws', lea.password, { headers: DESKTOP });
      const phoneSock = await TestSocket.bound(server, lea.userId, phone1, MOBILE);
      const deskSock = await TestSocket.bound(server, lea.userId, desk, DESKTOP);

      const phone2 = await logIn(server, 'lea_ws', lea.password, { headers: MOBILE });
      const offline = await phoneSock.waitFor((f) => f.type === 'offline');
      expect(offline.data).toEqual({ id: lea.userId, client_id: phoneSock.clientId, isMobile: true });
      expect(await phoneSock.waitClosed()).toBe(4004);
      expect((await server.call('checkuser', {}, { token: phone1 })).code).toBe(-1);

      expect(deskSock.frames.some((f) => f.type === 'offline')).toBe(false);
      expect(await deskSock.roundTrip()).toMatchObject({ type: 'pong' });
      expect((await server.call('checkuser', {}, { token: desk })).code).toBe(0);
      expect((await server.call('checkuser', {}, { token: phone2 })).code).toBe(0);
      deskSock.close();
    });

    it('tells each socket of the ended session its own client_id', async () => {
      const ned = await signUp(server, 'ned_ws');
      await server.ctx.config.set('sysInfo.multipleLogin', '0');
      const phone = await logIn(server, 'ned_ws', ned.password, { headers: MOBILE });
      const a = await TestSocket.bound(server, ned.userId, phone, MOBILE);
      const b = await TestSocket.bound(server, ned.userId, phone, MOBILE);
      await logIn(server, 'ned_ws', ned.password, { headers: MOBILE });
      for (const sock of [a, b]) {
        expect((await sock.waitFor((f) => f.type === 'offline')).data.client_id).toBe(sock.clientId);
        expect(await sock.waitClosed()).toBe(4004);
      }
    });

    it('with multipleLogin 1, two mobile sessions live side by side', async () => {
      await server.ctx.config.set('sysInfo.multipleLogin', '1');
      const max = await signUp(server, 'max_ws');
      const p1 = await logIn(server, 'max_ws', max.password, { headers: MOBILE });
      const sock = await TestSocket.bound(server, max.userId, p1, MOBILE);
      const p2 = await logIn(server, 'max_ws', max.password, { headers: MOBILE });
      expect(await sock.roundTrip()).toMatchObject({ type: 'pong' });
      expect(sock.frames.some((f) => f.type === 'offline')).toBe(false);
      expect((await server.call('checkuser', {}, { token: p1 })).code).toBe(0);
      expect((await server.call('checkuser', {}, { token: p2 })).code).toBe(0);
      sock.close();
    });
  });
});

describeEachDb('socket limits', (target) => {
  let server: TestServer;
  let log: LogLine[];
  beforeAll(async () => {
    server = await startServer(target, { logger: true, env: { logLevel: 'warn' } });
    log = captureLog(server.app);
  });
  afterAll(async () => {
    await server.close();
  });

  it('a frame over the size limit closes the socket (1009) with one warning naming the user, no error', async () => {
    const big = await signUp(server, 'big_frame');
    const sock = await TestSocket.bound(server, big.userId, big.token);
    const from = log.length;
    sock.ws.send('x'.repeat(10 * 1024 * 1024));
    expect(await sock.waitClosed(5000)).toBe(1009);
    await sleep(50);
    const lines = log.slice(from);
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
    const warnings = lines.filter((l) => l.level === WARN);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ userId: big.userId, clientId: sock.clientId });
    expect(warnings[0]!.err).toBeUndefined();
    expect(JSON.stringify(warnings[0])).not.toContain('    at ');
  });

  // 400 sends of the longest text, 20 MB in all: seconds of CPU, more beside other suites on two cores.
  it('cuts off a socket that stops reading before it holds more than MAX_BUFFERED_BYTES; sync after reconnecting misses nothing', async () => {
    const talker = await signUp(server, 'slow_talker');
    const reader = await signUp(server, 'slow_reader');
    await server.call('friendAdd', { user_id: reader.userId }, { token: talker.token });
    await server.call('friendAdd', { user_id: talker.userId }, { token: reader.token });
    await server.ctx.config.set('rateLimits.sendMessage.burst', '100000');
    await server.ctx.config.set('rateLimits.anyCall.perMinute', '100000');
    const sock = await TestSocket.bound(server, reader.userId, reader.token);
    const conn = server.ctx.realtime.hub.get(sock.clientId)!;
    // The cursor the web client has saved from its last sync: the newest message it was sent so far.
    let cursor = 0;
    for (;;) {
      const page = await server.call('sync', { after_id: cursor, limit: 200 }, { token: reader.token });
      if (page.data.length === 0) break;
      cursor = page.data.at(-1).msg_id as number;
    }
    // The client stops reading: what the kernel's buffers cannot take waits in the server.
    const raw = (sock.ws as unknown as { _socket: Socket })._socket;
    raw.pause();

    // 2,048 family emoji: the longest text message there is, 51 KB as UTF-8.
    const content = '👨‍👩‍👧‍👦'.repeat(2048);
    const COUNT = 400;
    const sentIds: number[] = [];
    const before = await heldArrayBuffers();
    let peakBuffered = 0;
    let peakHeld = 0;
    try {
      for (let i = 0; i < COUNT; i += 10) {
        const batch = await Promise.all(
          Array.from({ length: 10 }, () =>
            server.call(
              'sendMessage',
              { id: randomUUID(), toContactId: reader.userId, type: 'text', content },
              { token: talker.token },
            ),
          ),
        );
        for (const res of batch) {
          expect(res.code).toBe(0);
          sentIds.push(res.data.msg_id as number);
        }
        peakBuffered = Math.max(peakBuffered, conn.ws.bufferedAmount);
        if (i % 100 === 90) peakHeld = Math.max(peakHeld, (await heldArrayBuffers()) - before);
      }
    } finally {
      await server.ctx.config.set('rateLimits.sendMessage.burst', String(RATE_LIMITS.sendMessage.burst));
      await server.ctx.config.set('rateLimits.anyCall.perMinute', String(RATE_LIMITS.anyCall.perMinute));
    }
    const pushed = COUNT * Buffer.byteLength(content);
    expect(pushed).toBeGreaterThan(4 * MAX_BUFFERED_BYTES);
    expect(peakBuffered).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);
    expect(peakHeld).toBeLessThan(2 * MAX_BUFFERED_BYTES);
    // The server lets go of it: closed (1013) and destroyed when it does not read its close frame.
    const until = Date.now() + SLOW_CLOSE_GRACE_MS + 3000;
    while (server.ctx.realtime.hub.get(sock.clientId) && Date.now() < until) await sleep(50);
    expect(server.ctx.realtime.hub.get(sock.clientId)).toBeUndefined();
    expect(log.filter((l) => l.level === WARN && l.msg.includes('slow consumer'))).toEqual([
      expect.objectContaining({ userId: reader.userId, clientId: sock.clientId }),
    ]);
    raw.resume();
    expect([1006, 1013]).toContain(await sock.waitClosed(5000));

    // As the web client does on reconnect: bind again, then sync from its saved cursor. Pushes of
    // sends that ran side by side may arrive out of id order, so a held push moves no cursor.
    const held = new Set(sock.frames.filter((f) => f.type === 'simple').map((f) => f.data.msg_id as number));
    expect(held.size).toBeLessThan(COUNT);
    const again = await TestSocket.bound(server, reader.userId, reader.token);
    const synced: number[] = [];
    for (;;) {
      const page = await server.call('sync', { after_id: cursor, limit: 200 }, { token: reader.token });
      expect(page.code).toBe(0);
      if (page.data.length === 0) break;
      synced.push(...page.data.map((m: { msg_id: number }) => m.msg_id));
      cursor = page.data.at(-1).msg_id as number;
    }
    const ascending = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
    expect(synced).toEqual(ascending(sentIds));
    expect(ascending(new Set([...held, ...synced]))).toEqual(ascending(sentIds));
    again.close();
  }, 60_000);
  it('cuts off a socket that stops reading when a batch for everyone would pass MAX_BUFFERED_BYTES', async () => {
    const idle = await signUp(server, 'slow_batch');
    const sock = await TestSocket.bound(server, idle.userId, idle.token);
    const { hub } = server.ctx.realtime;
    const conn = hub.get(sock.clientId)!;
    (sock.ws as unknown as { _socket: Socket })._socket.pause();
    const time = Math.floor(Date.now() / 1000);
    const notice = 'n'.repeat(1024 * 1024);
    let peakBuffered = 0;
    for (let id = 1; id <= 40 && conn.ws.readyState === conn.ws.OPEN; id++) {
      hub.broadcast({ type: 'adminNotice', time, data: { id, title: 'big', notice, create_time: time } });
      hub.flushBroadcasts();
      peakBuffered = Math.max(peakBuffered, conn.ws.bufferedAmount);
    }
    expect(conn.ws.readyState).not.toBe(conn.ws.OPEN);
    expect(peakBuffered).toBeLessThanOrEqual(MAX_BUFFERED_BYTES);
    expect(log.filter((l) => l.level === WARN && l.msg.includes('slow consumer'))).toContainEqual(
      expect.objectContaining({ userId: idle.userId, clientId: sock.clientId }),
    );
    sock.ws.terminate();
  });
});

describeEachDb('socket time-outs', (target) => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    // Time-outs short enough for the tests' waits, long enough for a bind's database read on a
    // machine busy with the browser suite beside it (200 ms lost a bind there once).
    server = await startServer(target, { socket: { bindTimeoutMs: 1000, idleTimeoutMs: 1500 } });
    user = await signUp(server, 'timeout_user');
  });
  afterAll(async () => {
    await server.close();
  });

  // Each test waits on real timers with sockets of its own: they may wait side by side.
  describe.concurrent('on real timers', () => {
    it('closes a socket not bound in time (4002), even if it pings', async () => {
      const sock = await TestSocket.open(server);
      sock.send({ type: 'ping' });
      const started = Date.now();
      expect(await sock.waitClosed(3000)).toBe(4002);
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    });

    it('keeps a socket bound in time, over HTTP too', async () => {
      const byFrame = await TestSocket.bound(server, user.userId, user.token);
      const byHttp = await TestSocket.open(server);
      await server.call('bindUid', { client_id: byHttp.clientId, user_id: user.userId }, { token: user.token });
      for (let i = 0; i < 2; i++) {
        await sleep(150);
        byFrame.send({ type: 'ping' });
        byHttp.send({ type: 'ping' });
      }
      expect(byFrame.closeCode).toBeNull();
      expect(byHttp.closeCode).toBeNull();
      expect(await byFrame.roundTrip()).toMatchObject({ type: 'pong', multiport: true });
      byFrame.close();
      byHttp.close();
    });

    it('closes a silent socket (4003); a pinging one stays', async () => {
      const silent = await TestSocket.bound(server, user.userId, user.token);
      const chatty = await TestSocket.bound(server, user.userId, user.token);
      const timer = setInterval(() => chatty.send({ type: 'ping' }), 150);
      try {
        expect(await silent.waitClosed(4000)).toBe(4003);
        await sleep(200);
        expect(chatty.closeCode).toBeNull();
      } finally {
        clearInterval(timer);
      }
      expect(await chatty.waitClosed(4000)).toBe(4003);
    });

    it('closes every socket with 1012 when the server shuts down', async () => {
      const own = await startServer(target);
      const u = await signUp(own, 'shutdown_user');
      const bound = await TestSocket.bound(own, u.userId, u.token);
      const loose = await TestSocket.open(own);
      await own.close();
      expect(await bound.waitClosed()).toBe(1012);
      expect(await loose.waitClosed()).toBe(1012);
    });
  });
});
