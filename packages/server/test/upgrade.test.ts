import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { sql, type Migration } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_HEADER, routes, type RouteName } from '@sparrow/protocol';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { BACKUPS_DIR, checkUpgrade, migrate, openDb, SQLITE_FILE, UpgradeError, type OpenedDb } from '../src/db';
import { dbTargets, describeEachDb, type DbTarget } from './harness';

/**
 * Upgrading a database made by the oldest supported release, 6.1.0 (its dumps in fixtures/, made by
 * scripts/upgrade-fixture.mjs), to today's schema; a failed migration; a newer database; the check.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const OLDEST = '6.1.0';
/** The newest migration 6.1.0 ran. */
const OLDEST_LAST = '033-qr-login';
const adminMain = path.join(here, '../src/admin.ts');
const KNOWN = fs
  .readdirSync(path.join(here, '../src/db/migrations'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const PENDING = KNOWN.filter((name) => name > OLDEST_LAST);

/** A database of a test's own: a data folder, and on PostgreSQL a new empty database. */
interface Place {
  target: DbTarget;
  dataDir: string;
  databaseUrl: string | undefined;
  file: string;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function emptyPlace(target: DbTarget): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-upgrade-'));
  cleanups.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
  let databaseUrl: string | undefined;
  if (target === 'postgres') {
    const name = `sparrow_up_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  return { target, dataDir, databaseUrl, file: path.join(dataDir, SQLITE_FILE) };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new place holding 6.1.0's database as its fixture has it. */
async function oldPlace(target: DbTarget): Promise<Place> {
  const place = await emptyPlace(target);
  const dump = fs.readFileSync(
    path.join(here, `fixtures/upgrade-${OLDEST}.${target === 'sqlite' ? 'sqlite' : 'pg'}.sql`),
    'utf8',
  );
  if (target === 'postgres') await onRaw(place, (run) => run(dump));
  else {
    const db = new SQLite(place.file);
    // Off its defensive mode, as the sqlite3 shell is: the dump writes the full-text index's own tables.
    db.unsafeMode(true);
    db.exec(dump);
    db.close();
  }
  return place;
}

/** Runs SQL on the place's database through a connection of the test's own (not the server's code). */
async function onRaw<T>(
  place: Place,
  work: (run: (text: string) => Promise<Array<Record<string, unknown>>>) => Promise<T>,
) {
  if (place.target === 'sqlite') {
    const db = new SQLite(place.file);
    try {
      return await work((text) =>
        Promise.resolve(
          /^\s*select/i.test(text) ? (db.prepare(text).all() as Array<Record<string, unknown>>) : (db.exec(text), []),
        ),
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: place.databaseUrl });
  await client.connect();
  try {
    return await work(async (text) => (await client.query(text)).rows);
  } finally {
    await client.end();
  }
}

/** The schema, the migrations run and the people, as the database holds them. */
function snapshot(place: Place) {
  return onRaw(place, async (run) => ({
    schema:
      place.target === 'sqlite'
        ? await run('select type, name, tbl_name, sql from sqlite_master order by type, name')
        : [
            ...(await run(`select table_name, column_name, data_type, column_default, is_nullable
              from information_schema.columns where table_schema = 'public' order by table_name, column_name`)),
            ...(await run(`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`)),
            ...(await run('select tgname from pg_trigger where not tgisinternal order by tgname')),
          ],
    migrations: (await run('select name from sparrow_migrations order by name')).map((r) => r.name),
    users: await run('select id, account, realname, password_hash from users order by id'),
  }));
}

function open(place: Place): OpenedDb {
  const opened = openDb({ dataDir: place.dataDir, databaseUrl: place.databaseUrl });
  cleanups.push(() => opened.close());
  return opened;
}

/** Today's server on the place's database; its calls as Sparrow's web client makes them. */
async function serve(place: Place, dataDir = place.dataDir) {
  const env = {
    ...loadConfig({}),
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: place.databaseUrl,
    redisUrl: undefined,
    webDist: undefined,
    configPollMs: 0,
    outboxSweepMs: 0,
    searchIndexMs: 0,
    exportSweepMs: 0,
    logLevel: 'silent' as const,
  };
  const { app } = await buildApp(env, { logger: false });
  cleanups.push(() => app.close());
  return { app, call: (name: RouteName, body: object, token?: string) => callOn(app, name, body, token) };
}

async function callOn(app: FastifyInstance, name: RouteName, body: object, token?: string) {
  const res = await app.inject({
    method: 'POST',
    url: routes[name].path,
    headers: { [CLIENT_HEADER]: 'web', 'accept-language': 'en', ...(token && { authorization: token }) },
    payload: body,
  });
  const json = res.json<{ code: number; msg: string; data: any }>();
  expect(json.code, `${name}: ${json.msg}`).toBe(0);
  return json.data;
}

/** `npm run admin -- …` on the place's database, as an operator runs it. */
function admin(place: Place, ...args: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', adminMain, ...args], {
    env: { ...process.env, DATA_DIR: place.dataDir, DATABASE_URL: place.databaseUrl ?? '' },
    encoding: 'utf8',
  });
  return { status: res.status, out: res.stdout, err: res.stderr };
}

/** A migration that changes the schema and the rows, then fails on a statement the database refuses. */
const failing: Migration = {
  async up(db) {
    await db.schema.createTable('upgrade_probe').addColumn('id', 'integer').execute();
    await db.schema
      .alterTable('users')
      .addColumn('probe', 'text', (c) => c.notNull().defaultTo('x'))
      .execute();
    await sql`update users set realname = 'changed'`.execute(db);
    await sql`insert into no_such_table values (1)`.execute(db);
  },
};

const backupsIn = (place: Place) => {
  const dir = path.join(place.dataDir, BACKUPS_DIR);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

describeEachDb(`upgrading a ${OLDEST} database`, (target) => {
  it('applies every migration, and the old people and messages are there through the API', async () => {
    const place = await oldPlace(target);
    expect((await snapshot(place)).migrations.at(-1)).toBe(OLDEST_LAST);
    const { call } = await serve(place);
    expect((await snapshot(place)).migrations).toEqual(KNOWN);

    const ann = (await call('login', { account: 'ann_old', password: 'secret123' })).authToken as string;
    const contacts = await call('getContacts', {}, ann);
    const bob = contacts.find((c: any) => c.displayName === 'Bob');
    const group = contacts.find((c: any) => c.is_group === 1);
    const withBob = await call('getMessageList', { toContactId: bob.id, is_group: 0 }, ann);
    expect(withBob.map((m: any) => m.content)).toEqual(
      expect.arrayContaining(['你好 Bob，这是 6.1.0 的消息', 'Hi Ann 👋 from the old release']),
    );
    expect(withBob.some((m: any) => m.type === 'file' && m.fileName === 'notes.txt')).toBe(true);
    const inGroup = await call('getMessageList', { toContactId: group.id, is_group: 1 }, ann);
    expect(inGroup.map((m: any) => m.content)).toEqual(
      expect.arrayContaining(['群里的第一条消息', 'a reply in the group']),
    );
    // Written to after the upgrade, and read back.
    const sent = await call(
      'sendMessage',
      { id: randomUUID(), toContactId: bob.id, is_group: 0, type: 'text', content: 'after the upgrade' },
      ann,
    );
    const after = await call('getMessageList', { toContactId: bob.id, is_group: 0 }, ann);
    expect(after.at(-1)).toMatchObject({ msg_id: sent.msg_id, content: 'after the upgrade' });

    if (target === 'sqlite') {
      // The copy taken before migrating: the database as 6.1.0 left it, and it opens.
      const [copy, ...more] = backupsIn(place);
      expect(more).toEqual([]);
      expect(copy).toMatch(new RegExp(`^sparrow-\\d{8}T\\d{9}Z-${OLDEST_LAST}\\.db$`));
      const old = new SQLite(path.join(place.dataDir, BACKUPS_DIR, copy!), { readonly: true });
      try {
        expect(old.pragma('integrity_check', { simple: true })).toBe('ok');
        const ran = old.prepare('select name from sparrow_migrations order by name').pluck().all();
        expect(ran).toEqual(KNOWN.filter((n) => n <= OLDEST_LAST));
        expect(old.prepare('select account from users order by id').pluck().all()).toEqual([
          'ann_old',
          'bob_old',
          'cat_old',
        ]);
      } finally {
        old.close();
      }
    }
  });

  it('rolls a failing migration back: the database as it was, the error naming it (and the copy)', async () => {
    const place = await oldPlace(target);
    const before = await snapshot(place);
    // Named to come right after 6.1.0's last: the first migration of the upgrade fails.
    const err = await migrate(open(place), { extra: { '033z-fails': failing } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpgradeError);
    const upgradeError = err as UpgradeError;
    expect(upgradeError.migration).toBe('033z-fails');
    expect(upgradeError.message).toMatch(/migration 033z-fails failed and was rolled back/);
    expect(upgradeError.message).toMatch(/no_such_table/);
    expect(await snapshot(place)).toEqual(before);
    if (target === 'sqlite') {
      expect(upgradeError.backup).toBe(path.join(place.dataDir, BACKUPS_DIR, backupsIn(place)[0]!));
      expect(upgradeError.message).toContain(upgradeError.backup);
    }
  });

  it('keeps the migrations before a failed one and rolls back only it', async () => {
    const place = await oldPlace(target);
    const opened = open(place);
    await migrate(opened);
    const upToDate = await snapshot(place);
    const err = await migrate(opened, { extra: { '999-fails': failing } }).catch((e: unknown) => e);
    expect((err as UpgradeError).migration).toBe('999-fails');
    expect(await snapshot(place)).toEqual(upToDate);

    // From 6.1.0 with the failing one last: today's migrations stay, each in its own transaction.
    const other = await oldPlace(target);
    const partly = await migrate(open(other), { extra: { '999-fails': failing } }).catch((e: unknown) => e);
    expect((partly as UpgradeError).message).toContain(`(${PENDING.join(', ')} ran before it and stay applied)`);
    expect((await snapshot(other)).migrations).toEqual(KNOWN);
  });

  it('refuses a database a newer Sparrow migrated, and changes nothing', async () => {
    const place = await oldPlace(target);
    await onRaw(place, async (run) => {
      await run(
        `insert into sparrow_migrations (name, timestamp) values ('999-from-the-future', '2030-01-01T00:00:00.000Z')`,
      );
    });
    const before = await snapshot(place);
    const err = await migrate(open(place)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpgradeError);
    expect((err as Error).message).toMatch(
      /upgraded by a newer Sparrow than .*it has run the migration 999-from-the-future, which this version does not know/,
    );
    await expect(serve(place)).rejects.toThrow(/999-from-the-future/);
    expect(await snapshot(place)).toEqual(before);
    expect(backupsIn(place)).toEqual([]);
    const check = admin(place, 'upgrade', '--check');
    expect(check.status).toBe(1);
    expect(check.out).toContain('refused: the database ran 999-from-the-future');
  }, 60_000);

  it('upgrade --check runs the pending migrations without changing the database; upgrade runs them', async () => {
    const place = await oldPlace(target);
    const before = await snapshot(place);
    const check = admin(place, 'upgrade', '--check');
    expect(check.status, check.err).toBe(0);
    expect(check.out).toContain(`the database is at ${OLDEST_LAST}; this Sparrow's newest is ${KNOWN.at(-1)}`);
    expect(check.out).toContain(`${PENDING.length} migrations pending`);
    for (const name of PENDING) expect(check.out).toMatch(new RegExp(`ok +${name} \\(\\d+ ms\\)`));
    expect(check.out).toContain('The live database was not changed.');
    expect(await snapshot(place)).toEqual(before);
    expect(fs.readdirSync(place.dataDir).filter((f) => f.startsWith('upgrade-check-'))).toEqual([]);
    expect(backupsIn(place)).toEqual([]);

    // A failing one is reported, with what comes after it not tried.
    const found = await checkUpgrade(open(place), { extra: { '033z-fails': failing } });
    expect(found.steps[0]).toMatchObject({ name: '033z-fails', outcome: 'failed' });
    expect(found.steps[0]!.error).toMatch(/no_such_table/);
    expect(found.steps.slice(1).map((s) => s.outcome)).toEqual(PENDING.map(() => 'not tried'));
    expect(await snapshot(place)).toEqual(before);

    const up = admin(place, 'upgrade');
    expect(up.status, up.err).toBe(0);
    expect(up.out).toContain(`upgraded to ${KNOWN.at(-1)}: ${PENDING.length} migrations applied`);
    expect((await snapshot(place)).migrations).toEqual(KNOWN);
    expect(admin(place, 'upgrade', '--check').out).toContain('nothing to migrate');
  }, 120_000);
});

