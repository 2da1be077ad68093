import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/** Friendships (one row per direction, carrying that side's remark) and friend requests. */
export function friends(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('friends'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('friend_user_id', 'bigint', (c) => c.notNull())
        .addColumn('nickname', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('friends_pair', ['user_id', 'friend_user_id'])
        .execute();
      await db.schema.createIndex('friends_friend').on('friends').column('friend_user_id').execute();

      await idColumn(db.schema.createTable('friend_requests'), dialect)
        .addColumn('create_user', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('friend_requests_to').on('friend_requests').columns(['user_id', 'status']).execute();
      await db.schema
        .createIndex('friend_requests_from')
        .on('friend_requests')
        .columns(['create_user', 'status'])
        .execute();
    },
  };
}
