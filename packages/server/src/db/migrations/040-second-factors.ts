import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Second factors and the sign-in step between the first factor and a session.
 *
 * - `user_totp`: a user's authenticator-app seed, sealed (lib/sealed.ts, context `totp:<user id>`).
 *   `enabled_at` is 0 while the setup waits for its first code. `last_step` is the newest 30-second
 *   step a code was accepted for: a code is good once.
 * - `recovery_codes`: ten single-use codes per user, stored as their HMAC; `used_at` 0 until used.
 * - `passkeys`: WebAuthn credentials (`credential_id` base64url, unique across users), with the
 *   signature counter and what the authenticator said of itself.
 * - `webauthn_challenges`: a challenge handed out for a passkey's registration or sign-in, in the
 *   database so that any node checks what another issued; each is used once.
 * - `login_tickets`: a sign-in proven by its first factor that waits for its second; the ticket's
 *   SHA-256, the client it was asked from (JSON), and the failed codes so far.
 * - `users.two_step`: 1 while the user has a second factor (an enabled TOTP or a passkey), read with
 *   the session on every call so that a policy requiring one needs no further query.
 */
export function secondFactors(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('user_totp')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey())
        .addColumn('secret', 'varchar(255)', (c) => c.notNull())
        .addColumn('enabled_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('recovery_codes'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('used_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();
      await idColumn(db.schema.createTable('passkeys'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('credential_id', 'varchar(512)', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('device_type', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('last_used', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
      await idColumn(db.schema.createTable('webauthn_challenges'), dialect)
        .addColumn('challenge', 'varchar(128)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webauthn_challenges_expires')
        .on('webauthn_challenges')
        .column('expires_at')
        .execute();
      await idColumn(db.schema.createTable('login_tickets'), dialect)
        .addColumn('ticket_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('via', 'varchar(16)', (c) => c.notNull().defaultTo(''))
        .addColumn('client', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_tickets_expires').on('login_tickets').column('expires_at').execute();
      await db.schema
        .alterTable('users')
        .addColumn('two_step', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
