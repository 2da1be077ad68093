import type { Kysely } from 'kysely';

/**
 * A user's own deletion of their account (注销账号): the row stays, anonymised, with status 2 and
 * the time it was deleted, so that the messages it sent keep a sender and its account name stays
 * taken until `account.nameHoldDays` have passed (UserRepo.freeDeletedNames).
 */
export function accountDeletion() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('deleted_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
