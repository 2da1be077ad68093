// Idle memory as users see it (issue 25, benchmark 4): the RSS of a fresh compiled server (what
// `npm start` runs) once it has given back its start-up memory, and the RSS growth per bound idle
// socket at 5 000 and 20 000 sockets, beside a bare `ws` server holding the same sockets. Sockets do
// nothing but the web client's heartbeat. Users have no friends (sysInfo.runMode 2), so signing in
// pushes nothing and the figure is the cost of holding a socket.
//
// Every RSS is read once it has settled: no sooner than IDLE_SETTLE_MIN_S (60) seconds after start
// or after the last sockets bound, then once the readings of IDLE_SETTLE_S (10) seconds lie within
// IDLE_SETTLE_PCT (2) %, at most IDLE_SETTLE_MAX_S (120) seconds. Read at once, it includes memory
// the server is about to give back: a fresh compiled server holds a flat 155 MB for 38 s (50 s and
// more on a loaded machine), then drops to 116 MB, so a steady reading alone does not tell that the
// RSS has settled.
// IDLE_SOCKETS (5000,20000) sets the sizes; IDLE_NODE_ARGS adds node flags to Sparrow's process
// (e.g. `--max-semi-space-size=1`).
import fs from 'node:fs';
import os from 'node:os';
import {
  BENCH_SETTINGS,
  connectAll,
  fmt,
  main,
  rssKb,
  seed,
  sleep,
  startBaseline,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';

const SIZES = (process.env.IDLE_SOCKETS ?? '5000,20000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
const WARM = 200;
const SETTLE_S = Number(process.env.IDLE_SETTLE_S ?? 10);
const SETTLE_PCT = Number(process.env.IDLE_SETTLE_PCT ?? 2);
const SETTLE_MIN_S = Number(process.env.IDLE_SETTLE_MIN_S ?? 60);
const SETTLE_MAX_S = Number(process.env.IDLE_SETTLE_MAX_S ?? 120);
const NODE_ARGS = (process.env.IDLE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const GOAL_KB_PER_SOCKET = 12;
const GOAL_IDLE_MB = 80;
/** File descriptors the server and this process need besides the sockets: databases, logs, listeners. */
const SPARE_FDS = 300;

/**
 * RSS (KiB) once it stops falling: read every second until SETTLE_MIN_S have passed and the
 * readings of the last SETTLE_S seconds lie within SETTLE_PCT % of each other, or SETTLE_MAX_S has
 * passed.
 */
async function settledRss(pid) {
  const started = Date.now();
  const readings = [];
  for (;;) {
    readings.push({ at: Date.now(), kb: rssKb(pid) });
    const window = readings.filter((r) => r.at >= Date.now() - SETTLE_S * 1000);
    const spanned = Date.now() - started >= Math.max(SETTLE_S, SETTLE_MIN_S) * 1000;
    const high = Math.max(...window.map((r) => r.kb));
    const low = Math.min(...window.map((r) => r.kb));
    const waited = (Date.now() - started) / 1000;
    if (spanned && high - low <= (high * SETTLE_PCT) / 100) return { kb: readings.at(-1).kb, waited, settled: true };
    if (waited >= SETTLE_MAX_S) return { kb: readings.at(-1).kb, waited, settled: false };
    await sleep(1000);
  }
}

/** The open-file limit of this process (the server inherits it), or Infinity off Linux. */
function openFileLimit() {
  try {
    const m = /Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : Infinity;
  } catch {
    return Infinity;
  }
}

/** Idle RSS of `server` fresh, then its growth per socket at each size, sockets added on top of the last size. */
async function measure(server, users, sizes) {
  const show = (what, r) =>
    console.log(
      `${server.kind}: ${what} ${fmt(r.kb / 1024, 1)} MiB after ${fmt(r.waited, 0)} s (load ${fmt(os.loadavg()[0])})`,
    );
  const fresh = await settledRss(server.pid);
  show('fresh', fresh);
  const warm = await connectAll(server.url, users.slice(0, WARM), { width: 50 });
  await warm.close();
  const before = await settledRss(server.pid);
  show(`after ${WARM} sockets came and went`, before);
  const held = [];
  const steps = [];
  let connected = 0;
  try {
    for (const size of sizes) {
      const started = Date.now();
      held.push(
        await connectAll(server.url, users.slice(connected, size), {
          width: 100,
          timeoutMs: 60_000 + (size - connected) * 20,
        }),
      );
      connected = size;
      const openS = (Date.now() - started) / 1000;
      const after = await settledRss(server.pid);
      show(`with ${size} sockets`, after);
      steps.push({ size, after, perSocket: (after.kb - before.kb) / size, openS });
    }
  } finally {
    for (const h of held) await h.close();
  }
  return { fresh, before, steps };
}

await main('idle-memory', async () => {
  const load = os.loadavg()[0];
  const limit = openFileLimit();
  const sizes = [...new Set(SIZES.map((n) => Math.min(n, limit - SPARE_FDS)))];
  if (sizes.length === 0 || sizes[0] <= 0) throw new Error(`open-file limit ${limit} leaves no room for sockets`);
  const capped = SIZES.filter((n) => n > limit - SPARE_FDS);
  if (capped.length) {
    console.log(
      `open-file limit ${limit} (hard limit of this machine): ${capped.join(', ')} sockets measured as ${limit - SPARE_FDS}; raise \`ulimit -Hn\` to measure more`,
    );
  }
  const most = sizes.at(-1);
  const dir = tmpDir('idle');
  const seededAt = Date.now();
  const users = await seed({ dataDir: dir, users: most, settings: [...BENCH_SETTINGS, 'sysInfo.runMode=2'] });
  console.log(`seeded ${most} users in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);

  const baselineServer = await startBaseline(dir);
  const base = await measure(baselineServer, users, sizes);
  await baselineServer.stop();

  const sparrowServer = await startSparrow({ dataDir: dir, compiled: true, nodeArgs: NODE_ARGS });
  const sp = await measure(sparrowServer, users, sizes);
  await sparrowServer.stop();

  const mib = (kb) => fmt(kb / 1024, 1);
  const settled = (r) => `${mib(r.kb)}${r.settled ? '' : '*'} (${fmt(r.waited, 0)} s)`;
  console.log(
    `\nbound idle sockets (heartbeat every 25 s); RSS in MiB once settled (seconds waited); Sparrow compiled` +
      `${NODE_ARGS.length ? ` with ${NODE_ARGS.join(' ')}` : ''}; load average ${fmt(load)} at start, ${fmt(os.loadavg()[0])} now, on ${os.cpus().length} cores\n`,
  );
  table([
    ['server', 'fresh', 'after 200 came and went', ...sizes.map((n) => `${n} sockets`)],
    ['baseline (bare ws)', settled(base.fresh), settled(base.before), ...base.steps.map((s) => settled(s.after))],
    ['sparrow', settled(sp.fresh), settled(sp.before), ...sp.steps.map((s) => settled(s.after))],
  ]);
  console.log('');
  table([
    ['sockets', 'baseline KiB/socket', 'sparrow KiB/socket', 'ratio', 'sparrow open+bind s'],
    ...sp.steps.map((s, i) => [
      String(s.size),
      fmt(base.steps[i].perSocket, 1),
      fmt(s.perSocket, 1),
      fmt(s.perSocket / base.steps[i].perSocket),
      fmt(s.openS, 1),
    ]),
  ]);
  if ([sp.fresh, sp.before, ...sp.steps.map((s) => s.after)].some((r) => !r.settled)) {
    console.log(`* still moving by more than ${SETTLE_PCT} % after ${SETTLE_MAX_S} s: the last reading`);
  }
  console.log('');
  verdict(
    sp.fresh.kb / 1024 <= GOAL_IDLE_MB,
    `idle-memory fresh: ${mib(sp.fresh.kb)} MiB idle RSS of a fresh compiled server (goal <= ${GOAL_IDLE_MB}); bare ws ${mib(base.fresh.kb)} MiB; load ${fmt(load)}`,
  );
  for (const [i, s] of sp.steps.entries()) {
    verdict(
      s.perSocket <= GOAL_KB_PER_SOCKET,
      `idle-memory ${s.size}: ${fmt(s.perSocket, 1)} KiB per socket (goal <= ${GOAL_KB_PER_SOCKET}); baseline ${fmt(base.steps[i].perSocket, 1)} KiB = ${fmt(s.perSocket / base.steps[i].perSocket)}x; load ${fmt(load)}`,
    );
  }
});
