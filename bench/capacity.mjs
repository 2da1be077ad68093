// Capacity (issue 25, benchmark 1): how many active users one small server holds. Simulated users
// do what people do in a messenger: every one connected and bound (pinging like the web client);
// per minute each sends about one message (80 % to a friend, 20 % to their group of 50), opens a
// conversation (getMessageList) and marks it read, and now and then refreshes the contact list
// (getContacts). Users arrive gradually: each opens the app (binds its socket, loads getContacts);
// a few sign in with their password first, the rest come back with their session, as a browser does.
//
// The number of users goes up step by step; each step is held for a window and judged by the health
// limits of Mattermost's ceiling tests: average request ≤ 100 ms, p99 ≤ 2 s, errors and time-outs
// < 0.025 % (a push that never reached a bound receiver counts as an error), server CPU ≤ 85 % of its
// core. The largest step that held is printed: on SQLite with one process (pinned to core 0, this
// load generator on core 1), and on PostgreSQL + Redis with two processes (on any core, or pinned to
// cores 0 and 1 with CAPACITY_PIN=cores; the users split over both).
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import {
  BENCH_SETTINGS,
  bindSocket,
  cpuMs,
  cpuMsOfCommand,
  createPgDatabase,
  fmt,
  heartbeat,
  HttpClient,
  main,
  percentile,
  pingSocket,
  rssKb,
  runQueueWaitMs,
  seed,
  sleep,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';

const env = process.env;
const STEPS = (env.CAPACITY_STEPS ?? '1000,2000,3000,4000,5000,6000,8000,10000').split(',').map(Number);
/** How long each step is held and measured, once its users have all arrived. */
const WINDOW_S = Number(env.CAPACITY_WINDOW_S ?? 60);
/** Users arriving per second. */
const ARRIVALS_PER_S = Number(env.CAPACITY_ARRIVALS_PER_S ?? 100);
/** Share of arriving users who sign in with their password (one scrypt each) before opening the app. */
const PASSWORD_SHARE = Number(env.CAPACITY_PASSWORD_SHARE ?? 0.05);
const DATABASES = (env.CAPACITY_DATABASES ?? 'sqlite,postgres').split(',');
/**
 * The PostgreSQL + Redis servers are left to the scheduler on every core, as a deployment runs
 * them; `cores` pins each to a core of its own while PostgreSQL, Redis and the load are not, which
 * on two cores costs each server a third of every second waiting for its core (docs/decisions.md "What bounds PostgreSQL + Redis on two cores").
 */
const PIN = env.CAPACITY_PIN ?? 'none';
const GROUP_SIZE = 50;
const FRIENDS = 20;
/** What one user does per minute. */
const PER_MINUTE = { send: 1, open: 1, contacts: 0.2 };
const PRIVATE_SHARE = 0.8;
/** A request not answered by then is a time-out, an error. */
const TIMEOUT_MS = 10_000;
/** A push not arrived by then is lost, an error. */
const PUSH_GRACE_MS = 10_000;
const LIMITS = { avgMs: 100, p99Ms: 2000, errorShare: 0.00025, cpuPercent: 85 };
const GOAL_USERS = 4000;
const PASSWORD = 'bench-password';

/**
 * CPU used so far by what shares the machine with the servers: PostgreSQL, Redis and this load
 * generator, ms; with `before` and a window's seconds, each as % of one core over the window.
 */
function machineCpu(before, seconds) {
  const own = process.cpuUsage();
  const now = {
    postgres: cpuMsOfCommand('postgres'),
    redis: cpuMsOfCommand('redis-server'),
    load: (own.user + own.system) / 1000,
  };
  if (!before) return now;
  const share = (k) => ((now[k] - before[k]) / (seconds * 1000)) * 100;
  return { postgres: share('postgres'), redis: share('redis'), load: share('load') };
}

/** Pins this process (every thread) to `cpus`. */
function pinSelf(cpus) {
  execFileSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' });
}

/** A server's /metrics, read once for the figures below. */
async function scrape(url) {
  return (await fetch(`${url}/metrics`)).text();
}

/** One unlabelled series of a scrape, or `fallback` when it is missing. */
const sample = (text, name, fallback = NaN) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? fallback);

/**
 * The longest a server's event loop stalled since the last call, ms: its /metrics (prom-client's
 * event loop delay, reset at each scrape).
 */
async function serverStall(url) {
  return sample(await scrape(url), 'nodejs_eventloop_lag_max_seconds') * 1000;
}

