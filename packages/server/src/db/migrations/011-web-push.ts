import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Web Push (docs/protocol.md §7): the server's VAPID key pair, made at first start and kept so that browsers'
 * subscriptions stay valid across restarts and nodes; each browser's subscription, which holds while the session that made it does; and each user's
 * choice of whether a push shows the message or only that one came.
 */
export function webPush(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('push_vapid')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('public_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('private_key', 'varchar(128)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('push_subscriptions'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('session_id', 'bigint', (c) => c.notNull())
        .addColumn('endpoint', 'varchar(1024)', (c) => c.notNull().unique())
        .addColumn('p256dh', 'varchar(128)', (c) => c.notNull())
        .addColumn('auth', 'varchar(64)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();
      await db.schema
        .createTable('push_settings')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey())
        .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  };
}
