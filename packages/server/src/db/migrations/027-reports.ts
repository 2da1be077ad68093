import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Reports (投诉) and what admins do about them. `reports`: who reported what (`kind`, `target_id`;
 * a group by its number), why, and a snapshot of what they saw (`evidence`, JSON); `open_key` is
 * `reporter:kind:target` while the report is open and NULL once closed, so that reporting the same
 * thing again while the first is open finds it instead of adding another. `report_files`: the
 * files a report keeps stored (the reporter's pictures, the reported message's file, the post's
 * pictures), which FileRepo.inUse asks. `users.muted_until`: an admin's server-wide mute, ms.
 */
export function reports(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('reports'), dialect)
        .addColumn('reporter_id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', 'bigint', (c) => c.notNull())
        .addColumn('target_user_id', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'varchar(32)', (c) => c.notNull())
        // Text, bounded by the route's schema in characters (see migration 016).
        .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('evidence', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('action', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('handler_id', 'bigint')
        .addColumn('open_key', 'varchar(80)', (c) => c.unique())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('closed_time', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('reports_status').on('reports').columns(['status', 'id']).execute();
      await db.schema.createIndex('reports_reporter').on('reports').columns(['reporter_id', 'id']).execute();
      await db.schema.createIndex('reports_target_user').on('reports').columns(['target_user_id', 'id']).execute();

      await db.schema
        .createTable('report_files')
        .addColumn('report_id', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        /** 1: a picture the reporter attached; 0: a file of what was reported. */
        .addColumn('attached', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('report_files_pk', ['report_id', 'file_id'])
        .execute();
      await db.schema.createIndex('report_files_file').on('report_files').column('file_id').execute();

      await db.schema
        .alterTable('users')
        .addColumn('muted_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
