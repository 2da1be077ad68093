import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * QR login (扫码登录): `qr_logins` holds each code a signed-out page showed, in the database so that
 * any node answers any step (the page may ask one node, the phone another). `state` moves by
 * compare-and-set only: 0 waiting → 1 scanned (by `user_id`) → 2 confirmed (the session
 * `session_id` made) or 3 cancelled. `secret_hash` is the SHA-256 of the secret only the page holds;
 * the session a confirm makes takes it as its token hash, so the token is never stored. Rows past
 * `expires_at` are deleted as new codes are made.
 *
 * `sessions.via` says how a session was made ('' a password or code, 'qr' QR login) and
 * `sessions.approved_by` which session confirmed it, so that the phone can list and end the web
 * sessions it let in.
 */
export function qrLogin(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('qr_logins'), dialect)
        .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('session_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('qr_logins_expires').on('qr_logins').column('expires_at').execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('via', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('approved_by', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
