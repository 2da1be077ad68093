import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Moments: posts with their images, the people a post names (only these / all but these), likes,
 * comments, notices, and each user's moments settings and hide lists. A feed page is read from the
 * posts' author-and-id index (fan-out on read).
 */
export function moments(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('moment_posts'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('visibility', 'integer', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('moment_posts_client', ['user_id', 'client_id'])
        .execute();
      await db.schema.createIndex('moment_posts_author').on('moment_posts').columns(['user_id', 'id']).execute();

      await idColumn(db.schema.createTable('moment_images'), dialect)
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('moment_images_post').on('moment_images').columns(['post_id', 'sort']).execute();
      await db.schema.createIndex('moment_images_file').on('moment_images').column('file_id').execute();

      await db.schema
        .createTable('moment_targets')
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('moment_targets_pk', ['post_id', 'user_id'])
        .execute();

      await idColumn(db.schema.createTable('moment_likes'), dialect)
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('moment_likes_once', ['post_id', 'user_id'])
        .execute();

      await idColumn(db.schema.createTable('moment_comments'), dialect)
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('reply_to_user', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('moment_comments_post').on('moment_comments').columns(['post_id', 'id']).execute();

      await idColumn(db.schema.createTable('moment_notices'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('actor_id', 'bigint', (c) => c.notNull())
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('comment_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('moment_notices_user').on('moment_notices').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('moment_notices_post').on('moment_notices').column('post_id').execute();

      await db.schema
        .createTable('moment_settings')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey())
        .addColumn('cover_file_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('range_days', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('read_notice_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('seen_post_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();

      // kind 1: the owner hides their posts from `other_id`; kind 2: the owner skips `other_id`'s posts.
      await db.schema
        .createTable('moment_hides')
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('other_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('moment_hides_pk', ['owner_id', 'kind', 'other_id'])
        .execute();
      await db.schema.createIndex('moment_hides_other').on('moment_hides').columns(['other_id', 'kind']).execute();
    },
  };
}
