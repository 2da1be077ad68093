import type { Kysely } from 'kysely';

/**
 * A group's code scanned by a Raingad client (`POST /scan/g/<token>`): that client then opens the
 * group by its id alone (groupInfo, then joinGroup without the token), as the original server let
 * it. The scan is the proof it holds a genuine code: kept per person and group, with the code's
 * generation and expiry, so that groupInfo and joinGroup admit exactly what the code would.
 */
export function groupScans() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('group_scans')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('group_id', 'bigint', (c) => c.notNull())
        .addColumn('generation', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_scans_pk', ['user_id', 'group_id'])
        .execute();
    },
  };
}
