import fs from 'node:fs';
import path from 'node:path';
import { APP_VERSION } from '@sparrow/protocol';
import { Migrator, SqliteAdapter, SqliteDialect, sql, type DialectAdapter, type Migration } from 'kysely';
import type { Dialect } from './dialect';
import { copySqlite, sqliteIntegrity } from './sqlite-copy';
import type { Db } from './types';

/**
 * Upgrading a database to this code's schema (docs/operations.md "Upgrading"). Kysely's Migrator
 * runs the migrations, one `migrateUp()` each, so each runs in a transaction of its own: a failed
 * one is rolled back whole and the ones before it stay (a new database's run in one transaction,
 * all or none). Around it:
 *
 * - a database that ran a migration this code does not know (a newer Sparrow's) is refused;
 * - on PostgreSQL a session advisory lock held from reading the state to the last migration, so
 *   that of several nodes starting at once one migrates and the others, waiting, find nothing left;
 * - on SQLite a copy of the database file in `<data folder>/backups/` before anything is run, when
 *   the database has tables and migrations are pending; the last `BACKUPS_KEPT` are kept.
 */

const MIGRATION_TABLE = 'sparrow_migrations';
const MIGRATION_LOCK_TABLE = 'sparrow_migrations_lock';

/** The PostgreSQL advisory lock of migrating, held by one session at a time. */
const MIGRATION_LOCK = sql`hashtextextended('sparrow migrations', 0)`;

/** How long the check on PostgreSQL waits for a lock a running server holds before giving up. */
const CHECK_LOCK_TIMEOUT = '5s';

/** The folder, beside the SQLite file, of the copies taken before upgrading. */
export const BACKUPS_DIR = 'backups';
/** Copies taken before upgrading that are kept; older ones are deleted after a new one is made. */
export const BACKUPS_KEPT = 3;
/** `sparrow-<UTC time>-<last migration>.db`: names sort as the copies were made. */
const BACKUP_NAME = /^sparrow-\d{8}T\d{9}Z-.+\.db$/;

export type Migrations = Record<string, Migration>;

/** A database to migrate. */
export interface MigrationTarget {
  db: Db;
  dialect: Dialect;
  /** SQLite: the database file, copied before an upgrade. */
  file?: string | undefined;
}

export interface UpgradeOptions {
  /** Told of each step: the copy made, a wait for another node, each migration applied. */
  log?: (line: string) => void;
  /** SQLite: copy the database before migrating it (default true; the check's scratch copy needs none). */
  backup?: boolean;
}

export interface UpgradeReport {
  /** The migrations run now, in order; empty when the database was up to date. */
  applied: string[];
  /** SQLite: the copy taken before them. */
  backup?: string | undefined;
}

/** Why the database was not brought up to date; the message says what to do. */
export class UpgradeError extends Error {
  constructor(
    message: string,
    /** The migration that failed, when one did. */
    readonly migration?: string,
    /** The copy taken before the upgrade (SQLite). */
    readonly backup?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'UpgradeError';
  }
}

/**
 * SQLite runs DDL inside a transaction as well as DML, but Kysely's SqliteAdapter says it does not,
 * and its Migrator then runs migrations without one. This dialect's adapter says it does (only the
 * Migrator reads the flag). A migration therefore cannot hold what SQLite refuses or ignores inside
 * a transaction: no VACUUM, no `PRAGMA foreign_keys`; none of the migrations does. A table that
 * others reference with ON DELETE CASCADE is never dropped to be rebuilt (dropping it deletes their
 * rows even with deferred keys): it gains columns instead.
 */
export class SqliteDialectWithDdlTransactions extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new SqliteAdapterWithDdlTransactions();
  }
}

class SqliteAdapterWithDdlTransactions extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** What the database has run, against what this code knows. */
interface SchemaState {
  /** The newest migration the database ran that this code knows. */
  current: string | undefined;
  /** This code's migrations the database has not run, in order. */
  pending: string[];
  /** Migrations the database ran that this code does not know. */
  unknown: string[];
  /** Whether the database holds any table (a new database is not copied). */
  hasTables: boolean;
}

async function readState(conn: Db, dialect: Dialect, all: Migrations): Promise<SchemaState> {
  const tables =
    dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(conn)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(conn);
  const ran = tables.rows.some((t) => t.name === MIGRATION_TABLE)
    ? (await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(conn)).rows.map(
        (r) => r.name,
      )
    : [];
  const known = Object.keys(all).sort();
  const done = new Set(ran);
  return {
    current: known.filter((name) => done.has(name)).at(-1),
    pending: known.filter((name) => !done.has(name)),
    unknown: ran.filter((name) => !(name in all)).sort(),
    hasTables: tables.rows.length > 0,
  };
}

