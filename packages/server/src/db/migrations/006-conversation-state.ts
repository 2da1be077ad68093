import type { Kysely } from 'kysely';

/**
 * Conversation rows keep a user's own state only: unread counts are read off the messages from
 * the read position, so a message no longer writes a counter on every member's row.
 */
export function conversationState() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('conversations').dropColumn('unread').execute();
    },
  };
}
