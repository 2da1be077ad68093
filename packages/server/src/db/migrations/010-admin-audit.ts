import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * The administration console (docs/protocol.md §8): an append-only audit log of every change an admin makes
 * (the database itself refuses to update or delete a row), a flag that makes a user change a
 * password an admin set, and an index on message times for the dashboard's messages per day.
 */
export function adminAudit(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('audit_log'), dialect)
        .addColumn('admin_id', 'bigint', (c) => c.notNull())
        .addColumn('action', 'varchar(32)', (c) => c.notNull())
        .addColumn('target', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_admin').on('audit_log').columns(['admin_id', 'id']).execute();
      await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
      if (dialect === 'postgres') {
        await sql`
          create function audit_log_append_only() returns trigger language plpgsql as $$
          begin raise exception 'audit_log is append-only'; end $$
        `.execute(db);
        await sql`
          create trigger audit_log_append_only before update or delete on audit_log
          for each row execute function audit_log_append_only()
        `.execute(db);
      } else {
        for (const op of ['update', 'delete'])
          await sql`
            create trigger ${sql.raw(`audit_log_no_${op}`)} before ${sql.raw(op)} on audit_log
            begin select raise(abort, 'audit_log is append-only'); end
          `.execute(db);
      }

      await db.schema
        .alterTable('users')
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('messages_create_time').on('messages').column('create_time').execute();
    },
  };
}
