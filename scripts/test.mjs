// `npm test`: typecheck, lint, unit and integration suites (SQLite, plus PostgreSQL and Redis when
// reachable), the web build with its budget, and the browser suite. Says what it skipped and why;
// with CI=true a skip is a failure. Ends with one line: "tests: N passed, N failed".
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ci = process.env.CI === 'true';
const env = { ...process.env };
const skipped = [];
const failed = [];
/** Each failed test with its file and the first line of its error: the summary names them, as CI shows only the log's end. */
const failedNames = [];
/** How long each step took, and a vitest step's slowest files: the summary prints them, as CI shows only the log's end. */
const timings = [];
const begun = Date.now();
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

// Directory sign-in is tested against a real OpenLDAP on loopback (packages/server/test/ldap-directory.ts).
const slapd = env.SLAPD_PATH ?? '/usr/sbin/slapd';
if (!fs.existsSync(slapd)) skipped.push(`LDAP suites: no slapd at ${slapd} (apt-get install slapd ldap-utils)`);

// The production topology (e2e/topology.e2e.ts) puts a real nginx with deploy/nginx/sparrow.conf in front of two nodes.
const nginx = env.NGINX_PATH ?? '/usr/sbin/nginx';
if (haveBrowser && !fs.existsSync(nginx))
  skipped.push(`browser topology suite: no nginx at ${nginx} (apt-get install nginx)`);

/**
 * Runs a step. Alone, its output goes straight through; beside others (`together`), each line is
 * prefixed with the step's name. Answers whether it passed.
 */
function run(name, cmd, args, together = false, moreEnv = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: together ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...env, ...moreEnv },
    });
    if (together) {
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
      }
    }
    child.on('close', (status) => {
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      timings.push(`${name}: ${secs} s`);
      if (status !== 0) {
        failed.push(name);
        console.log(`=== ${name}: FAILED (${secs} s)`);
        resolve(false);
        return;
      }
      console.log(`=== ${name}: ok (${secs} s)`);
      resolve(true);
    });
  });
}

/** Runs vitest with a JSON report and adds its counts to the totals. */
async function vitest(name, args, together = false, moreEnv = {}) {
  const report = path.join(os.tmpdir(), `sparrow-vitest-${process.pid}-${name.replace(/\W+/g, '-')}.json`);
  const ok = await run(
    name,
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    together,
    moreEnv,
  );
  try {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    passedTests += json.numPassedTests;
    failedTests += json.numFailedTests;
    for (const file of json.testResults ?? []) {
      for (const test of file.assertionResults ?? []) {
        if (test.status !== 'failed') continue;
        const why = String(test.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 200);
        failedNames.push(`${name}: ${path.relative(root, file.name)} › ${test.fullName} — ${why}`);
      }
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
        failedNames.push(
          `${name}: ${path.relative(root, file.name)} — ${String(file.message ?? '')
            .split('\n')[0]
            .slice(0, 200)}`,
        );
    }
    // The slowest files, for when the run's time has to come down.
    const slowest = (json.testResults ?? [])
      .map((file) => ({ file: path.relative(root, file.name), secs: (file.endTime - file.startTime) / 1000 }))
      .filter((f) => Number.isFinite(f.secs))
      .sort((a, b) => b.secs - a.secs)
      .slice(0, 8);
    if (slowest.length)
      timings.push(`${name}, slowest files: ${slowest.map((f) => `${f.file} ${f.secs.toFixed(0)} s`).join(', ')}`);
    if (json.numTotalTests === 0) {
      failed.push(`${name} (no tests ran)`);
    }
    fs.rmSync(report, { force: true });
  } catch {
    if (ok) failed.push(`${name} (no report)`);
  }
}

// Independent steps run at once: the checks and the web build read the sources and write nothing
// the others read. The browser suite waits mostly on pages and sockets (about a third of a core,
// measured), so it runs beside the unit and integration suites; it needs the web build first.
await Promise.all([
  run('typecheck', 'npm', ['run', 'typecheck', '--silent'], true),
  run('lint', 'npm', ['run', 'lint', '--silent'], true),
  run('build web', 'npm', ['run', 'build', '-w', '@sparrow/web', '--silent'], true),
]);
// The user-path suites that also run in the wide layout (E2E_WIDTH in e2e/harness.ts: 1280×800); they
// look for what a page shows inside pageArea (the middle pane or the open panel, not the list beside
// them) and skip the few tests of a phone's own screen. `npm test` runs the core path wide (a chat;
// e2e/wide.e2e.ts tests the panes themselves, the list, the panel and deep links at 1280 px); `npm
// run test:wide` runs the checks and every one of them wide, no other suite. Each wide suite costs as
// much again as at 375 px: on a 2-core machine six of them after the unit suites took CI past its 45
// minutes, and three still past it.
const WIDE_CORE = ['chat'];
const WIDE_MORE = [
  'group',
  'friends',
  'moments',
  'everyday',
  'account',
  'search',
  'favorites',
  'block',
  'report',
  'reactions',
  'forward-record',
  'keywords',
  'pins-pat',
];
const wideOnly = process.argv.includes('--wide');
const WIDE_SUITES = (wideOnly ? [...WIDE_CORE, ...WIDE_MORE] : WIDE_CORE).map((name) => `e2e/${name}.e2e.ts`);

// Two lanes, so that no more than two suites share the machine's cores (three at once on two cores
// ran the browser suite past its waits): the unit and integration suites, and beside them the
// browser suite at 375 px, then the wide run. Measured on 2026-11-30 with the wide run after the unit
// suites instead: unit 2 542 s, browser 2 231 s, so the wide run waited on the longer lane. The server
// bundle both browser runs start (e2e/global-setup.ts) is built once before them.
const browserReady = haveBrowser && !failed.includes('build web');
const built = { E2E_SERVER_BUILT: '1' };
if (browserReady) {
  const { buildServer, e2eServerDist } = await import('./build-server.mjs');
  await buildServer(e2eServerDist);
}
await Promise.all([
  wideOnly ? null : vitest('unit and integration', [], browserReady),
  (async () => {
    if (!browserReady) return;
    if (!wideOnly) await vitest('browser', ['--config', 'e2e/vitest.config.ts'], true, built);
    await vitest('browser at 1280 px', ['--config', 'e2e/vitest.config.ts', ...WIDE_SUITES], !wideOnly, {
      ...built,
      E2E_WIDTH: '1280',
    });
  })(),
]);

console.log('\n=== summary');
for (const t of timings) console.log(`time: ${t}`);
console.log(`time: the whole run: ${((Date.now() - begun) / 1000).toFixed(0)} s`);
for (const s of skipped) console.log(`skipped: ${s}`);
for (const f of failed) console.log(`failed: ${f}`);
for (const t of failedNames) console.log(`failed test: ${t}`);
if (ci && skipped.length) console.log('CI=true: a skipped suite counts as a failure');
const bad = failed.length > 0 || (ci && skipped.length > 0);
console.log(`tests: ${passedTests} passed, ${failedTests} failed`);
process.exit(bad ? 1 : 0);
