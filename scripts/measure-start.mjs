// Start-up time (process start to /healthz answering) and idle RSS of the server run as `npm start`
// runs it (compiled) and as it was run before (TypeScript through tsx), on empty temp data folders:
//   node scripts/measure-start.mjs [runs=5] [settleSeconds=45]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild, serverMain, serverNodeArgs } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);
const settleS = Number(process.argv[3] ?? 45);

const ways = {
  compiled: [...serverNodeArgs, serverMain],
  tsx: ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')],
};

const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

const rssMb = (pid) => {
  const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 1024);
};

/** Starts one server, times it to its first 200 from /healthz; with `settle`, also its RSS after that many ms. */
async function once(args, settle) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-measure-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const ms = performance.now() - started;
    if (settle) await new Promise((r) => setTimeout(r, settle));
    return { ms, rss: settle ? rssMb(child.pid) : undefined };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await ensureServerBuild();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, args] of Object.entries(ways)) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await once(args, 0)).ms);
  const { rss } = await once(args, settleS * 1000);
  console.log(
    `${name}: start to listening median ${Math.round(median(times))} ms (runs: ${times.map(Math.round).join(', ')}), idle RSS after ${settleS} s ${rss} MB`,
  );
}
