// Reconnect storm (issue 25, benchmark 2): 5 000 users connected and bound; a sender keeps sending
// private messages to some of them. (a) The server process is killed (SIGKILL) and started again on
// the same port and data (SQLite, one process). (b) Two server processes on PostgreSQL + Redis, the
// users split over both: a redis-server this benchmark started on a port of its own is killed and
// started again, and the servers close every socket once Redis is back, since pushes from the other
// node may have been lost meanwhile. Every client retries as the web client does (its own
// reconnectDelay and retry limits, imported from packages/web), binds again and runs the web
// client's catch-up (`sync` pages from its cursor until none remain).
//
// Printed: the time from the fault until every user is bound again and until every user has caught
// up, the servers' peak CPU and RSS meanwhile, and, among the sends the server acknowledged, how
// many never reached their receiver (lost) and how many reached it as two messages (duplicated).
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { tsImport } from 'tsx/esm/api';
import {
  BENCH_SETTINGS,
  cpuMs,
  createPgDatabase,
  fmt,
  freePort,
  heartbeat,
  HttpClient,
  main,
  percentile,
  root,
  rssKb,
  seed,
  sleep,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';
import { LeanSocket } from './lean-socket.mjs';

const socketModule = path.join(root, 'packages/web/src/api/socket.ts');
const { reconnectDelay } = await tsImport(socketModule, import.meta.url);
const { RECONNECT_MAX_CLOSES, RECONNECT_MAX_OPEN_FAILURES, SYNC_PAGE } = {
  ...(await tsImport('@sparrow/protocol', socketModule)),
  ...(await tsImport(path.join(root, 'packages/web/src/chat/sync.ts'), import.meta.url)),
};

const USERS = Number(process.env.STORM_USERS ?? 5000);
/** Users the sender writes to, round robin. */
const RECEIVERS = Math.min(USERS, Number(process.env.STORM_RECEIVERS ?? 200));
const SENDS_PER_S = Number(process.env.STORM_SENDS_PER_S ?? 50);
/** How long Redis stays away in (b). */
const REDIS_DOWN_MS = Number(process.env.STORM_REDIS_DOWN_MS ?? 2000);
/**
 * 0 (the default): runMode 1, an organisation where everyone is everyone's contact, so each bind
 * announces itself to all 5 000 (25 million isOnline frames per storm). K > 0: runMode 0, a
 * community where each user has K friends around a ring, and a bind is announced to those K.
 */
const FRIENDS = Number(process.env.STORM_FRIENDS ?? 0);
const SEEDING = FRIENDS > 0 ? { friends: FRIENDS } : { settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'] };
const CONTACTS_SAID = FRIENDS > 0 ? `runMode 0, ${FRIENDS} friends each` : 'runMode 1, everyone a contact';
/** Which faults to run: server, redis or both. */
const FAULTS = (process.env.STORM_FAULTS ?? 'server,redis').split(',');
const GOAL_S = 10;
/** A fault's storm that has not settled by then is reported as it stands. */
const SETTLE_LIMIT_MS = 90_000;

/**
 * The frames a simulated client reads: init, pong and simple. The rest (isOnline above all, one per
 * user who binds, to every user of a runMode 1 organisation) is skipped by its type's first letters
 * (`{"type":"` is 9 bytes) without being copied out of what the socket read (bench/lean-socket.mjs),
 * as parsing millions of them would make this load generator, not the servers, the limit.
 */
function readByClient(chunk, start) {
  const t = chunk[start + 9];
  return t === 0x70 || t === 0x73 || (t === 0x69 && chunk[start + 10] === 0x6e);
}

/**
 * One user's web client, as packages/web/src/api/socket.ts and chat/sync.ts behave: binds on
 * `init`, pings every HEARTBEAT_MS, retries after reconnectDelay(attempt) up to the same limits, and after
 * every bind pages `sync` from its cursor until nothing remains.
 */
class Client {
  constructor(user, wsUrl, http, log) {
    Object.assign(this, { user, wsUrl, http, log });
    this.cursor = 0;
    this.attempts = 0;
    this.openFailures = 0;
    this.closes = 0;
    this.bound = false;
    this.gaveUp = false;
    this.boundAt = 0;
    this.caughtUpAt = 0;
    this.syncing = null;
    this.syncAgain = false;
  }

  connect() {
    this.attempts += 1;
    const ws = new LeanSocket(this.wsUrl, readByClient);
    this.ws = ws;
    let opened = false;
    ws.on('open', () => {
      opened = true;
      this.openFailures = 0;
    });
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === 'init') {
        ws.send(JSON.stringify({ type: 'bindUid', user_id: this.user.id, token: this.user.token }));
      } else if (frame.type === 'pong' && !this.bound) {
        this.bound = true;
        this.boundAt = performance.now();
        this.catchUp();
      } else if (frame.type === 'simple') {
        this.log.seen(this.user.id, frame.data, 'push');
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.bound = false;
      if (this.stopped) return;
      let retry;
      if (opened) retry = ++this.closes <= RECONNECT_MAX_CLOSES;
      else retry = ++this.openFailures <= RECONNECT_MAX_OPEN_FAILURES;
      if (!retry) {
        this.gaveUp = true;
        return;
      }
      this.retryTimer = setTimeout(() => this.connect(), reconnectDelay(this.openFailures + this.closes));
    });
  }

  /** Only once bound: the pong that answers bindUid is what tells a bound socket. */
  ping() {
    if (this.bound && this.ws?.readyState === LeanSocket.OPEN) {
      // A connection that lived a whole heartbeat is healthy: its later close starts a fresh count.
      this.closes = 0;
      this.ws.send('{"type":"ping"}');
    }
  }

  /** SyncRunner.request(): one run at a time, one more after it when asked meanwhile. */
  catchUp() {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = (async () => {
      do {
        this.syncAgain = false;
        try {
          for (let remaining = 1; remaining > 0;) {
            const res = await this.http.post(
              '/enterprise/im/sync',
              { after_id: this.cursor, limit: SYNC_PAGE },
              { authorization: this.user.token },
            );
            if (res.code !== 0) throw new Error(`${res.code} ${res.msg}`);
            for (const m of res.data) this.log.seen(this.user.id, m, 'sync');
            if (res.data.length) this.cursor = res.data[res.data.length - 1].msg_id;
            remaining = res.data.length ? (res.count ?? 0) : 0;
          }
          if (this.bound) this.caughtUpAt = performance.now();
        } catch {
          // Offline again: the next bind catches up.
          return;
        }
      } while (this.syncAgain);
    })().finally(() => {
      this.syncing = null;
    });
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.ws?.terminate();
  }
}

