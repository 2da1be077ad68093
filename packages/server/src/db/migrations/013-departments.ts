import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Departments of the organisation (docs/product.md §3's `dep_id`): a tree by `parent_id` (0 at the top),
 * ordered by `sort`, and each user's department (0: none). They mean something in runMode 1,
 * where everyone in the organisation is a contact and the contact list groups people by them.
 */
export function departments(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('departments'), dialect)
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('parent_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('departments_parent').on('departments').column('parent_id').execute();
      await db.schema
        .alterTable('users')
        .addColumn('dep_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('users_dep').on('users').column('dep_id').execute();
    },
  };
}
