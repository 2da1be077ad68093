import { type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Group robots (群机器人): `group_robots`, one row per robot of a group. A robot posts as an account
 * of its own (`user_id`, a users row with status 3 that never signs in), so that its messages show
 * its name and avatar as any sender's do. Its webhook key is kept twice: as its SHA-256
 * (`key_hash`, unique), by which a post finds it, and sealed (`key_sealed`), so that the group's
 * owner and administrators can read the webhook again. Removing a robot deletes its row; its
 * account stays for the messages it posted.
 */
export function groupRobots(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('group_robots'), dialect)
        .addColumn('group_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull().unique())
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('key_sealed', 'text', (c) => c.notNull())
        .addColumn('create_user', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('last_used', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('group_robots_group').on('group_robots').column('group_id').execute();
    },
  };
}