/** What every receiver got: per receiver, per message id, the msg_ids it came with and how. */
function deliveryLog() {
  const byUser = new Map();
  return {
    seen(userId, m, how) {
      let mine = byUser.get(userId);
      if (!mine) byUser.set(userId, (mine = new Map()));
      let e = mine.get(m.id);
      if (!e) mine.set(m.id, (e = { msgIds: new Set(), syncCopies: new Map(), pushes: 0 }));
      e.msgIds.add(m.msg_id);
      if (how === 'push') e.pushes += 1;
      else e.syncCopies.set(m.msg_id, (e.syncCopies.get(m.msg_id) ?? 0) + 1);
    },
    get: (userId, id) => byUser.get(userId)?.get(id),
  };
}

/** Opens every client, `width` at a time, and waits until all are bound and caught up. */
async function connectClients(clients, width = 50) {
  let next = 0;
  const worker = async () => {
    while (next < clients.length) {
      const c = clients[next++];
      c.connect();
      const deadline = Date.now() + 60_000;
      while (!(c.bound && c.caughtUpAt) && Date.now() < deadline) await sleep(2);
      if (!c.bound) throw new Error(`user ${c.user.id} did not bind`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, clients.length) }, worker));
}

/**
 * The sender: SENDS_PER_S private messages round robin to the receivers; a send that fails (server
 * away) is sent again with the same id until the server acknowledges it, as the web client's
 * outbox does. Every acknowledged send is recorded with the time of its acknowledgement.
 */