/**
 * What a server says of its own work so far, from its /metrics: per route, the requests and their
 * seconds from arrival to answer; and its database statements and their seconds.
 */
async function serverTimes(url) {
  const text = await scrape(url);
  const routes = new Map();
  for (const m of text.matchAll(
    /^sparrow_http_request_duration_seconds_(sum|count)\{[^}]*route="([^"]+)"[^}]*\} (\S+)/gm,
  )) {
    const r = routes.get(m[2]) ?? { sum: 0, count: 0 };
    r[m[1]] += Number(m[3]);
    routes.set(m[2], r);
  }
  return {
    routes,
    dbSeconds: sample(text, 'sparrow_db_query_seconds_total', 0),
    dbQueries: sample(text, 'sparrow_db_queries_total', 0),
  };
}

/** The servers' own figures over a window: per route average ms inside the server, and database time. */
function serverWindow(before, after) {
  const routes = new Map();
  let dbSeconds = 0;
  let dbQueries = 0;
  after.forEach((a, k) => {
    for (const [route, r] of a.routes) {
      const b = before[k].routes.get(route) ?? { sum: 0, count: 0 };
      const t = routes.get(route) ?? { sum: 0, count: 0 };
      t.sum += r.sum - b.sum;
      t.count += r.count - b.count;
      routes.set(route, t);
    }
    dbSeconds += a.dbSeconds - before[k].dbSeconds;
    dbQueries += a.dbQueries - before[k].dbQueries;
  });
  const shown = [...routes]
    .filter(([, r]) => r.count > 0)
    .map(([route, r]) => `${route.split('/').pop()} ${fmt((r.sum / r.count) * 1000, 1)}`)
    .join('; ');
  return `inside the servers, avg ms: ${shown}; ${dbQueries} statements, avg ${fmt((dbSeconds / Math.max(1, dbQueries)) * 1000, 2)} ms`;
}

/** One step's figures, filled while its window is open. */
function windowStats() {
  return {
    requests: 0,
    errors: 0,
    /** Request path → each request's latency, ms. */
    byPath: new Map(),
    pushes: 0,
    pushLatencies: [],
    lost: 0,
    failures: new Map(),
  };
}

/**
 * The simulated users on `servers`: user i on server i mod n. `stats` is the current window's;
 * requests and pushes count in the window they started in.
 */
class Crowd {
  constructor(users, servers) {
    this.users = users;
    this.servers = servers;
    this.https = servers.map((s) => new HttpClient(s.url, 256, TIMEOUT_MS));
    /** Index in `users` → the bound socket. */
    this.online = new Map();
    this.active = [];
    this.stats = windowStats();
    /** Message id → the receivers still to be reached, when it was sent, and its window's stats. */
    this.awaited = new Map();
    this.stopHeartbeat = heartbeat(this.active, (i) => {
      const s = this.online.get(i);
      if (s) pingSocket(s);
    });
    this.sweeper = setInterval(() => this.sweep(), 1000);
  }

