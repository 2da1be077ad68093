import type { Kysely } from 'kysely';

/**
 * Block lists (黑名单): who blocked whom and when, one row per pair; `blocks_blocked` serves the
 * other direction (whom a sender is blocked by).
 */
export function blocks() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('blocks')
        .addColumn('blocker_id', 'bigint', (c) => c.notNull())
        .addColumn('blocked_id', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
        .execute();
      await db.schema.createIndex('blocks_blocked').on('blocks').columns(['blocked_id', 'blocker_id']).execute();
    },
  };
}