function startSender(sender, receivers, urls) {
  const acked = [];
  let failures = 0;
  let stopped = false;
  let n = 0;
  const https = urls.map((u) => new HttpClient(u, 16));
  const sendOne = async (i) => {
    const to = receivers[i % receivers.length];
    const id = randomUUID();
    const http = https[i % https.length];
    while (!stopped) {
      const res = await http
        .post(
          '/enterprise/im/sendMessage',
          { id, toContactId: to.id, type: 'text', content: `storm ${i}` },
          { authorization: sender.token },
        )
        .catch((err) => ({ code: -1, msg: String(err) }));
      if (res.code === 0) {
        acked.push({ id, to: to.id, at: performance.now() });
        return;
      }
      failures += 1;
      await sleep(250);
    }
  };
  const inflight = new Set();
  const start = performance.now();
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - start) / 1000) * SENDS_PER_S);
    for (; n < due; n++) {
      const p = sendOne(n).finally(() => inflight.delete(p));
      inflight.add(p);
    }
  }, 5);
  return {
    acked,
    failures: () => failures,
    /** Stops sending new messages and waits (up to 20 s) for those in flight to be acknowledged. */
    async stop() {
      clearInterval(timer);
      const until = Date.now() + 20_000;
      while (inflight.size && Date.now() < until) await sleep(20);
      stopped = true;
    },
  };
}

/** Peak CPU (% of one core, per 250 ms) and RSS of the server processes while it runs. */
function sampler(pidsOf) {
  const peak = { cpu: 0, rssKb: 0 };
  let last = new Map();
  let lastAt = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const next = new Map();
    for (const pid of pidsOf()) {
      try {
        const cpu = cpuMs(pid);
        next.set(pid, cpu);
        if (last.has(pid)) peak.cpu = Math.max(peak.cpu, ((cpu - last.get(pid)) / (now - lastAt)) * 100);
        peak.rssKb = Math.max(peak.rssKb, rssKb(pid));
      } catch {
        /* not running right now */
      }
    }
    last = next;
    lastAt = now;
  }, 250);
  return { peak, stop: () => clearInterval(timer) };
}

/** A redis-server of this benchmark's own, on a free port, killed and started again on it. */
async function ownRedis() {
  const port = await freePort();
  let child;
  const answers = () =>
    new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      const done = (ok) => {
        s.destroy();
        resolve(ok);
      };
      s.on('connect', () => s.write('PING\r\n'));
      s.on('data', (d) => done(String(d).startsWith('+PONG')));
      s.on('error', () => done(false));
    });
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!(await answers())) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
      await sleep(20);
    }
  };
  const kill = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  process.on('exit', () => child?.kill('SIGKILL'));
  return { url: `redis://127.0.0.1:${port}`, start, kill };
}

/**
 * Runs one fault under the storm: clients bound on `servers()` (split evenly), the sender going,
 * then `fault()`; waits until every client is bound and caught up again. Returns the figures.
 */
