// What the benchmarks share: server processes (Sparrow and the baseline), seeding, a keep-alive
// HTTP client, sockets that bind like the web client, percentiles and the printed verdicts.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WebSocket } from 'ws';
import { readJson } from './relay.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = path.join(root, 'packages/server/src/main.ts');
const baselineMain = path.join(root, 'bench/baseline-server.mjs');
const floorMain = path.join(root, 'bench/floor-server.mjs');
const seedMain = path.join(root, 'bench/seed.mjs');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Everything a benchmark started, stopped when it ends however it ends. */
const cleanups = [];
let cleaned = false;
export async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
const children = new Set();

export function tmpDir(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sparrow-bench-${name}-`));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Runs node with `args`; with `cpus` ("0", "0-1"), through taskset, on those cores only, every thread. */
function run(args, env, label, cpus) {
  const [command, argv] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const log = [];
  const keep = (d) => {
    log.push(String(d));
    if (log.length > 200) log.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', () => children.delete(child));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  cleanups.push(stop);
  return { child, log, stop, label };
}

/**
 * Prepares users (with sessions) and configuration in a Sparrow database, through the server's own
 * code; `friends` and `groupSize` as bench/seed.mjs's --friends and --group-size.
 */
export async function seed({ dataDir, databaseUrl, users, settings = [], friends = 0, groupSize = 0 }) {
  const out = path.join(dataDir, `users-${randomUUID()}.json`);
  const p = run(
    ['--import', 'tsx', seedMain, out, String(users), ...settings, `--friends=${friends}`, `--group-size=${groupSize}`],
    { DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' },
    'seed',
  );
  const code = await new Promise((r) => p.child.on('exit', r));
  if (code !== 0) throw new Error(`seeding failed:\n${p.log.join('')}`);
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

/** The configuration every benchmark runs with: rate limits out of the way. */
export const BENCH_SETTINGS = [
  'rateLimits.anyCall.perMinute=10000000',
  'rateLimits.sendMessage.burst=10000000',
  'rateLimits.sendMessage.perSecond=10000000',
];

async function waitReady(url, proc) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.label} exited:\n${proc.log.join('')}`);
    try {
      const res = await fetch(`${url}/common/Pub/getSystemInfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${proc.label} did not start:\n${proc.log.join('')}`);
    await sleep(100);
  }
}

/** BENCH_CPU_PROF=<dir> writes a CPU profile of every server process there, to see where time goes. */
const cpuProf = () =>
  process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/**
 * A Sparrow server process, without the web client. `compiled` runs the esbuild bundle as
 * `npm start` runs it (packages/server/dist/main.js, built when missing or stale, with
 * `--enable-source-maps`); otherwise the TypeScript source runs through tsx. `cpus` pins it to cores.
 */
export async function startSparrow({
  dataDir,
  databaseUrl,
  redisUrl,
  redisPrefix,
  label = 'sparrow',
  nodeArgs = [],
  webDist = '',
  port: fixedPort,
  compiled = false,
  cpus,
  env = {},
}) {
  let entry = ['--import', 'tsx', ...cpuProf(), ...nodeArgs, serverMain];
  if (compiled) {
    const build = await import('../scripts/build-server.mjs');
    await build.ensureServerBuild();
    entry = [...build.serverNodeArgs, ...cpuProf(), ...nodeArgs, build.serverMain];
  }
  // A fixed port lets a benchmark restart a server where its clients look for it.
  const port = fixedPort ?? (await freePort());
  const proc = run(
    entry,
    {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      REDIS_URL: redisUrl ?? '',
      REDIS_PREFIX: redisPrefix ?? 'sparrow:',
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      ...env,
    },
    label,
    cpus,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, proc);
  return { url, pid: proc.child.pid, stop: proc.stop, log: proc.log, kind: 'sparrow' };
}

/** Headless Chromium (CHROMIUM_PATH, /usr/bin/chromium by default) with the flags of e2e/harness.ts. */
export async function launchChromium() {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  cleanups.push(() => browser.close());
  return browser;
}

/** The bare `ws` relay of baseline-server.mjs. */
export function startBaseline(dir) {
  return startRelay([baselineMain, path.join(dir, `baseline-${randomUUID()}.db`)], 'baseline');
}

/**
 * The floor of floor-server.mjs: Sparrow's database work for a private send, on a copy of the
 * Sparrow database seeded in `dir`, without the application.
 */
export function startFloor(dir) {
  return startRelay(
    ['--import', 'tsx', floorMain, path.join(dir, 'sparrow.db'), path.join(dir, `floor-${randomUUID()}.db`)],
    'floor',
  );
}

/** A reference server of relay.mjs, ready once it prints the port it listens on. */
async function startRelay(args, kind) {
  const proc = run([...cpuProf(), ...args], {}, kind);
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} did not start:\n${proc.log.join('')}`)), 15_000);
    proc.child.stdout.on('data', (d) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    proc.child.on('exit', () => reject(new Error(`${kind} exited:\n${proc.log.join('')}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: proc.child.pid, stop: proc.stop, log: proc.log, kind };
}

