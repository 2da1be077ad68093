import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Single sign-on with OpenID Connect.
 *
 * - `sso_providers`: the issuers an operator configured, by `id` (the paths' part and
 *   `user_identities.provider` 'oidc:<id>'); `client_secret` sealed (lib/sealed.ts, context
 *   `sso:<id>`), '' when none. Server-only: the public configuration never reads this table.
 * - `sso_logins`: one round trip through a provider, in the database so that the node the
 *   provider sends the browser back to need not be the one that started it. `state` (the URL's,
 *   random) finds the row; `verifier` (PKCE) and `nonce` stay here. `step` moves by
 *   compare-and-set only: 0 started → 1 returned (the callback took it, once; `user_id` and the
 *   SHA-256 of the one-time code set) → 2 exchanged (the code spent, once). Rows past `expires_at`
 *   are deleted as new round trips start.
 */
export function sso(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sso_providers')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('issuer', 'varchar(255)', (c) => c.notNull())
        .addColumn('client_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('scopes', 'varchar(255)', (c) => c.notNull().defaultTo('openid email profile'))
        .addColumn('label', 'varchar(64)', (c) => c.notNull())
        .addColumn('create_accounts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('link_email', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('admin_claim', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('admin_value', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('update_time', 'bigint', (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('sso_logins'), dialect)
        .addColumn('state', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('verifier', 'varchar(128)', (c) => c.notNull())
        .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
        .addColumn('redirect_uri', 'varchar(512)', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_logins_code').on('sso_logins').column('code_hash').execute();
      await db.schema.createIndex('sso_logins_expires').on('sso_logins').column('expires_at').execute();
    },
  };
}
