import type { Kysely } from 'kysely';

/**
 * Messages stored but not yet pushed. A message's row here is written in the transaction that
 * stores it and removed once its fan-out has run, so a crash or a failed fan-out between the two
 * leaves it here for the sweep (or the sender's retry) to push. A table of its own rather than a
 * column of `messages`: clearing a column that an index names would rewrite every index of the
 * message row on PostgreSQL (no HOT update), the trigram index of search among them; this table
 * holds only the messages in flight and stays a few pages long.
 */
export function messageOutbox() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('message_outbox')
        .addColumn('msg_id', 'bigint', (c) => c.primaryKey())
        /** When the sweep may push it, ms: a grace for the fan-out under way, then a lease per try. */
        .addColumn('due', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('message_outbox_due').on('message_outbox').column('due').execute();
    },
  };
}
