import type { Kysely } from 'kysely';

/**
 * A group's member list changes version with every join and leave, so that a server may keep the
 * member ids a message fans out to and know from the group row whether they are still current.
 */
export function memberVersion() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('groups')
        .addColumn('member_version', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