/** A PostgreSQL database of its own, dropped at the end; undefined when PostgreSQL is not reachable. */
export async function createPgDatabase() {
  const base = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `sparrow_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch {
    return undefined;
  } finally {
    await admin.end().catch(() => undefined);
  }
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** JSON POSTs over keep-alive connections, as a browser sends API calls. */
export class HttpClient {
  constructor(baseUrl, maxSockets = 64, timeoutMs = 30_000) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.timeoutMs = timeoutMs;
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
    cleanups.push(async () => this.agent.destroy());
  }

  /** Resolves with the parsed JSON answer; rejects on a transport error or after the time-out (30 s). */
  post(urlPath, body, headers = {}) {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          path: urlPath,
          method: 'POST',
          agent: this.agent,
          timeout: this.timeoutMs,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
        },
        (res) => readJson(res).then(resolve, reject),
      );
      req.on('timeout', () => req.destroy(new Error('request timed out')));
      req.on('error', reject);
      req.end(payload);
    });
  }
}

const HEARTBEAT_MS = 25_000;
const HEARTBEAT_TICK_MS = 25;

/**
 * Opens one socket for `user` and binds it as the web client does (init → bindUid → pong); resolves
 * with `{ ws, user, clientId, bound }` once bound. `onFrame(socket, data)` sees every later frame as
 * a Buffer.
 */
export function bindSocket(wsUrl, user, { onFrame = () => undefined, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false, skipUTF8Validation: true });
    const socket = { ws, user, clientId: '', bound: false };
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`socket of user ${user.id} did not bind`));
    }, timeoutMs);
    ws.on('message', (data) => {
      if (socket.bound) return onFrame(socket, data);
      const frame = JSON.parse(String(data));
      if (frame.type === 'init') {
        socket.clientId = frame.client_id;
        ws.send(JSON.stringify({ type: 'bindUid', user_id: user.id, token: user.token }));
      } else if (frame.type === 'pong') {
        socket.bound = true;
        clearTimeout(timer);
        resolve(socket);
      }
    });
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * Calls `ping(item)` for every item of `items` once per 25 s, as the web client pings, spread evenly
 * over those 25 s as independent clients' pings are, not sent in bursts; `items` may grow meanwhile.
 * Answers the function that stops it.
 */
export function heartbeat(items, ping) {
  const started = performance.now();
  let pinged = 0;
  const timer = setInterval(() => {
    if (items.length === 0) return;
    const due = ((performance.now() - started) / HEARTBEAT_MS) * items.length;
    for (; pinged < due; pinged++) ping(items[pinged % items.length]);
  }, HEARTBEAT_TICK_MS);
  return () => clearInterval(timer);
}

/** A bound socket's ping, as the web client sends it. */
export function pingSocket({ ws }) {
  if (ws.readyState === ws.OPEN) ws.send('{"type":"ping"}');
}

/**
 * Opens one socket per user and binds it (bindSocket), `width` at a time, with the web client's
 * heartbeat, so that no socket goes idle however long a run lasts.
 */
export async function connectAll(baseUrl, users, { onFrame = () => undefined, width = 50, timeoutMs = 60_000 } = {}) {
  const wsUrl = `${baseUrl.replace('http', 'ws')}/wss`;
  const sockets = new Array(users.length);
  const deadline = Date.now() + timeoutMs;
  let next = 0;
  const worker = async () => {
    while (next < users.length) {
      const i = next++;
      sockets[i] = await bindSocket(wsUrl, users[i], { onFrame, timeoutMs: Math.max(1000, deadline - Date.now()) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, users.length) }, worker));
  const stopHeartbeat = heartbeat(sockets, pingSocket);
  const close = async () => {
    stopHeartbeat();
    const closed = sockets.map((s) =>
      s.ws.readyState === s.ws.CLOSED ? null : new Promise((r) => s.ws.once('close', r)),
    );
    for (const s of sockets) s.ws.terminate();
    await Promise.race([Promise.all(closed), sleep(5000)]);
  };
  cleanups.push(close);
  return { sockets, close };
}

/** The value below which `p` (0–1) of the samples fall. */
export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** VmRSS of a process, in KiB. */
export function rssKb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]);
}

/** CPU time a process has used so far (user + system), in ms; /proc counts in 1/100 s. */
export function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time used so far by every process whose command is `comm` ('postgres', 'redis-server'), ms:
 * what a database shares of the machine with the servers and the load.
 */
export function cpuMsOfCommand(comm) {
  let total = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm) total += cpuMs(pid);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * How long a process's main thread (its event loop) has waited for a CPU while ready to run, in
 * ms: time the machine gave to other work (/proc/<pid>/schedstat counts in ns).
 */
export function runQueueWaitMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
  return Number(fields[1]) / 1e6;
}

/** Prints rows of cells as an aligned table; the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) =>
    r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  console.log(line(rows[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
}

/** One goal's verdict line; `scripts/bench.mjs` collects the lines that start with PASS or MISS. */
export function verdict(pass, text) {
  console.log(`${pass ? 'PASS' : 'MISS'} ${text}`);
  return pass;
}

export const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

/** Runs a benchmark's main function, then stops everything it started. */
export async function main(name, fn) {
  const started = Date.now();
  console.log(`\n## ${name}`);
  let code = 0;
  try {
    await fn();
  } catch (err) {
    console.log(`MISS ${name}: did not complete: ${err instanceof Error ? err.message : String(err)}`);
    code = 1;
  } finally {
    await cleanup();
  }
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exit(code);
}
