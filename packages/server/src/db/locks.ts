import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database, Db } from './index';

/**
 * Holding a state change's invariant while several servers change the same rows: a repository
 * method that checks and then writes runs both in one transaction that first takes a lock naming
 * what it changes. PostgreSQL takes the lock (`lockRow`, `lockKey`) and lets every other
 * transaction asking for it wait until commit; SQLite writes one transaction at a time on the
 * server's one connection, so the transaction alone already keeps others out.
 *
 * Inside such a transaction only the transaction's own queries may run: on SQLite a query through
 * the database would wait for the connection the transaction holds.
 */

/** Whether `db` speaks to PostgreSQL (where locks are taken). */
export function onPostgres(db: Db | Transaction<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Runs `work` in a transaction: the caller's when `db` already is one, else a new one. */
export function inTransaction<T>(
  db: Db | Transaction<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/** Takes a row's lock (`SELECT … FOR UPDATE`) until the transaction ends. */
export async function lockRow(
  trx: Transaction<Database>,
  table: 'groups' | 'users' | 'files',
  id: number,
): Promise<void> {
  if (onPostgres(trx)) await trx.selectFrom(table).select('id').where('id', '=', id).forUpdate().execute();
}

/**
 * Takes a lock named by `key` until the transaction ends, for what has no row of its own to lock
 * (a pair of users, before either has a row naming the other).
 */
export async function lockKey(trx: Transaction<Database>, key: string): Promise<void> {
  if (onPostgres(trx)) await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
