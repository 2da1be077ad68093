import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Favourites (收藏): what a user saved of a message or a moments post, as a snapshot (`body`, JSON)
 * that a later withdrawal or deletion of the original leaves as it is. One row per user and
 * source, so that a retry or a double tap saves once. The files a favourite shows are listed in
 * `favourite_files` (a post's pictures, a message's file), and stay stored while one lists them.
 */
export function favourites(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('favourites'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_msg_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('source_post_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('file_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('favourites_source', ['user_id', 'source_msg_id', 'source_post_id'])
        .execute();
      await db.schema.createIndex('favourites_user').on('favourites').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('favourite_files')
        .addColumn('favourite_id', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('favourite_files_pk', ['favourite_id', 'file_id'])
        .execute();
      await db.schema.createIndex('favourite_files_file').on('favourite_files').column('file_id').execute();
    },
  };
}