async function storm(name, users, servers, fault) {
  const [sender, ...rest] = users;
  const log = deliveryLog();
  const urls = servers().map((s) => s.url);
  const https = urls.map((u) => new HttpClient(u, 64));
  const clients = rest.map(
    (u, i) => new Client(u, `${urls[i % urls.length].replace('http', 'ws')}/wss`, https[i % https.length], log),
  );
  const t0 = performance.now();
  await connectClients(clients);
  const connectS = (performance.now() - t0) / 1000;
  const stopHeartbeat = heartbeat(clients, (c) => c.ping());
  // In runMode 0 the sender may write to its friends only: its neighbours around the ring.
  const receivers =
    FRIENDS > 0 ? [...rest.slice(0, FRIENDS / 2), ...rest.slice(rest.length - FRIENDS / 2)] : rest.slice(0, RECEIVERS);
  const send = startSender(sender, receivers, urls);
  await sleep(2000);

  const watch = sampler(() => servers().map((s) => s.pid));
  const load = os.loadavg()[0];
  for (const c of clients) c.attempts = 0;
  const faultAt = performance.now();
  const { backAt } = await fault();
  let boundAt = 0;
  let caughtUpAt = 0;
  const settleBy = Date.now() + SETTLE_LIMIT_MS;
  for (;;) {
    // Bound since the fault: a client may bind to a restarted server before its health check answers.
    const down = clients.filter((c) => !c.bound || c.boundAt < faultAt);
    const behind = clients.filter((c) => c.caughtUpAt < faultAt || c.caughtUpAt < c.boundAt);
    if (!boundAt && down.length === 0) boundAt = Math.max(...clients.map((c) => c.boundAt));
    if (down.length === 0 && behind.length === 0) {
      caughtUpAt = Math.max(...clients.map((c) => c.caughtUpAt));
      break;
    }
    const stuck = clients.some((c) => c.gaveUp) && clients.every((c) => c.bound || c.gaveUp);
    if (stuck || Date.now() > settleBy) break;
    await sleep(20);
  }
  const gaveUp = clients.filter((c) => c.gaveUp).length;
  const stillDown = clients.filter((c) => !c.bound).length;
  const connecting = clients.filter((c) => c.ws?.readyState === LeanSocket.CONNECTING).length;
  const rebound = clients.filter((c) => c.boundAt >= faultAt).map((c) => (c.boundAt - faultAt) / 1000);
  const spread = [0.5, 0.9, 0.99].map((p) => fmt(percentile(rebound, p), 1)).join(' / ');
  const attempts = clients.map((c) => c.attempts);
  // A little more traffic on the recovered servers, then every acknowledged send is judged.
  await sleep(2000);
  await send.stop();
  await sleep(2000);
  for (const c of clients) c.catchUp();
  const until = Date.now() + 20_000;
  while (clients.some((c) => c.syncing) && Date.now() < until) await sleep(20);
  watch.stop();
  stopHeartbeat();
  for (const c of clients) c.stop();

  let lost = 0;
  let duplicated = 0;
  let duringOutage = 0;
  const end = caughtUpAt || performance.now();
  for (const a of send.acked) {
    if (a.at >= faultAt && a.at <= end) duringOutage += 1;
    const e = log.get(a.to, a.id);
    if (!e) lost += 1;
    else if (e.msgIds.size > 1 || [...e.syncCopies.values()].some((n) => n > 1)) duplicated += 1;
  }
  const secs = (t) => (t ? `${fmt((t - faultAt) / 1000, 1)} s` : 'never');
  console.log(
    `${name}: back after ${secs(backAt)}, all bound after ${secs(boundAt)}, all caught up after ${secs(caughtUpAt)}; ` +
      `${lost} lost, ${duplicated} duplicated of ${send.acked.length} acknowledged; ` +
      `at the end ${stillDown} not bound (${gaveUp} past the retry limits, ${connecting} still opening); ` +
      `bound again after p50 / p90 / p99 ${spread} s; connection attempts per client: ` +
      `mean ${fmt(attempts.reduce((x, y) => x + y, 0) / attempts.length, 1)}, most ${Math.max(...attempts)}`,
  );
  return {
    name,
    load,
    connectS,
    serverBackS: (backAt - faultAt) / 1000,
    boundS: boundAt ? (boundAt - faultAt) / 1000 : NaN,
    caughtUpS: caughtUpAt ? (caughtUpAt - faultAt) / 1000 : NaN,
    peak: watch.peak,
    acked: send.acked.length,
    duringOutage,
    retries: send.failures(),
    lost,
    duplicated,
    gaveUp,
    stillDown,
  };
}

