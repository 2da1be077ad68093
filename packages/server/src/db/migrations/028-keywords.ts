import { sql, type Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Keyword rules (敏感词): lists of words and patterns, each list with its action (refuse, replace,
 * review), and what review holds back (`held_items`) until an operator approves or rejects it. A
 * held message's file (`file_id`) counts as a use of it while it waits (`held_items_file`, partial:
 * most held items carry none).
 */
export function keywords(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await idColumn(db.schema.createTable('keyword_lists'), dialect)
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('action', 'varchar(16)', (c) => c.notNull())
        .addColumn('enabled', 'smallint', (c) => c.notNull().defaultTo(1))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('keyword_words'), dialect)
        .addColumn('list_id', 'bigint', (c) => c.notNull())
        .addColumn('word', 'varchar(64)', (c) => c.notNull())
        .addUniqueConstraint('keyword_words_list_word', ['list_id', 'word'])
        .execute();
      await idColumn(db.schema.createTable('held_items'), dialect)
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('chat_type', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('to_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('file_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('words', 'text', (c) => c.notNull())
        .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addColumn('decide_time', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('decided_by', 'bigint', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('held_items_client', ['kind', 'user_id', 'client_id'])
        .execute();
      await db.schema.createIndex('held_items_status').on('held_items').columns(['status', 'id']).execute();
      await db.schema
        .createIndex('held_items_file')
        .on('held_items')
        .column('file_id')
        .where(sql.ref('file_id'), '<>', 0)
        .execute();
    },
  };
}
