import type { Kysely } from 'kysely';

/**
 * Push subscriptions whose push service keeps failing: how many pushes in a row failed, and since
 * when. One that fails long enough is dropped, so that a dead or hostile endpoint stops costing a
 * connection per message.
 */
export function pushFailures() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('push_subscriptions')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('push_subscriptions').addColumn('failing_since', 'bigint').execute();
    },
  };
}
