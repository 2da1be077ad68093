// `npm run bench`: the server benchmarks of bench/, each in a process of its own, each beside a
// baseline measured in the same run; `npm run bench -- <name> …` runs some of them. Ends with every
// goal's PASS/MISS line. Not part of `npm test`: it takes minutes and wants a quiet machine.
// Exits 1 when a benchmark could not run; a MISS is a finding, not a failure of the script.
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALL = [
  'private-latency',
  'group-fanout',
  'cross-node',
  'idle-memory',
  'client-render',
  'web-client',
  'long-text',
  'call-signal',
  'moments-feed',
  'search',
  'reactions-page',
  'read-receipts',
  'keywords',
  'reconnect-storm',
  'capacity',
  'retention',
];
/** Run only when named: the soak holds its load for SOAK_SECONDS (2 minutes, or hours when asked). */
const ON_REQUEST = ['soak'];
/** A benchmark that runs longer than this is stopped with everything it started. */
const LIMIT_MS = 150_000;
/** Longer limits: their seeding is most of their time. */
const SEEDING_LIMIT_MS = {
  // 1 000 000 messages on each database.
  search: 1_200_000,
  // PRIVATE_RUNS (3) runs, each on four fresh servers seeded and bound anew: about 100 s a run.
  'private-latency': 480_000,
  // 5 001 users seeded, bound and stormed twice (SQLite, then PostgreSQL + Redis).
  'reconnect-storm': 480_000,
  // 2 000 users seeded on SQLite and on PostgreSQL, then a rate ramp per group size and database.
  'group-fanout': 600_000,
  // 100 000 posts and their 19 000 000 timeline rows on each database.
  'moments-feed': 600_000,
  // Each of its eight RSS readings waits 60–120 s for the RSS to settle; 20 000 sockets on two servers.
  'idle-memory': 1_200_000,
  // 10 000 users seeded twice, then steps of users arriving and held for a minute, on each database.
  capacity: 1_800_000,
  // 1 000 000 old messages seeded, then deleted while sends run, on each database.
  retention: 1_800_000,
};

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((a) => !ALL.includes(a) && !ON_REQUEST.includes(a));
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')} (one of ${[...ALL, ...ON_REQUEST].join(', ')})`);
  process.exit(2);
}

function reachable(host, port, ms = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}

const env = { ...process.env };
const skipped = [];
if (!env.REDIS_URL && (await reachable('127.0.0.1', 6379))) env.REDIS_URL = 'redis://127.0.0.1:6379';
if (!env.DATABASE_URL && (await reachable('127.0.0.1', 5432))) {
  env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
}
let names = asked.length ? asked : ALL;
/** The soak's limit is its own length and 5 minutes to seed, bind its sockets and end. */
const limitMs = (name) =>
  name === 'soak' ? (Number(env.SOAK_SECONDS ?? 120) + 300) * 1000 : (SEEDING_LIMIT_MS[name] ?? LIMIT_MS);
if (!env.REDIS_URL && names.includes('cross-node')) {
  skipped.push('cross-node: REDIS_URL is not set and nothing answers on 127.0.0.1:6379');
  names = names.filter((n) => n !== 'cross-node');
}

let current;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    try {
      if (current) process.kill(-current.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    process.exit(130);
  });
}

/** Runs one benchmark in its own process group, so that a time-out stops its servers too. */
function run(name) {
  return new Promise((resolve) => {
    const lines = [];
    // 5 000 sockets need more open files than many shells allow: raise the soft limit to the hard one.
    const script = 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"';
    const child = spawn('/bin/sh', ['-c', script, process.execPath, path.join(root, 'bench', `${name}.mjs`)], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let buffered = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      buffered += String(d);
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) if (/^(PASS|MISS) /.test(line)) lines.push(line);
    });
    const timer = setTimeout(() => {
      lines.push(`MISS ${name}: stopped after ${limitMs(name) / 1000} s`);
      try {
        process.kill(-child.pid, 'SIGTERM');
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }, 5000).unref();
      } catch {
        /* already gone */
      }
    }, limitMs(name));
    current = child;
    child.on('exit', (code) => {
      current = undefined;
      clearTimeout(timer);
      if (buffered && /^(PASS|MISS) /.test(buffered)) lines.push(buffered);
      resolve({ name, code, lines });
    });
  });
}

const started = Date.now();
console.log(`Sparrow server benchmarks: ${names.join(', ')}`);
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)}`);
const results = [];
for (const name of names) results.push(await run(name));

console.log(
  `\n=== summary (${((Date.now() - started) / 1000).toFixed(0)} s, load average now ${os.loadavg()[0].toFixed(2)})`,
);
for (const r of results) {
  if (r.lines.length === 0) r.lines.push(`MISS ${r.name}: printed no verdict (exit code ${r.code})`);
  for (const line of r.lines) console.log(line);
}
for (const s of skipped) console.log(`SKIP ${s}`);
const passed = results.flatMap((r) => r.lines).filter((l) => l.startsWith('PASS')).length;
const missed = results.flatMap((r) => r.lines).filter((l) => l.startsWith('MISS')).length;
console.log(`bench: ${passed} passed, ${missed} missed${skipped.length ? `, ${skipped.length} skipped` : ''}`);
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
