import type { Kysely } from 'kysely';

/**
 * Group read receipts (群消息已读回执) are counted from the read positions conversations hold; a
 * user's 发送已读回执 is a column, not a key of `setting`'s JSON, so that counting a group's
 * receipts reads it in the same query as the members' positions.
 */
export function readReceipts() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('read_receipt', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  };
}
