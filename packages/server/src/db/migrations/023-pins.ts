import type { Kysely } from 'kysely';

/**
 * Pinned messages (置顶消息): the messages pinned in a chat, who pinned each and when, at most
 * PINS_PER_CHAT_MAX per chat; and the suffix a user adds to a pat of them (拍一拍).
 */
export function pins() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('chat_pins')
        .addColumn('chat_key', 'varchar(48)', (c) => c.notNull())
        .addColumn('msg_id', 'bigint', (c) => c.notNull())
        .addColumn('pinned_by', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_pins_pk', ['chat_key', 'msg_id'])
        .execute();
      await db.schema.createIndex('chat_pins_msg').on('chat_pins').column('msg_id').execute();
      // Text, bounded by the route's schema in characters (see migration 016).
      await db.schema
        .alterTable('users')
        .addColumn('pat_suffix', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  };
}
