import type { Kysely } from 'kysely';

/**
 * 对方正在输入… (typing indicator): a user's choice to tell others they are typing and see theirs, a
 * column beside `read_receipt` so that a typing frame's relay reads the sender's and the receivers'
 * choices with the rows it reads anyway.
 */
export function typing() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('typing', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  };
}
