import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Accounts signed in from outside: `user_identities` links a user to an identity a provider vouches
 * for, `provider` naming it ('oidc:<provider id>' for an OpenID Connect issuer, 'ldap' for the
 * directory) and `subject` the identity there (the `sub` claim, the entry's DN or its unique id).
 * One identity is one user's: (provider, subject) is unique, so two first sign-ins of the same
 * person at once make one account. `email` is the address the provider gave when it was linked.
 */
export function identities(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('user_identities'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('provider', 'varchar(64)', (c) => c.notNull())
        .addColumn('subject', 'varchar(255)', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('last_used', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('user_identities_subject', ['provider', 'subject'])
        .execute();
      await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();
    },
  };
}
