import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/** Accounts, sessions, verification codes, configuration, invite codes, stored files. */
export function accounts(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('users'), dialect)
        .addColumn('account', 'varchar(128)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('realname', 'varchar(64)', (c) => c.notNull())
        .addColumn('email', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('avatar', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('sex', 'integer', (c) => c.notNull().defaultTo(2))
        .addColumn('motto', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('is_auth', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('role', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('language', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_email').on('users').column('email').execute();
      await db.schema.createIndex('users_phone').on('users').column('phone').execute();

      await idColumn(db.schema.createTable('sessions'), dialect)
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('cid', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('is_mobile', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await idColumn(db.schema.createTable('verify_codes'), dialect)
        .addColumn('account', 'varchar(128)', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('verify_codes_account').on('verify_codes').columns(['account', 'type']).execute();

      await db.schema
        .createTable('config')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('invite_codes')
        .addColumn('code', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('created_by', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('uses_left', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();

      await idColumn(db.schema.createTable('files'), dialect)
        .addColumn('hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('ext', 'varchar(16)', (c) => c.notNull())
        .addColumn('mime', 'varchar(128)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('cate', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