function refuseNewer(state: SchemaState): void {
  if (!state.unknown.length) return;
  throw new UpgradeError(
    `this database was upgraded by a newer Sparrow than ${APP_VERSION}: it has run the migration` +
      `${state.unknown.length > 1 ? 's' : ''} ${state.unknown.join(', ')}, which this version does not know. ` +
      'Sparrow never migrates a database back: run the newer version again, or restore the backup taken ' +
      `before that upgrade (SQLite: DATA_DIR/${BACKUPS_DIR}/; PostgreSQL: your pg_dump) to run this one.`,
  );
}

/**
 * Runs `work` on one connection; on PostgreSQL holding the migration lock, waited for (and said
 * so) while another session holds it.
 */
function underMigrationLock<T>(
  target: MigrationTarget,
  log: ((line: string) => void) | undefined,
  work: (conn: Db) => Promise<T>,
): Promise<T> {
  return target.db.connection().execute(async (conn) => {
    if (target.dialect !== 'postgres') return work(conn);
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${MIGRATION_LOCK}) as locked`.execute(
      conn,
    );
    if (!rows[0]?.locked) {
      log?.('another node is migrating this database; waiting for it to finish');
      await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    }
    try {
      return await work(conn);
    } finally {
      // On a broken connection the lock went with the session; the work's own error is the one to tell.
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn).catch(() => undefined);
    }
  });
}

function migratorOn(conn: Db, all: Migrations): Migrator {
  return new Migrator({
    db: conn,
    provider: { getMigrations: () => Promise.resolve(all) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
}

/** One `migrateUp()`: the next pending migration in a transaction of its own. */
async function stepUp(migrator: Migrator, name: string): Promise<{ ms: number; error?: unknown; failed?: string }> {
  const started = performance.now();
  const { error, results } = await migrator.migrateUp();
  const ms = Math.round(performance.now() - started);
  const failed = results?.find((r) => r.status === 'Error')?.migrationName;
  if (error || results?.[0]?.status !== 'Success') return { ms, error: error ?? new Error('not run'), failed };
  if (results[0].migrationName !== name)
    return { ms, error: new Error(`ran ${results[0].migrationName}, not ${name}`) };
  return { ms };
}

/**
 * Brings the database to this code's newest migration: refused when the database is newer; on
 * SQLite copied first; each migration in its own transaction (a new database's all in one). Throws
 * an UpgradeError naming the migration that failed (rolled back) and the copy.
 */
export async function upgrade(
  target: MigrationTarget,
  all: Migrations,
  opts: UpgradeOptions = {},
): Promise<UpgradeReport> {
  const { log } = opts;
  return underMigrationLock(target, log, async (conn) => {
    const state = await readState(conn, target.dialect, all);
    refuseNewer(state);
    if (!state.pending.length) return { applied: [] };
    const backup =
      target.dialect === 'sqlite' && target.file && state.hasTables && opts.backup !== false
        ? await backUp(target.file, state.current)
        : undefined;
    if (backup) log?.(`the database was copied to ${backup} before upgrading`);
    const migrator = migratorOn(conn, all);
    if (state.current === undefined) {
      // A new database holds nothing to keep: all its migrations in one transaction, so that an
      // install is whole or not at all, in one step (each step costs Kysely two reads of the schema).
      const { error, results = [] } = await migrator.migrateToLatest();
      const failed = results.find((r) => r.status === 'Error')?.migrationName;
      if (error !== undefined || failed) throw failure(failed ?? state.pending[0]!, error, [], undefined, !!failed);
      log?.(`the new database has all ${state.pending.length} migrations`);
      return { applied: state.pending };
    }
    log?.(`upgrading the database: ${state.pending.length} migrations to run (${state.pending.join(', ')})`);
    const applied: string[] = [];
    for (const name of state.pending) {
      const { ms, error, failed } = await stepUp(migrator, name);
      if (error !== undefined) throw failure(failed ?? name, error, applied, backup, failed !== undefined);
      applied.push(name);
      log?.(`migration ${name} applied (${ms} ms)`);
    }
    if (backup && target.file) pruneBackups(target.file);
    return { applied, backup };
  });
}

function failure(name: string, error: unknown, applied: string[], backup: string | undefined, ran: boolean) {
  const cause = error instanceof Error ? error.message : String(error);
  const what = ran
    ? `migration ${name} failed and was rolled back: the database is as it was before it`
    : `migration ${name} could not be started: the database is as it was before it`;
  const before = applied.length ? ` (${applied.join(', ')} ran before it and stay applied)` : '';
  const copy = backup
    ? ` The copy taken before this upgrade is ${backup}: to go back to the version you ran before, stop Sparrow and put it in place of the database file.`
    : '';
  return new UpgradeError(
    `${what}${before}. ${cause}.${copy} Sparrow ${APP_VERSION} does not start until its migrations have run.`,
    name,
    backup,
    { cause: error },
  );
}

/** Copies the SQLite file into `<its folder>/backups/`, checks the copy, and keeps the last few. */
async function backUp(file: string, current: string | undefined): Promise<string> {
  const dir = path.join(path.dirname(file), BACKUPS_DIR);
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const dest = path.join(dir, `sparrow-${stamp}-${current ?? 'none'}.db`);
  // Written under another name and renamed once whole and checked: a copy cut short (the process
  // killed, the disk full) is never taken for one.
  const partial = `${dest}.partial`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    await copySqlite(file, partial);
    const integrity = sqliteIntegrity(partial);
    if (integrity !== 'ok') throw new Error(`the copy failed SQLite's integrity check: ${integrity}`);
    fs.renameSync(partial, dest);
  } catch (err) {
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`, dest]) fs.rmSync(f, { force: true });
    throw new UpgradeError(
      `nothing was migrated: the database could not be copied to ${dest} before upgrading ` +
        `(${err instanceof Error ? err.message : String(err)}). Free space in the data folder or fix the cause, then start again.`,
      undefined,
      undefined,
      { cause: err },
    );
  }
  return dest;
}

/**
 * Keeps the newest few copies, once an upgrade has finished: after a failed one the copy from
 * before it is the way back, and a server restarted again and again (systemd, compose) would
 * otherwise push it out with copies of the half-upgraded database.
 */
function pruneBackups(file: string): void {
  const dir = path.join(path.dirname(file), BACKUPS_DIR);
  const copies = fs
    .readdirSync(dir)
    .filter((f) => BACKUP_NAME.test(f))
    .sort();
  for (const old of copies.slice(0, -BACKUPS_KEPT)) fs.rmSync(path.join(dir, old), { force: true });
}

/** What `upgrade --check` found: the pending migrations and how each went. */
export interface UpgradeCheck {
  /** The newest migration the database has run, of those this code knows. */
  current: string | undefined;
  /** This code's newest migration. */
  latest: string | undefined;
  /** Migrations the database ran that this code does not know: a newer Sparrow's; nothing was tried. */
  unknown: string[];
  /** Each pending migration in order: applied, failed (its error), or not tried after a failure. */
  steps: Array<{ name: string; outcome: 'ok' | 'failed' | 'not tried'; ms?: number; error?: string }>;
}

function checkOf(state: SchemaState, all: Migrations): UpgradeCheck {
  return { current: state.current, latest: Object.keys(all).sort().at(-1), unknown: state.unknown, steps: [] };
}

/**
 * The check on a copy (SQLite: the caller's scratch copy of the file): runs the pending migrations
 * for real, as `upgrade` would, each in its own transaction.
 */
export function rehearseOnCopy(copy: MigrationTarget, all: Migrations): Promise<UpgradeCheck> {
  return underMigrationLock(copy, undefined, async (conn) => {
    const state = await readState(conn, copy.dialect, all);
    const check = checkOf(state, all);
    if (state.unknown.length) return check;
    const migrator = migratorOn(conn, all);
    let failed = false;
    for (const name of state.pending) {
      if (failed) {
        check.steps.push({ name, outcome: 'not tried' });
        continue;
      }
      const { ms, error } = await stepUp(migrator, name);
      failed = error !== undefined;
      check.steps.push({ name, ms, ...(failed ? { outcome: 'failed', error: messageOf(error) } : { outcome: 'ok' }) });
    }
    return check;
  });
}

/** Thrown to roll the check's transaction back. */
class RolledBack extends Error {}

/**
 * The check on the live PostgreSQL database: the pending migrations in one transaction that is
 * rolled back, under the migration lock. Their locks are held until then (a lock a running server
 * holds is waited for at most CHECK_LOCK_TIMEOUT); sequences a migration advanced stay advanced.
 */
export function rehearseRolledBack(target: MigrationTarget, all: Migrations): Promise<UpgradeCheck> {
  return underMigrationLock(target, undefined, async (conn) => {
    const state = await readState(conn, target.dialect, all);
    const check = checkOf(state, all);
    if (state.unknown.length || !state.pending.length) return check;
    await conn
      .transaction()
      .execute(async (trx) => {
        await sql`select set_config('lock_timeout', ${CHECK_LOCK_TIMEOUT}, true)`.execute(trx);
        let failed = false;
        for (const name of state.pending) {
          if (failed) {
            check.steps.push({ name, outcome: 'not tried' });
            continue;
          }
          const started = performance.now();
          try {
            await all[name]!.up(trx);
            check.steps.push({ name, outcome: 'ok', ms: Math.round(performance.now() - started) });
          } catch (err) {
            // The transaction is aborted: what comes after it cannot be tried.
            failed = true;
            check.steps.push({
              name,
              outcome: 'failed',
              ms: Math.round(performance.now() - started),
              error: messageOf(err),
            });
          }
        }
        throw new RolledBack();
      })
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) throw err;
      });
    return check;
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