  async call(i, path, body) {
    const stats = this.stats;
    const started = performance.now();
    stats.requests += 1;
    const took = () => {
      const ms = performance.now() - started;
      let mine = stats.byPath.get(path);
      if (!mine) stats.byPath.set(path, (mine = []));
      mine.push(ms);
    };
    const fail = (why) => {
      stats.errors += 1;
      stats.failures.set(why, (stats.failures.get(why) ?? 0) + 1);
    };
    try {
      const res = await this.https[i % this.https.length].post(path, body, { authorization: this.users[i].token });
      took();
      if (res.code !== 0) fail(`${path} ${res.code} ${res.msg}`);
      return res;
    } catch (err) {
      took();
      fail(`${path} ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  }

  /** A user opens the app: maybe a password sign-in, then the socket bound and the contact list. */
  async arrive(i) {
    const user = this.users[i];
    if (Math.random() < PASSWORD_SHARE) {
      const res = await this.call(i, '/common/Pub/login', { account: user.account, password: PASSWORD });
      if (res?.code === 0) user.token = res.data.authToken;
    }
    const url = this.servers[i % this.servers.length].url;
    try {
      const socket = await bindSocket(`${url.replace('http', 'ws')}/wss`, user, {
        onFrame: (_, data) => this.frame(i, data),
        timeoutMs: TIMEOUT_MS,
      });
      this.online.set(i, socket);
      this.active.push(i);
    } catch (err) {
      this.stats.requests += 1;
      this.stats.errors += 1;
      const why = `bind ${err instanceof Error ? err.message : String(err)}`;
      this.stats.failures.set(why, (this.stats.failures.get(why) ?? 0) + 1);
      return;
    }
    await this.call(i, '/enterprise/im/getContacts', {});
  }

  /** A chat of user i: a friend (around the ring of all users) or, PRIVATE_SHARE of the time not, the group. */
  chatOf(i) {
    if (Math.random() < PRIVATE_SHARE) {
      const k = 1 + Math.floor(Math.random() * (FRIENDS / 2));
      const friend = (i + (Math.random() < 0.5 ? k : this.users.length - k)) % this.users.length;
      return { toContactId: this.users[friend].id, is_group: 0, receivers: [friend] };
    }
    const first = Math.floor(i / GROUP_SIZE) * GROUP_SIZE;
    const members = [];
    for (let j = first; j < Math.min(first + GROUP_SIZE, this.users.length); j++) if (j !== i) members.push(j);
    return { toContactId: `group-${this.users[i].group}`, is_group: 1, receivers: members };
  }

  async send(i) {
    const { toContactId, is_group, receivers } = this.chatOf(i);
    const id = randomUUID();
    const waiting = new Set(receivers.filter((r) => this.online.has(r)));
    const entry = { waiting, at: performance.now(), stats: this.stats };
    if (waiting.size) this.awaited.set(id, entry);
    const res = await this.call(i, '/enterprise/im/sendMessage', {
      id,
      toContactId,
      is_group,
      type: 'text',
      content: `capacity ${id.slice(0, 8)}`,
    });
    // Refused: nothing was stored, nothing is to come.
    if (res?.code !== 0) this.awaited.delete(id);
  }

  async open(i) {
    const { toContactId, is_group } = this.chatOf(i);
    const page = await this.call(i, '/enterprise/im/getMessageList', { toContactId, is_group, limit: 30 });
    if (page?.code !== 0) return;
    const newest = page.data[page.data.length - 1]?.msg_id;
    await this.call(i, '/enterprise/im/setMsgIsRead', { toContactId, is_group, ...(newest ? { msg_id: newest } : {}) });
  }

  frame(i, data) {
    // Pongs and the rest are not awaited: only message pushes are parsed.
    if (data[9] !== 0x73 && data[9] !== 0x67) return;
    const frame = JSON.parse(String(data));
    if (frame.type !== 'simple' && frame.type !== 'group') return;
    const entry = this.awaited.get(frame.data.id);
    if (!entry || !entry.waiting.delete(i)) return;
    entry.stats.pushes += 1;
    entry.stats.pushLatencies.push(performance.now() - entry.at);
    if (entry.waiting.size === 0) this.awaited.delete(frame.data.id);
  }

  /** Pushes overdue are lost: each missing receiver is an error of the window the send started in. */
  sweep() {
    const now = performance.now();
    for (const [id, entry] of this.awaited) {
      if (now - entry.at < PUSH_GRACE_MS) continue;
      entry.stats.lost += entry.waiting.size;
      this.awaited.delete(id);
    }
  }

  /** Runs the per-minute activity of every active user until stopped. */
  startActivity() {
    let last = performance.now();
    const owed = { send: 0, open: 0, contacts: 0 };
    const timer = setInterval(() => {
      const now = performance.now();
      const minutes = (now - last) / 60_000;
      last = now;
      const n = this.active.length;
      if (n === 0) return;
      for (const kind of Object.keys(owed)) {
        owed[kind] += n * PER_MINUTE[kind] * minutes;
        for (; owed[kind] >= 1; owed[kind] -= 1) {
          const i = this.active[Math.floor(Math.random() * n)];
          if (kind === 'send') void this.send(i);
          else if (kind === 'open') void this.open(i);
          else void this.call(i, '/enterprise/im/getContacts', {});
        }
      }
    }, 20);
    return () => clearInterval(timer);
  }

  /** Brings the number of active users up to `target`, ARRIVALS_PER_S a second. */
  async grow(target) {
    const from = this.active.length;
    const started = performance.now();
    const arrivals = [];
    for (let i = from; i < target; i++) {
      const due = started + ((i - from) / ARRIVALS_PER_S) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      arrivals.push(this.arrive(i));
    }
    await Promise.all(arrivals);
  }

  stop() {
    this.stopHeartbeat();
    clearInterval(this.sweeper);
    for (const s of this.online.values()) s.ws.terminate();
  }
}

/** Judges one window against the health limits; answers the row, whether it held and why not. */
function judge(users, stats, seconds, cpu, rssMb, stalls) {
  const latencies = [...stats.byPath.values()].flat();
  const avg = latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length);
  const p99 = percentile(latencies, 0.99);
  const errors = stats.errors + stats.lost;
  const errorShare = errors / Math.max(1, stats.requests + stats.pushes + stats.lost);
  const broken = [];
  if (avg > LIMITS.avgMs) broken.push(`average ${fmt(avg, 0)} ms > ${LIMITS.avgMs}`);
  if (p99 > LIMITS.p99Ms) broken.push(`p99 ${fmt(p99, 0)} ms > ${LIMITS.p99Ms}`);
  if (errorShare >= LIMITS.errorShare) broken.push(`errors ${fmt(errorShare * 100, 3)} % >= 0.025 %`);
  const busiest = Math.max(...cpu);
  if (busiest > LIMITS.cpuPercent) broken.push(`CPU ${fmt(busiest, 0)} % > ${LIMITS.cpuPercent}`);
  return {
    held: broken.length === 0,
    broken,
    row: [
      users,
      fmt(stats.requests / seconds, 0),
      fmt(avg, 1),
      fmt(p99, 0),
      `${errors} (${fmt(errorShare * 100, 3)} %)`,
      fmt(stats.pushes / seconds, 0),
      fmt(percentile(stats.pushLatencies, 0.99), 0),
      cpu.map((c) => fmt(c, 0)).join(' / '),
      rssMb.map((r) => fmt(r, 0)).join(' / '),
      stalls.server.map((x) => fmt(x, 0)).join(' / '),
      fmt(stalls.client, 0),
      broken.length ? 'broke' : 'held',
    ],
  };
}

/** Ramps the users on `servers` step by step until a step breaks the limits; answers the largest that held. */
async function ramp(name, users, servers) {
  const crowd = new Crowd(users, servers);
  const stopActivity = crowd.startActivity();
  const rows = [];
  let held = 0;
  const failures = new Map();
  let lost = 0;
  try {
    for (const step of STEPS.filter((s) => s <= users.length)) {
      // A step is judged from its first arrival to the end of its window; CPU over the window only,
      // once the step's users are all there.
      const stats = windowStats();
      crowd.stats = stats;
      const opened = performance.now();
      const timesBefore = await Promise.all(servers.map((s) => serverTimes(s.url)));
      await crowd.grow(step);
      const cpuBefore = servers.map((s) => cpuMs(s.pid));
      const machineBefore = machineCpu();
      const waitedBefore = servers.map((s) => runQueueWaitMs(s.pid));
      await Promise.all(servers.map((s) => serverStall(s.url)));
      const ownLoop = monitorEventLoopDelay({ resolution: 10 });
      ownLoop.enable();
      const t0 = performance.now();
      await sleep(WINDOW_S * 1000);
      const seconds = (performance.now() - t0) / 1000;
      const judged = (performance.now() - opened) / 1000;
      const cpu = servers.map((s, k) => ((cpuMs(s.pid) - cpuBefore[k]) / (seconds * 1000)) * 100);
      const machine = machineCpu(machineBefore, seconds);
      const waited = servers.map((s, k) => (runQueueWaitMs(s.pid) - waitedBefore[k]) / seconds);
      ownLoop.disable();
      const stalls = { server: await Promise.all(servers.map((s) => serverStall(s.url))), client: ownLoop.max / 1e6 };
      crowd.stats = windowStats();
      // The window's last sends get their pushes' grace before it is judged.
      await sleep(PUSH_GRACE_MS + 1000);
      const verdictRow = judge(
        step,
        stats,
        judged,
        cpu,
        servers.map((s) => rssKb(s.pid) / 1024),
        stalls,
      );
      rows.push(verdictRow.row);
      for (const [why, n] of stats.failures) failures.set(why, (failures.get(why) ?? 0) + n);
      lost += stats.lost;
      console.log(`${name}: ${step} users ${verdictRow.held ? 'held' : `broke: ${verdictRow.broken.join(', ')}`}`);
      const byPath = [...stats.byPath]
        .map(
          ([p, ms]) =>
            `${p.split('/').pop()} ${ms.length} × avg ${fmt(ms.reduce((a, b) => a + b, 0) / ms.length, 0)} / p99 ${fmt(percentile(ms, 0.99), 0)} ms`,
        )
        .join('; ');
      console.log(`  by request: ${byPath}`);
      console.log(`  ${serverWindow(timesBefore, await Promise.all(servers.map((s) => serverTimes(s.url))))}`);
      console.log(
        `  the machine's CPU over the window, % of one core: servers ${cpu.map((c) => fmt(c, 0)).join(' + ')}, ` +
          `PostgreSQL ${fmt(machine.postgres, 0)}, Redis ${fmt(machine.redis, 0)}, this load generator ${fmt(machine.load, 0)}; ` +
          `${fmt(cpu.reduce((a, b) => a + b, 0) + machine.postgres + machine.redis + machine.load, 0)} of ${os.cpus().length * 100}; ` +
          `each server's event loop waited for its core ${waited.map((w) => fmt(w, 0)).join(' / ')} ms per second`,
      );
      if (!verdictRow.held) break;
      held = step;
    }
  } finally {
    stopActivity();
    crowd.stop();
  }
  console.log(`\n${name}`);
  table([
    [
      'users',
      'req/s',
      'avg ms',
      'p99 ms',
      'errors',
      'pushes/s',
      'push p99 ms',
      'CPU %',
      'RSS MB',
      'longest server stall ms',
      'longest load stall ms',
      '',
    ],
    ...rows,
  ]);
  for (const [why, n] of [...failures].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`  ${n}× ${why}`);
  if (lost) console.log(`  ${lost} pushes never reached a bound receiver`);
  return held;
}