describe('copies taken before upgrading [sqlite]', () => {
  it('keeps the last three', async () => {
    const place = await oldPlace('sqlite');
    const opened = open(place);
    // Each run has one more migration pending, so each takes a copy.
    const noop: Migration = { up: () => Promise.resolve() };
    const extra: Record<string, Migration> = {};
    for (const name of ['990-a', '991-b', '992-c', '993-d']) {
      extra[name] = noop;
      expect((await migrate(opened, { extra })).backup).toBeDefined();
    }
    const copies = backupsIn(place);
    expect(copies).toHaveLength(3);
    // The oldest copy (of 6.1.0's schema) is gone; the newest is of the schema before 993-d.
    expect(copies.map((f) => f.replace(/^sparrow-\d{8}T\d{9}Z-/, ''))).toEqual(['990-a.db', '991-b.db', '992-c.db']);
  });
});

describe.runIf(dbTargets().includes('postgres'))('nodes starting at once [postgres]', () => {
  it('one migrates a new database; the others wait for it and find nothing pending', async () => {
    const place = await emptyPlace('postgres');
    const nodes = [open(place), open(place), open(place)];
    const said: string[] = [];
    const reports = await Promise.all(nodes.map((n) => migrate(n, { log: (line) => said.push(line) })));
    const applied = reports.map((r) => r.applied.length).sort((a, b) => a - b);
    expect(applied).toEqual([0, 0, KNOWN.length]);
    // The lock, not luck: the later ones found it held while the first migrated.
    expect(said.filter((line) => line.startsWith('another node is migrating')).length).toBeGreaterThan(0);
    expect((await snapshot(place)).migrations).toEqual(KNOWN);
  });

  it('two servers started at once on one new database both come up', async () => {
    const place = await emptyPlace('postgres');
    const nodes = await Promise.all([1, 2].map((i) => serve(place, path.join(place.dataDir, `node${i}`))));
    for (const node of nodes) expect(await node.call('getSystemInfo', {})).toBeDefined();
    expect((await snapshot(place)).migrations).toEqual(KNOWN);
  });
});
