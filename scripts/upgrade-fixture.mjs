// Makes the upgrade tests' fixtures (packages/server/test/upgrade.test.ts): the databases of the oldest
// supported release, with a little use in them, dumped as SQL text.
//
//   git worktree add /tmp/rel-6.1.0 0f3256b      # 6.1.0, the oldest supported release
//   node scripts/upgrade-fixture.mjs /tmp/rel-6.1.0 [postgres://postgres@127.0.0.1:5432/postgres]
//
// The release runs with this checkout's packages: its node_modules is made a folder of links to
// ours, but for @sparrow/*, which point to the release's own packages. Its server starts on a new
// SQLite data folder (and, given a PostgreSQL URL, on a new database there), signs three people up,
// makes two of them friends, sends messages, makes a group, uploads a file; then the SQLite database
// is dumped by dumpSqlite below and the PostgreSQL one by pg_dump. Writes
// packages/server/test/fixtures/upgrade-<version>.{sqlite,pg}.sql.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'packages/server/test/fixtures');

if (process.argv[2] === '--calls') await useOldServer(...process.argv.slice(3));
else await main(process.argv[2], process.argv[3]);

async function main(release, databaseUrl) {
  if (!release || !fs.existsSync(path.join(release, 'packages/server/src/app.ts')))
    throw new Error('usage: node scripts/upgrade-fixture.mjs <checkout of the release> [postgres URL]');
  release = path.resolve(release);
  const version = JSON.parse(fs.readFileSync(path.join(release, 'package.json'), 'utf8')).version;
  linkModules(release);
  fs.mkdirSync(fixtures, { recursive: true });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-fixture-'));
  try {
    runCalls(release, dataDir);
    const out = path.join(fixtures, `upgrade-${version}.sqlite.sql`);
    fs.writeFileSync(out, await dumpSqlite(path.join(dataDir, 'sparrow.db'), version));
    console.log(`wrote ${path.relative(root, out)}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  if (!databaseUrl) return;
  const pg = (await import('pg')).default;
  const name = `sparrow_fixture_${process.pid}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-fixture-'));
  try {
    runCalls(release, pgDir, url.toString());
    const dump = spawnSync('pg_dump', ['--no-owner', '--no-privileges', '--inserts', url.toString()], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    if (dump.status !== 0) throw new Error(`pg_dump failed: ${dump.stderr}`);
    // psql's meta-commands (pg_dump's \restrict since 15.14) are not SQL: the tests load the dump through a client.
    const text = dump.stdout
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    const out = path.join(fixtures, `upgrade-${version}.pg.sql`);
    fs.writeFileSync(out, `-- Sparrow ${version}'s PostgreSQL database, made by scripts/upgrade-fixture.mjs\n${text}`);
    console.log(`wrote ${path.relative(root, out)}`);
  } finally {
    fs.rmSync(pgDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** `<release>/node_modules`: a link to each of ours, @sparrow/* to the release's own packages. */
function linkModules(release) {
  const ours = path.join(root, 'node_modules');
  const theirs = path.join(release, 'node_modules');
  fs.rmSync(theirs, { recursive: true, force: true });
  fs.mkdirSync(path.join(theirs, '@sparrow'), { recursive: true });
  for (const entry of fs.readdirSync(ours)) {
    if (entry !== '@sparrow') fs.symlinkSync(path.join(ours, entry), path.join(theirs, entry));
  }
  for (const pkg of ['protocol', 'server', 'web'])
    fs.symlinkSync(path.join(release, 'packages', pkg), path.join(theirs, '@sparrow', pkg));
}

function runCalls(release, dataDir, databaseUrl = '') {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--calls', release, dataDir, databaseUrl],
    { cwd: release, stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error(`the release's server failed (exit ${run.status})`);
}

/** In the child: the release's server on `dataDir` (or `databaseUrl`), used a little through its API, then closed. */
async function useOldServer(release, dataDir, databaseUrl) {
  const load = (file) => import(pathToFileURL(path.join(release, file)).href);
  const { buildApp } = await load('packages/server/src/app.ts');
  const { loadConfig } = await load('packages/server/src/config.ts');
  const { routes, CLIENT_HEADER } = await load('packages/protocol/src/index.ts');
  const env = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: databaseUrl || undefined,
    redisUrl: undefined,
    webDist: undefined,
    configPollMs: 0,
    outboxSweepMs: 0,
    searchIndexMs: 0,
    exportSweepMs: 0,
    logLevel: 'silent',
    registerPerHour: 0,
  };
  const { app } = await buildApp(env, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const headers = (token) => ({
    [CLIENT_HEADER]: 'web',
    'accept-language': 'en',
    ...(token && { authorization: token }),
  });
  const call = async (name, body, token) => {
    const res = await fetch(base + routes[name].path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers(token) },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (json.code !== 0) throw new Error(`${name}: ${json.msg}`);
    return json.data;
  };
  const person = async (account, realname) => {
    await call('register', { account, password: 'secret123', realname });
    const login = await call('login', { account, password: 'secret123' });
    return { token: login.authToken, id: login.userInfo.user_id };
  };
  try {
    const ann = await person('ann_old', '安娜');
    const bob = await person('bob_old', 'Bob');
    const cat = await person('cat_old', 'Cat');
    for (const [a, b] of [
      [ann, bob],
      [ann, cat],
    ]) {
      await call('friendAdd', { user_id: b.id }, a.token);
      await call('friendAdd', { user_id: a.id }, b.token);
    }
    const text = (from, to, content, isGroup = 0) =>
      call(
        'sendMessage',
        { id: crypto.randomUUID(), toContactId: to, is_group: isGroup, type: 'text', content },
        from.token,
      );
    await text(ann, bob.id, '你好 Bob，这是 6.1.0 的消息');
    await text(bob, ann.id, 'Hi Ann 👋 from the old release');
    const group = await call('groupAdd', { user_ids: [bob.id, cat.id] }, ann.token);
    await text(ann, group.id, '群里的第一条消息', 1);
    await text(cat, group.id, 'a reply in the group', 1);
    const form = new FormData();
    form.append('message', JSON.stringify({ id: crypto.randomUUID(), toContactId: bob.id, type: 'file', content: '' }));
    form.append('file', new Blob(['notes from 6.1.0\n'], { type: 'text/plain' }), 'notes.txt');
    const up = await fetch(`${base}${routes.uploadFile.path}`, {
      method: 'POST',
      body: form,
      headers: headers(ann.token),
    });
    const upJson = await up.json();
    if (upJson.code !== 0) throw new Error(`uploadFile: ${upJson.msg}`);
  } finally {
    await app.close();
  }
}

/** SQL text: a literal of a value as better-sqlite3 reads it with safe integers. */
function literal(v) {
  if (v === null) return 'NULL';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(1) : String(v);
  if (Buffer.isBuffer(v)) return `X'${v.toString('hex')}'`;
  return `'${String(v).replaceAll("'", "''")}'`;
}

function quoted(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The SQLite database as SQL text, in the manner of the sqlite3 shell's `.dump`: tables (virtual
 * ones by their CREATE, which makes their shadow tables), every row (a shadow table emptied first),
 * sqlite_sequence, then indexes, views and triggers. Statistics (sqlite_stat*) are left out.
 */
async function dumpSqlite(file, version) {
  const SQLite = (await import('better-sqlite3')).default;
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  db.defaultSafeIntegers(true);
  const kinds = new Map(
    db
      .prepare("select name, type from pragma_table_list where schema = 'main'")
      .all()
      .map((r) => [r.name, r.type]),
  );
  const schema = db.prepare('select type, name, sql from sqlite_master where sql is not null order by rowid').all();
  const out = [
    `-- Sparrow ${version}'s SQLite database, made by scripts/upgrade-fixture.mjs`,
    'PRAGMA foreign_keys=OFF;',
    'BEGIN TRANSACTION;',
  ];
  const tables = schema.filter((o) => o.type === 'table' && !o.name.startsWith('sqlite_'));
  for (const t of tables) if (kinds.get(t.name) !== 'shadow') out.push(`${t.sql};`);
  for (const t of [...tables, { name: 'sqlite_sequence' }]) {
    const kind = kinds.get(t.name);
    if (kind === 'virtual' || kind === undefined) continue;
    if (kind === 'shadow' || t.name === 'sqlite_sequence') out.push(`DELETE FROM ${quoted(t.name)};`);
    for (const row of db
      .prepare(`select * from ${quoted(t.name)}`)
      .raw(true)
      .iterate())
      out.push(`INSERT INTO ${quoted(t.name)} VALUES(${row.map(literal).join(',')});`);
  }
  for (const o of schema) if (o.type !== 'table') out.push(`${o.sql};`);
  const userVersion = db.pragma('user_version', { simple: true });
  if (Number(userVersion)) out.push(`PRAGMA user_version=${userVersion};`);
  out.push('COMMIT;', '');
  db.close();
  return out.join('\n');
}
