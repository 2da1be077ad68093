// Idle sockets (issue 4, "Speed"): 5 000 bound sockets doing nothing but the web client's heartbeat;
// the server's RSS growth per socket (VmRSS before and after), beside a bare `ws` server holding the
// same 5 000 sockets. Users have no friends (sysInfo.runMode 2), so signing in pushes nothing and the
// figure is the cost of holding a socket.
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

const SOCKETS = 5000;
const WARM = 200;
const SETTLE_MS = 4000;
const GOAL_KB = 12;

/** RSS once it stops moving: the highest of a few readings over `ms`, after the sign-in burst is over. */
async function settledRss(pid, ms) {
  await sleep(ms / 2);
  let high = 0;
  for (let i = 0; i < 5; i++) {
    high = Math.max(high, rssKb(pid));
    await sleep(ms / 10);
  }
  return high;
}

/** RSS growth of `server` for SOCKETS bound sockets, after WARM sockets came and went once. */
async function measure(server, users) {
  const warm = await connectAll(server.url, users.slice(0, WARM), { width: 50 });
  await warm.close();
  const before = await settledRss(server.pid, SETTLE_MS);
  const started = Date.now();
  const held = await connectAll(server.url, users, { width: 100, timeoutMs: 120_000 });
  const openS = (Date.now() - started) / 1000;
  const after = await settledRss(server.pid, SETTLE_MS);
  await held.close();
  return { before, after, perSocket: (after - before) / users.length, openS };
}

await main('idle-memory', async () => {
  const load = os.loadavg()[0];
  let limit = '';
  try {
    limit = fs.readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\d+)/)?.[1] ?? '';
  } catch {
    /* not Linux: the connect step says so if sockets run out */
  }
  if (limit && Number(limit) < SOCKETS + 200) {
    throw new Error(
      `open-file limit ${limit} is below ${SOCKETS} sockets: run \`ulimit -n ${SOCKETS * 2 + 500}\` first`,
    );
  }
  const dir = tmpDir('idle');
  const users = await seed({ dataDir: dir, users: SOCKETS, settings: [...BENCH_SETTINGS, 'sysInfo.runMode=2'] });

  const baselineServer = await startBaseline(dir);
  const base = await measure(baselineServer, users);
  await baselineServer.stop();

  const sparrowServer = await startSparrow({ dataDir: dir });
  const sp = await measure(sparrowServer, users);
  await sparrowServer.stop();

  console.log(
    `${SOCKETS} bound idle sockets (heartbeat every 25 s); RSS in MiB; load average ${fmt(load)} on ${os.cpus().length} cores\n`,
  );
  const mib = (kb) => fmt(kb / 1024, 1);
  table([
    ['server', 'RSS before', 'RSS after', 'growth', 'KiB/socket', 'open+bind s'],
    [
      'baseline (bare ws)',
      mib(base.before),
      mib(base.after),
      mib(base.after - base.before),
      fmt(base.perSocket, 1),
      fmt(base.openS, 1),
    ],
    ['sparrow', mib(sp.before), mib(sp.after), mib(sp.after - sp.before), fmt(sp.perSocket, 1), fmt(sp.openS, 1)],
  ]);
  console.log(`\nper-socket ratio = sparrow/baseline = ${fmt(sp.perSocket / base.perSocket)}`);
  verdict(
    sp.perSocket <= GOAL_KB,
    `idle-memory: ${fmt(sp.perSocket, 1)} KiB per socket (goal <= ${GOAL_KB}); baseline ${fmt(base.perSocket, 1)} KiB = ${fmt(sp.perSocket / base.perSocket)}x`,
  );
});
