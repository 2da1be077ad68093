import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/** Media facts of stored files, who uploaded what under which name, and sticker collections. */
export function files(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('files')
        .addColumn('duration', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('files')
        .addColumn('thumb', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('files')
        .addColumn('storage_key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute();

      await idColumn(db.schema.createTable('user_files'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('user_files_user').on('user_files').columns(['user_id', 'file_id']).execute();

      await idColumn(db.schema.createTable('emoji'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('sort', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('emoji_user_file', ['user_id', 'file_id'])
        .execute();
    },
  };
}
