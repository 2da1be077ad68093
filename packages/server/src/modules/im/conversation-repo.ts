import type { Db } from '../../db';
import { notHiddenBy } from './readable-repo';
import { isGroupKey, type ConversationRow, type MessageRow } from './repo';

/** Unread messages counted per group: the list shows 99+ beyond 99. */
export const UNREAD_MAX = 100;

/** A chat as one user's list shows it. */
export interface ConversationView {
  row: ConversationRow;
  /** The newest message the user can see, or 0. */
  lastId: number;
  /** Messages from others after the read position (in a group, up to UNREAD_MAX). */
  unread: number;
  /** The chat's newest message, deleted or hidden ones too: a chat taken off the list returns after it. */
  newestId: number;
}

/** Conversation rows, each user's side of a chat: the chat list, pinned and muted, unread, mentions and read marks. */
export class ConversationRepo {
  constructor(private readonly db: Db) {}

  conversation(userId: number, chatKey: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('chat_key', '=', chatKey)
      .executeTakeFirst();
  }

  /** Creates or updates a user's conversation row. */
  async upsertConversation(
    userId: number,
    chatKey: string,
    values: Partial<
      Pick<
        ConversationRow,
        'is_top' | 'is_notice' | 'hidden' | 'read_msg_id' | 'clear_msg_id' | 'unread' | 'is_at' | 'last_msg_id'
      >
    >,
  ): Promise<void> {
    await this.db
      .insertInto('conversations')
      .values({ user_id: userId, chat_key: chatKey, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'chat_key']).doUpdateSet(values))
      .execute();
  }

  /** One user's conversation rows (all, or of some chats) as their list shows them. */
  async viewsOf(userId: number, chatKeys?: string[]): Promise<ConversationView[]> {
    if (chatKeys?.length === 0) return [];
    let q = this.views().where('c.user_id', '=', userId);
    if (chatKeys) q = q.where('c.chat_key', 'in', chatKeys);
    return (await q.execute()).map(({ last_id, counted, newest_id, ...row }) => ({
      row,
      lastId: Number(last_id ?? 0),
      unread: Number(counted ?? 0),
      newestId: Number(newest_id ?? 0),
    }));
  }

  /** Some users' rows of one chat, by user. */
  async rowsIn(chatKey: string, userIds: number[]): Promise<Map<number, ConversationRow>> {
    const rows = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('chat_key', '=', chatKey)
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((r) => [r.user_id, r]));
  }

  /**
   * Conversation rows with what is read off the messages: the newest message the user can see
   * (not deleted, not hidden by them, after a cleared history; in a muted chat, not a system line,
   * which moves no muted chat up the list) and, in a group, the messages from others after the
   * read position but its system lines, counted up to `UNREAD_MAX` (a private chat's row keeps its
   * count). Each walks the (chat_key, id) index from the newest message down, so the cost does
   * not grow with the history.
   */
  private views() {
    return this.db
      .selectFrom('conversations as c')
      .selectAll('c')
      .select((eb) => [
        eb
          .selectFrom('messages as m')
          .select('m.id')
          .whereRef('m.chat_key', '=', 'c.chat_key')
          .whereRef('m.id', '>', 'c.clear_msg_id')
          .where('m.is_deleted', '=', 0)
          .where(notHiddenBy('c.user_id'))
          .where((e) => e.or([e('c.is_notice', '=', 1), e('m.type', '!=', 'event')]))
          .orderBy('m.id', 'desc')
          .limit(1)
          .as('last_id'),
        eb
          .case()
          .when('c.chat_key', 'like', 'g:%')
          .then(
            eb
              .selectFrom(
                eb
                  .selectFrom('messages as m')
                  .select('m.id')
                  .whereRef('m.chat_key', '=', 'c.chat_key')
                  .whereRef('m.id', '>', 'c.read_msg_id')
                  .whereRef('m.id', '>', 'c.clear_msg_id')
                  .whereRef('m.from_user', '!=', 'c.user_id')
                  .where('m.is_deleted', '=', 0)
                  .where('m.type', '!=', 'event')
                  .limit(UNREAD_MAX)
                  .as('u'),
              )
              .select((e) => e.fn.countAll<number>().as('n')),
          )
          .else(eb.ref('c.unread'))
          .end()
          .as('counted'),
        eb
          .selectFrom('messages as m')
          .select((e) => e.fn.max('m.id').as('n'))
          .whereRef('m.chat_key', '=', 'c.chat_key')
          .as('newest_id'),
      ]);
  }

  /** Takes one message back off a private chat's unread count, unless the user has read past it already. */
  async unreadDown(userId: number, chatKey: string, msgId: number): Promise<void> {
    await this.db
      .updateTable('conversations')
      .set((eb) => ({ unread: eb('unread', '-', 1) }))
      .where('user_id', '=', userId)
      .where('chat_key', '=', chatKey)
      .where('unread', '>', 0)
      .where('read_msg_id', '<', msgId)
      .execute();
  }

  /**
   * Marks a conversation read up to `msgId`; its mentions are cleared once nothing after it is
   * unread. A private chat's counter becomes what is left; a group's is counted when read. Answers
   * where it was read to before (its cleared history counts as read), or null when I have no such
   * conversation.
   */
  async markRead(userId: number, chatKey: string, msgId: number): Promise<number | null> {
    const conv = await this.conversation(userId, chatKey);
    if (!conv) return null;
    const readTo = Math.max(conv.read_msg_id, msgId);
    const after = this.db
      .selectFrom('messages')
      .where('chat_key', '=', chatKey)
      .where('id', '>', Math.max(readTo, conv.clear_msg_id))
      .where('from_user', '!=', userId)
      .where('is_deleted', '=', 0);
    let values: Partial<Pick<ConversationRow, 'read_msg_id' | 'unread' | 'is_at'>>;
    if (isGroupKey(chatKey)) {
      const left = await after.where('type', '!=', 'event').select('id').limit(1).executeTakeFirst();
      values = { read_msg_id: readTo, ...(!left && { is_at: 0 }) };
    } else {
      const left = Number((await after.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      values = { read_msg_id: readTo, unread: left, ...(left === 0 && { is_at: 0 }) };
    }
    // Never back: a read of an earlier message that lost the race to a later one leaves the later one's.
    await this.db
      .updateTable('conversations')
      .set(values)
      .where('id', '=', conv.id)
      .where('read_msg_id', '<=', readTo)
      .execute();
    return Math.max(conv.read_msg_id, conv.clear_msg_id);
  }

  /**
   * The newest `limit` messages of a chat from `fromUser` up to `upTo` that a read mark moving from
   * `afterId` has just covered, or that the reader named by client id (Raingad clients name the
   * unread messages they hold), oldest first.
   */
  async justRead(
    chatKey: string,
    fromUser: number,
    span: { afterId: number; upTo: number; named: string[] },
    limit: number,
  ): Promise<MessageRow[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('chat_key', '=', chatKey)
      .where('from_user', '=', fromUser)
      .where('id', '<=', span.upTo)
      .where((eb) =>
        span.named.length
          ? eb.or([eb('id', '>', span.afterId), eb('client_id', 'in', span.named)])
          : eb('id', '>', span.afterId),
      )
      .where('is_deleted', '=', 0)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  /** How far the other side of each private chat has read: chat key → msg_id (0 when never). */
  async peerReadMarks(readerId: number, chatKeys: string[]): Promise<Map<string, number>> {
    const marks = new Map(chatKeys.map((k) => [k, 0]));
    if (chatKeys.length === 0) return marks;
    const rows = await this.db
      .selectFrom('conversations')
      .select(['chat_key', 'read_msg_id'])
      .where('chat_key', 'in', chatKeys)
      .where('user_id', '!=', readerId)
      .execute();
    for (const r of rows) marks.set(r.chat_key, r.read_msg_id);
    return marks;
  }
}
