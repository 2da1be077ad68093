// `npm test`: typecheck, lint, unit and integration suites (SQLite, plus PostgreSQL and Redis when
// reachable), the web build with its budget, and the browser suite. Says what it skipped and why;
// with CI=true a skip is a failure. Ends with one line: "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true';
const env = { ...process.env };
const skipped = [];
const failed = [];
let passedTests = 0;
let failedTests = 0;

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

if (!env.DATABASE_URL && (await reachable('127.0.0.1', 5432))) {
  env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
}
if (!env.REDIS_URL && (await reachable('127.0.0.1', 6379))) env.REDIS_URL = 'redis://127.0.0.1:6379';
if (!env.DATABASE_URL)
  skipped.push(
    'PostgreSQL runs of the integration suites: DATABASE_URL is not set and nothing answers on 127.0.0.1:5432',
  );
if (!env.REDIS_URL) skipped.push('Redis suites: REDIS_URL is not set and nothing answers on 127.0.0.1:6379');

const chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveBrowser = fs.existsSync(chromium);
if (!haveBrowser) skipped.push(`browser suite: no Chromium at ${chromium} (apt-get install chromium fonts-noto-cjk)`);

// The relayed call of the browser suite runs a real coturn on loopback (e2e/turn.ts).
const turnserver = env.TURNSERVER_PATH ?? '/usr/bin/turnserver';
if (haveBrowser && !fs.existsSync(turnserver))
  skipped.push(`browser call through TURN: no coturn at ${turnserver} (apt-get install coturn)`);

function run(name, cmd, args) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (res.status !== 0) {
    failed.push(name);
    console.log(`=== ${name}: FAILED (${secs} s)`);
    return false;
  }
  console.log(`=== ${name}: ok (${secs} s)`);
  return true;
}

/** Runs vitest with a JSON report and adds its counts to the totals. */
function vitest(name, args) {
  const report = path.join(os.tmpdir(), `sparrow-vitest-${process.pid}-${name.replace(/\W+/g, '-')}.json`);
  const ok = run(name, 'npx', [
    'vitest',
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  try {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    passedTests += json.numPassedTests;
    failedTests += json.numFailedTests;
    if (json.numTotalTests === 0) {
      failed.push(`${name} (no tests ran)`);
    }
    fs.rmSync(report, { force: true });
  } catch {
    if (ok) failed.push(`${name} (no report)`);
  }
}

run('typecheck', 'npm', ['run', 'typecheck', '--silent']);
run('lint', 'npm', ['run', 'lint', '--silent']);
run('build web', 'npm', ['run', 'build', '-w', '@sparrow/web', '--silent']);
vitest('unit and integration', []);
if (haveBrowser) vitest('browser', ['--config', 'e2e/vitest.config.ts']);

console.log('\n=== summary');
for (const s of skipped) console.log(`skipped: ${s}`);
for (const f of failed) console.log(`failed: ${f}`);
if (ci && skipped.length) console.log('CI=true: a skipped suite counts as a failure');
const bad = failed.length > 0 || (ci && skipped.length > 0);
console.log(`tests: ${passedTests} passed, ${failedTests} failed`);
process.exit(bad ? 1 : 0);
