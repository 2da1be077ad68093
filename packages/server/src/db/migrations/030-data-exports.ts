import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Exports of a user's own data (下载我的数据): one row per request, built in the background by
 * whichever node claims it (`lease_until`, a compare-and-set), its archive kept in the uploads
 * store under `storage_key` until `expires_at`. At most one export of a user is queued or running:
 * the partial unique index refuses a second, which the request then answers with the first.
 */
export function dataExports(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('data_exports'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('storage_key', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('finish_time', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('data_exports_user').on('data_exports').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('data_exports_state').on('data_exports').columns(['state', 'lease_until']).execute();
      await db.schema
        .createIndex('data_exports_one_live')
        .on('data_exports')
        .column('user_id')
        .unique()
        .where(sql.ref('state'), 'in', ['queued', 'running'])
        .execute();
    },
  };
}
