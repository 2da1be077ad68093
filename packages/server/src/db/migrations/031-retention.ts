import { sql, type Kysely } from 'kysely';

/**
 * Retention (消息保存时间): the sweep that deletes messages and files past the server's and each
 * group's policy, and freeing stored files no one uses any more.
 *
 * - `files.removed_at`: when the file's bytes were removed from storage (0 while they are kept). A
 *   send naming a removed file is refused in the statement that stores it; an upload of the same
 *   bytes clears it again.
 * - `retention_sweep`: one row (id 1), the lease of the node sweeping (`holder`, `lease_until`) so
 *   that one node sweeps at a time, and what the last sweep did.
 * - `messages_file`: the messages carrying each file, asked before a file is freed (partial: most
 *   messages carry none). `message_hidden_msg`: a deleted message's "hidden for me" rows. `files_thumb`:
 *   whether another file's thumbnail is the bytes a freed file would remove.
 */
export function retention() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('files')
        .addColumn('removed_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('retention_sweep')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_start', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_end', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_messages', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_files', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`insert into retention_sweep (id) values (1)`.execute(db);
      await db.schema
        .createIndex('messages_file')
        .on('messages')
        .column('file_id')
        .where(sql.ref('file_id'), '<>', 0)
        .execute();
      await db.schema.createIndex('message_hidden_msg').on('message_hidden').column('msg_id').execute();
      await db.schema.createIndex('files_thumb').on('files').column('thumb').execute();
    },
  };
}
