import type { Kysely } from 'kysely';

/** Whether a group's avatar was uploaded (kept) or generated from its members (refreshed). */
export function groupAvatar() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('groups')
        .addColumn('avatar_custom', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
