import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, type LogEvent, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { keepPrepared, linkAtOnce, SqliteAtOnce } from './at-once';
import { onFirstUse } from '../lib/lazy';
import { Checkpointer } from './checkpointer';
import { statementName } from './prepared';
import { copySqlite } from './sqlite-copy';
import {
  rehearseOnCopy,
  rehearseRolledBack,
  SqliteDialectWithDdlTransactions,
  upgrade,
  type Migrations,
  type UpgradeCheck,
  type UpgradeOptions,
  type UpgradeReport,
} from './upgrade';
import type { Dialect } from './dialect';
import { accounts } from './migrations/001-accounts';
import { friends } from './migrations/002-friends';
import { chat } from './migrations/003-chat';
import { groupAvatar } from './migrations/004-group-avatar';
import { files } from './migrations/005-files';
import { memberVersion } from './migrations/006-member-version';
import { moments } from './migrations/007-moments';
import { search } from './migrations/008-search';
import { momentTimeline } from './migrations/009-moment-timeline';
import { adminAudit } from './migrations/010-admin-audit';
import { webPush } from './migrations/011-web-push';
import { messageTime } from './migrations/012-message-time';
import { departments } from './migrations/013-departments';
import { userSetting } from './migrations/014-user-setting';
import { pushFailures } from './migrations/015-push-failures';
import { textWidths } from './migrations/016-text-widths';
import { messageOutbox } from './migrations/017-message-outbox';
import { qrGeneration } from './migrations/018-qr-generation';
import { searchIndex } from './migrations/019-search-index';
import { defaultAvatars } from './migrations/020-default-avatars';
import { groupScans } from './migrations/021-group-scans';
import { reactionsEdits } from './migrations/022-reactions-edits';
import { pins } from './migrations/023-pins';
import { favourites } from './migrations/024-favourites';
import { forwardRecords } from './migrations/025-forward-records';
import { reports } from './migrations/027-reports';
import { keywords } from './migrations/028-keywords';
import { accountDeletion } from './migrations/029-account-deletion';
import { dataExports } from './migrations/030-data-exports';
import { blocks } from './migrations/026-blocks';
import { retention } from './migrations/031-retention';
import { wordIndexMerge } from './migrations/032-word-index-merge';
import { qrLogin } from './migrations/033-qr-login';
import { readReceipts } from './migrations/034-read-receipts';
import { presenceStatus } from './migrations/037-presence-status';
import { chains } from './migrations/035-chains';
import { polls } from './migrations/036-polls';
import { typing } from './migrations/038-typing';
import { identities } from './migrations/039-identities';
import { secondFactors } from './migrations/040-second-factors';
import { knownDevices } from './migrations/041-known-devices';
import { sso } from './migrations/042-sso';
import { accessTokens } from './migrations/043-access-tokens';
import { groupRobots } from './migrations/044-group-robots';
import { bots } from './migrations/045-bots';
import type { Database, Db } from './types';

export type { Database, Db };
export { BACKUPS_DIR, BACKUPS_KEPT, UpgradeError, type UpgradeCheck, type UpgradeReport } from './upgrade';

/**
 * Migrations in order; a new one is appended, never edited once released. Each runs in a
 * transaction of its own (upgrade.ts): nothing in one may need to run outside a transaction.
 */
function migrations(dialect: Dialect): Migrations {
  return {
    '001-accounts': accounts(dialect),
    '002-friends': friends(dialect),
    '003-chat': chat(dialect),
    '004-group-avatar': groupAvatar(),
    '005-files': files(dialect),
    '006-member-version': memberVersion(),
    '007-moments': moments(dialect),
    '008-search': search(dialect),
    '009-moment-timeline': momentTimeline(dialect),
    '010-admin-audit': adminAudit(dialect),
    '011-web-push': webPush(dialect),
    '012-message-time': messageTime(),
    '013-departments': departments(dialect),
    '014-user-setting': userSetting(),
    '015-push-failures': pushFailures(),
    '016-text-widths': textWidths(dialect),
    '017-message-outbox': messageOutbox(),
    '018-qr-generation': qrGeneration(),
    '019-search-index': searchIndex(dialect),
    '020-default-avatars': defaultAvatars(),
    '021-group-scans': groupScans(),
    '022-reactions-edits': reactionsEdits(dialect),
    '023-pins': pins(),
    '024-favourites': favourites(dialect),
    '025-forward-records': forwardRecords(dialect),
    '027-reports': reports(dialect),
    '031-retention': retention(),
    '028-keywords': keywords(dialect),
    '029-account-deletion': accountDeletion(),
    '030-data-exports': dataExports(dialect),
    '026-blocks': blocks(),
    '032-word-index-merge': wordIndexMerge(dialect),
    '033-qr-login': qrLogin(dialect),
    '034-read-receipts': readReceipts(),
    '037-presence-status': presenceStatus(),
    '035-chains': chains(dialect),
    '036-polls': polls(dialect),
    '038-typing': typing(),
    '039-identities': identities(dialect),
    '040-second-factors': secondFactors(dialect),
    '041-known-devices': knownDevices(),
    '042-sso': sso(dialect),
    '043-access-tokens': accessTokens(dialect),
    '044-group-robots': groupRobots(dialect),
    '045-bots': bots(dialect),
  };
}