await main('reconnect-storm', async () => {
  const results = [];
  if (FAULTS.includes('server')) {
    const dir = tmpDir('storm');
    const users = await seed({ dataDir: dir, users: USERS + 1, settings: BENCH_SETTINGS, ...SEEDING });
    let server = await startSparrow({ dataDir: dir, label: 'sparrow', compiled: true });
    const port = Number(new URL(server.url).port);
    results.push(
      await storm(
        'server killed and restarted (SQLite, one process)',
        users,
        () => [server],
        async () => {
          process.kill(server.pid, 'SIGKILL');
          server = await startSparrow({ dataDir: dir, port, label: 'sparrow (restarted)', compiled: true });
          return { backAt: performance.now() };
        },
      ),
    );
    await server.stop();
  }
  if (FAULTS.includes('redis')) {
    const databaseUrl = await createPgDatabase();
    if (!databaseUrl) throw new Error('PostgreSQL does not answer (DATABASE_URL)');
    const dir = tmpDir('storm-redis');
    const redis = await ownRedis();
    const users = await seed({
      dataDir: dir,
      databaseUrl,
      users: USERS + 1,
      settings: BENCH_SETTINGS,
      ...SEEDING,
    });
    const redisPrefix = `sparrow-bench-${randomUUID()}:`;
    // One after the other: the first builds the server bundle when it is stale, the second finds it built.
    const nodes = [];
    for (const label of ['node A', 'node B'])
      nodes.push(
        await startSparrow({ dataDir: dir, databaseUrl, redisUrl: redis.url, redisPrefix, label, compiled: true }),
      );
    results.push(
      await storm(
        'Redis killed and restarted (PostgreSQL + Redis, two processes)',
        users,
        () => nodes,
        async () => {
          await redis.kill();
          await sleep(REDIS_DOWN_MS);
          await redis.start();
          return { backAt: performance.now() };
        },
      ),
    );
    await Promise.all(nodes.map((n) => n.stop()));
    await redis.kill();
  }

  console.log(
    `${USERS} users bound (plus one sender, not connected; ${CONTACTS_SAID}); ${SENDS_PER_S} private messages/s to ${FRIENDS || RECEIVERS} of them; ` +
      `clients retry with the web client's reconnectDelay (full jitter over a window of 1 s doubling to 15 s); ${os.cpus().length} cores\n`,
  );
  table([
    [
      'fault',
      'load avg',
      'first bind s',
      'back s',
      'all bound s',
      'all caught up s',
      'peak CPU %',
      'peak RSS MB',
      'acked',
      'acked in outage',
      'lost',
      'duplicated',
    ],
    ...results.map((r) => [
      r.name,
      fmt(r.load),
      fmt(r.connectS, 1),
      fmt(r.serverBackS, 1),
      fmt(r.boundS, 1),
      fmt(r.caughtUpS, 1),
      fmt(r.peak.cpu, 0),
      fmt(r.peak.rssKb / 1024, 0),
      r.acked,
      r.duringOutage,
      r.lost,
      r.duplicated,
    ]),
  ]);
  console.log(
    '\nTimes are from the fault (the kill); "back" is when the server answers again (or Redis is started again).',
  );
  for (const r of results) {
    if (r.gaveUp || r.stillDown)
      console.log(`${r.name}: ${r.stillDown} clients not bound at the end, ${r.gaveUp} gave up (retry limit)`);
    verdict(
      r.caughtUpS <= GOAL_S && r.lost === 0 && r.duplicated === 0,
      `reconnect-storm, ${r.name}, ${CONTACTS_SAID}: ${USERS} bound and caught up ${fmt(r.caughtUpS, 1)} s after the fault ` +
        `(${fmt(r.caughtUpS - r.serverBackS, 1)} s after it was back; goal <= ${GOAL_S} s), ` +
        `${r.lost} lost, ${r.duplicated} duplicated of ${r.acked} acknowledged (goal 0, 0); load average ${fmt(r.load)}`,
    );
  }
});