await main('capacity', async () => {
  const most = Math.max(...STEPS);
  const settings = BENCH_SETTINGS;
  const results = [];
  if (DATABASES.includes('sqlite')) {
    const dir = tmpDir('capacity');
    const users = await seed({ dataDir: dir, users: most, settings, friends: FRIENDS, groupSize: GROUP_SIZE });
    const server = await startSparrow({ dataDir: dir, compiled: true, cpus: '0' });
    pinSelf('1');
    results.push(['SQLite, one process on core 0', await ramp('SQLite, one process', users, [server])]);
    pinSelf(`0-${os.cpus().length - 1}`);
    await server.stop();
  }
  if (DATABASES.includes('postgres')) {
    if (!env.REDIS_URL) throw new Error('REDIS_URL is not set and nothing answers on 127.0.0.1:6379');
    const databaseUrl = await createPgDatabase();
    if (!databaseUrl) throw new Error('PostgreSQL does not answer (DATABASE_URL)');
    const dir = tmpDir('capacity-pg');
    const users = await seed({
      dataDir: dir,
      databaseUrl,
      users: most,
      settings,
      friends: FRIENDS,
      groupSize: GROUP_SIZE,
    });
    const redisPrefix = `sparrow-bench-${randomUUID()}:`;
    const nodes = [];
    const all = `0-${os.cpus().length - 1}`;
    for (const [i, cpus] of (PIN === 'none' ? [all, all] : ['0', '1']).entries())
      nodes.push(
        await startSparrow({
          dataDir: dir,
          databaseUrl,
          redisUrl: env.REDIS_URL,
          redisPrefix,
          label: `node ${i}`,
          compiled: true,
          cpus,
        }),
      );
    results.push([
      PIN === 'none'
        ? 'PostgreSQL + Redis, two processes on any core'
        : 'PostgreSQL + Redis, two processes on cores 0 and 1',
      await ramp('PostgreSQL + Redis, two processes', users, nodes),
    ]);
    await Promise.all(nodes.map((n) => n.stop()));
  }
  console.log(
    `\nPer user and minute: ${PER_MINUTE.send} message (${PRIVATE_SHARE * 100} % private, the rest in a group of ${GROUP_SIZE}), ` +
      `${PER_MINUTE.open} conversation opened and marked read, ${PER_MINUTE.contacts} contact list refresh; a ping every 25 s. ` +
      `${ARRIVALS_PER_S} arrivals/s, ${PASSWORD_SHARE * 100} % with a password sign-in; ${WINDOW_S} s per step; ` +
      `${os.cpus().length} cores, load average ${fmt(os.loadavg()[0])}.`,
  );
  console.log("Mattermost's published ceiling for one 2-vCPU app node: 217-1,075 users.");
  for (const [name, users] of results)
    verdict(
      users >= GOAL_USERS,
      `capacity, ${name}: ${users} active users held (goal >= ${GOAL_USERS}; steps ${STEPS.join(', ')})`,
    );
});
