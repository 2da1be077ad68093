import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Personal access tokens (开发者): `access_tokens`, a user's tokens for scripts and tools, each
 * stored as the SHA-256 of its secret (`token_hash`, unique) with the secret's first characters
 * (`hint`) to tell them apart, its scopes (comma-separated), when it ends (`expires_at`, 0 never)
 * and when it was last used. Revoking deletes the row.
 */
export function accessTokens(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('access_tokens'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('hint', 'varchar(16)', (c) => c.notNull())
        .addColumn('scopes', 'varchar(128)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_used', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').execute();
    },
  };
}
