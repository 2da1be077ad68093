import type { Selectable } from 'kysely';
import { Prepared } from '../../db/prepared';
import type { Db } from '../../db';
import type { ConversationsTable, MessagesTable } from '../../db/schema';

export type MessageRow = Selectable<MessagesTable>;
export type ConversationRow = Selectable<ConversationsTable>;

export const ChatType = { Private: 0, Group: 1, Self: 3 } as const;

/** The chat key of a private pair (the same for both sides). */
export const pairKey = (a: number, b: number) => `p:${Math.min(a, b)}:${Math.max(a, b)}`;
/** Whether a chat key is a group's (`g:<id>`). */
export const isGroupKey = (chatKey: string) => chatKey.startsWith('g:');
/** The chat key of my file-transfer chat. */
export const selfKey = (userId: number) => `s:${userId}`;

/** A message as it is handed to `store`: what search finds it by is worked out there. */
export type NewMessage = Omit<MessageRow, 'id' | 'search_text' | 'edited_at'>;

/** The groups a reader is in, and those among them that hide what came before the reader's join (Access.readerGroups). */
export interface ReaderGroups {
  ids: readonly number[];
  hidingHistory: readonly number[];
}

const messageBySender = new Prepared((db, fromUser: number, clientId: string) =>
  db.selectFrom('messages').selectAll().where('from_user', '=', fromUser).where('client_id', '=', clientId),
);

/** Message rows one at a time: found by id, sender or client id, withdrawn, deleted for all, hidden by a reader. */
export class MessageRepo {
  constructor(private readonly db: Db) {}

  byId(id: number): Promise<MessageRow | undefined> {
    return this.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  bySender(fromUser: number, clientId: string): Promise<MessageRow | undefined> {
    return messageBySender.first(this.db, fromUser, clientId);
  }

  /** Messages with this client id, newest first (client ids are unique per sender only). */
  byClientId(clientId: string): Promise<MessageRow[]> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('client_id', '=', clientId)
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
  }

  async update(id: number, values: Partial<Omit<MessageRow, 'id'>>): Promise<void> {
    await this.db.updateTable('messages').set(values).where('id', '=', id).execute();
  }

  /**
   * Turns a message into its withdrawal line, once: false when it was already withdrawn or deleted
   * (by a call that came first, on this server or another).
   */
  async withdraw(id: number, values: Partial<Omit<MessageRow, 'id'>>): Promise<boolean> {
    const res = await this.db
      .updateTable('messages')
      .set({ ...values, is_undo: 1 })
      .where('id', '=', id)
      .where('is_undo', '=', 0)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Deletes a message for everyone, once: false when it was already deleted. */
  async deleteForAll(id: number): Promise<boolean> {
    const res = await this.db
      .updateTable('messages')
      .set({ is_deleted: 1 })
      .where('id', '=', id)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async newestId(chatKey: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('m'))
      .where('chat_key', '=', chatKey)
      .executeTakeFirst();
    return Number(row?.m ?? 0);
  }

  async hide(userId: number, msgId: number): Promise<void> {
    await this.db
      .insertInto('message_hidden')
      .values({ user_id: userId, msg_id: msgId })
      .onConflict((oc) => oc.columns(['user_id', 'msg_id']).doNothing())
      .execute();
  }

  async isHidden(userId: number, msgId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('message_hidden')
      .select('msg_id')
      .where('user_id', '=', userId)
      .where('msg_id', '=', msgId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The newest live (not deleted, not withdrawn) messages that carry a file, at most `limit`. */
  async liveIdsWithFile(fileId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('messages')
      .select('id')
      .where('file_id', '=', fileId)
      // The condition of the partial index messages_file, for SQLite to use it.
      .where('file_id', '<>', 0)
      .where('is_deleted', '=', 0)
      .where('is_undo', '=', 0)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The messages of a chat's conversation rows' last ids, by id. */
  async byIds(ids: number[]): Promise<Map<number, MessageRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('messages').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }
}
