import type { Kysely } from 'kysely';

/**
 * A chat's messages by time: getMessageList with `start_time` (jump to a day) finds that day's first
 * message through it instead of reading the chat from its start, and counts the rest from there.
 */
export function messageTime() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('messages_chat_time').on('messages').columns(['chat_key', 'create_time']).execute();
    },
  };
}