/** node-postgres, with DATABASE_URL only; int8 (bigint, bigserial, count(*)) read as a JS number: ids and millisecond times fit in 2^53. */
const loadPg = onFirstUse<typeof pg>('pg', (pg) => pg.types.setTypeParser(20, (v) => Number(v)));

/** A PostgreSQL pool's connections: open, idle among them, and requests waiting for one. */
export interface PoolCounts {
  total: number;
  idle: number;
  waiting: number;
}

export interface OpenedDb {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL only: the pool's connections as they are now. */
  pool?: () => PoolCounts;
  /** SQLite only: the database file. */
  file?: string;
  /** Ends every connection; on SQLite the checkpoint thread's first, so the log is folded in and removed. */
  close(): Promise<void>;
}

/** The embedded database's file in the data folder. */
export const SQLITE_FILE = 'sparrow.db';

/** Opens PostgreSQL when `databaseUrl` is set, else the SQLite file `<dataDir>/sparrow.db`. */
export function openDb(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Told when an idle PostgreSQL connection dies (database restarted, connection killed). */
  onIdleError?: (err: Error) => void;
  /** Told when SQLite's checkpoint thread fails; the server's connection then checkpoints as SQLite does by default. */
  onCheckpointError?: (err: Error) => void;
  /** Told how long each statement took, ms (the database time metric). */
  onQuery?: (ms: number) => void;
}): OpenedDb {
  const { onQuery } = opts;
  const log = onQuery && ((event: LogEvent) => onQuery(event.queryDurationMillis));
  if (opts.databaseUrl) {
    const pool = new (loadPg().Pool)({ connectionString: opts.databaseUrl, max: 10 });
    // Without a listener the pool's 'error' event would end the process; the pool has already
    // dropped the dead connection and the next query opens a new one.
    // The pool hangs the connection on the error; logged, its whole state would fill the line.
    pool.on('error', (err) => opts.onIdleError?.(Object.assign(err, { client: undefined })));
    // A connection checked out but between two queries (inside a transaction, say) has no listener
    // of the pool's, and its death there (the backend terminated) would be an unhandled 'error' that
    // ends the process. The query that next uses it fails instead, and the pool drops it on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: byName(pool) }), log });
    return {
      db,
      dialect: 'postgres',
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = path.join(opts.dataDir, SQLITE_FILE);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const checkpointer = new Checkpointer(sqlite, (err) => opts.onCheckpointError?.(err));
  const db = new Kysely<Database>({
    dialect: new SqliteDialectWithDdlTransactions({
      database: {
        // Kysely prepares every query anew; a busy statement, mid-iteration, is not shared.
        prepare: keepPrepared(
          STATEMENT_CACHE_SIZE,
          (sql) => sqlite.prepare(sql),
          (stmt) => !stmt.busy,
        ),
        close: () => {
          void checkpointer.stop();
          sqlite.close();
        },
      },
    }),
    log,
  });
  linkAtOnce(db, new SqliteAtOnce(sqlite, STATEMENT_CACHE_SIZE, onQuery));
  return {
    db,
    dialect: 'sqlite',
    file,
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/** The pool as Kysely uses it, but that the statements of prepared queries (see `Prepared`) go by their names. */
function byName(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      // Kysely runs every query as text and values (this server streams none through a cursor).
      const query = ((sql: string, values: unknown[]) =>
        client.query({ name: statementName(sql), text: sql, values })) as unknown as PostgresPoolClient['query'];
      return { query, release: () => client.release() };
    },
    end: () => pool.end(),
  };
}

/** Distinct SQL texts kept prepared; `in (…)` lists of every length make the set open-ended. */
const STATEMENT_CACHE_SIZE = 1000;

export interface MigrateOptions extends UpgradeOptions {
  /** Migrations after (or between) the released ones: the tests' own, e.g. one that fails. */
  extra?: Migrations;
}

/**
 * Brings the schema up to date (upgrade.ts): a newer database refused, SQLite copied first, each
 * migration in its own transaction; throws an UpgradeError naming the migration that failed.
 */
export function migrate(opened: OpenedDb, opts: MigrateOptions = {}): Promise<UpgradeReport> {
  return upgrade(opened, { ...migrations(opened.dialect), ...opts.extra }, opts);
}

/**
 * Runs the pending migrations without changing the database (`npm run admin -- upgrade --check`):
 * SQLite on an online copy in a scratch folder of the data folder, deleted after; PostgreSQL in one
 * transaction rolled back.
 */
export async function checkUpgrade(opened: OpenedDb, opts: Pick<MigrateOptions, 'extra'> = {}): Promise<UpgradeCheck> {
  const all = { ...migrations(opened.dialect), ...opts.extra };
  if (!opened.file) return rehearseRolledBack(opened, all);
  // The data folder, not the system's temporary one: it has room for the database already.
  const scratch = fs.mkdtempSync(path.join(path.dirname(opened.file), 'upgrade-check-'));
  try {
    await copySqlite(opened.file, path.join(scratch, SQLITE_FILE));
    const copy = openDb({ dataDir: scratch });
    try {
      return await rehearseOnCopy(copy, all);
    } finally {
      await copy.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
