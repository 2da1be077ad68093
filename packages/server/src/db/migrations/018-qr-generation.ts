import type { Kysely } from 'kysely';

/**
 * A group's QR codes carry the generation they were made in; raising it (a member removed, the
 * code reset) revokes every code of the group handed out so far, printed or photographed alike.
 */
export function qrGeneration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('groups')
        .addColumn('qr_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
