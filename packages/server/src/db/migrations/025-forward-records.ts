import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Merged forwards (合并转发): a record is a snapshot of the messages chosen, kept apart from them so
 * that a later withdrawal or deletion of an original does not change it; `forward_record_files`
 * names the files its items carry, which stay served while a record holds them.
 */
export function forwardRecords(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('forward_records'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('forward_record_files')
        .addColumn('record_id', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('forward_record_files_pk', ['record_id', 'file_id'])
        .execute();
      await db.schema.createIndex('forward_record_files_file').on('forward_record_files').column('file_id').execute();
    },
  };
}
