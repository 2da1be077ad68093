import type { Kysely } from 'kysely';
import { idColumn, type Dialect } from '../dialect';

/**
 * Reactions and edited texts (issue 38).
 *
 * `message_reactions`: one row per person, message and emoji; a message's counts are counted from
 * its rows (never kept in a column another reaction could overwrite), from the index on
 * `(msg_id, emoji, create_time, user_id)` alone (it holds every column a page's count reads: the
 * reader's own among them, the order first used), which also lists who reacted with an emoji in order.
 *
 * `message_edits`: the earlier versions of an edited text, each with when it was replaced and by
 * whom; `messages.edited_at` (0: never edited) is the compare-and-set of an edit and what the
 * bubble's 已编辑 shows.
 */
export function reactionsEdits(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('message_reactions')
        .addColumn('msg_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        // One grapheme, bounded in UTF-16 units by the route's schema (REACTION_EMOJI_UNITS_MAX).
        .addColumn('emoji', 'varchar(32)', (c) => c.notNull())
        .addColumn('create_time', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('message_reactions_pk', ['msg_id', 'user_id', 'emoji'])
        .execute();
      await db.schema
        .createIndex('message_reactions_count')
        .on('message_reactions')
        .columns(['msg_id', 'emoji', 'create_time', 'user_id'])
        .execute();
      await idColumn(db.schema.createTable('message_edits'), dialect)
        .addColumn('msg_id', 'bigint', (c) => c.notNull())
        // Text, bounded by the route's schema in characters (see migration 016).
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('edited_at', 'bigint', (c) => c.notNull())
        .addColumn('by', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('message_edits_msg').on('message_edits').columns(['msg_id', 'id']).execute();
      await db.schema
        .alterTable('messages')
        .addColumn('edited_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
