import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Group sign-up chains (接龙): a chain per `chain` message, and its lines. A line's `seq` orders
 * the lines (its number is its place among those left); (chain_id, seq) and (chain_id, user_id)
 * are unique, so that lines added at once never share a place and a member holds one line. A
 * chain is keyed by its starter and the client-made id of its message, so that a retried start
 * finds the chain it made; `rev` counts its changes, so that a client keeps the newest it was told.
 */
export function chains(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('chains'), dialect)
        .addColumn('msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('group_id', 'bigint', (c) => c.notNull())
        .addColumn('creator', 'bigint', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('example', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('chains_msg').on('chains').column('msg_id').execute();
      await db.schema.createIndex('chains_client').on('chains').columns(['creator', 'client_id']).unique().execute();
      await db.schema
        .createTable('chain_entries')
        .addColumn('chain_id', 'bigint', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chain_entries_pk', ['chain_id', 'seq'])
        .addUniqueConstraint('chain_entries_user', ['chain_id', 'user_id'])
        .execute();
    },
  };
}
