import { sql, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from '../../db/dialect';
import type { Database, Db } from '../../db';
import type { ConversationsTable, MessagesTable } from '../../db/schema';

export type MessageRow = Selectable<MessagesTable>;
export type ConversationRow = Selectable<ConversationsTable>;

/** The advisory lock that orders message inserts on PostgreSQL. */
const MESSAGE_SEQUENCE_LOCK = 7_243_001;

export const ChatType = { Private: 0, Group: 1, Self: 3 } as const;

/** Conversation rows created per statement: one statement per message, within the bound-parameter limits of both databases. */
const CONVERSATION_ROWS_PER_INSERT = 500;

/** The chat key of a private pair (the same for both sides). */
export const pairKey = (a: number, b: number) => `p:${Math.min(a, b)}:${Math.max(a, b)}`;
/** The chat key of my file-transfer chat. */
export const selfKey = (userId: number) => `s:${userId}`;

/** What a reader may see of one chat: messages after these ids, minus the hidden ones. */
export interface Visibility {
  userId: number;
  chatKey: string;
  /** Messages up to this id are not shown (cleared history, or joined without history). */
  floor: number;
}

type Exec = Db | Transaction<Database>;

/** The only SQL on messages and conversation rows. */
export class MessageRepo {
  constructor(private readonly db: Db) {}

  byId(id: number, exec: Exec = this.db): Promise<MessageRow | undefined> {
    return exec.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
  }

  bySender(fromUser: number, clientId: string, exec: Exec = this.db): Promise<MessageRow | undefined> {
    return exec
      .selectFrom('messages')
      .selectAll()
      .where('from_user', '=', fromUser)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
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

  /**
   * Makes message ids commit in the order they are given (held until the transaction ends), so
   * that a `sync` cursor never passes an id whose transaction has yet to commit. SQLite already
   * writes one transaction at a time.
   */
  async lockSequence(trx: Transaction<Database>, dialect: Dialect): Promise<void> {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${MESSAGE_SEQUENCE_LOCK})`.execute(trx);
  }

  async insert(exec: Exec, row: Omit<MessageRow, 'id'>): Promise<MessageRow> {
    return exec.insertInto('messages').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, values: Partial<Omit<MessageRow, 'id'>>): Promise<void> {
    await this.db.updateTable('messages').set(values).where('id', '=', id).execute();
  }

  conversation(userId: number, chatKey: string, exec: Exec = this.db): Promise<ConversationRow | undefined> {
    return exec
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('chat_key', '=', chatKey)
      .executeTakeFirst();
  }

  /** The conversation rows of some users in one chat, by user. */
  async conversationsIn(chatKey: string, userIds: number[]): Promise<Map<number, ConversationRow>> {
    const rows = await this.db
      .selectFrom('conversations')
      .selectAll()
      .where('chat_key', '=', chatKey)
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((r) => [r.user_id, r]));
  }

  conversationsOf(userId: number): Promise<ConversationRow[]> {
    return this.db.selectFrom('conversations').selectAll().where('user_id', '=', userId).execute();
  }

  /** Creates or updates a user's conversation row. */
  async upsertConversation(
    exec: Exec,
    userId: number,
    chatKey: string,
    values: Partial<
      Pick<ConversationRow, 'is_top' | 'is_notice' | 'hidden' | 'read_msg_id' | 'clear_msg_id' | 'unread' | 'is_at'>
    >,
  ): Promise<void> {
    await exec
      .insertInto('conversations')
      .values({ user_id: userId, chat_key: chatKey, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'chat_key']).doUpdateSet(values))
      .execute();
  }

  /**
   * Records a new message on every conversation row of its chat: the last message, unread for
   * everyone but the sender, a mention for those named, read for the sender, and the chat shown
   * again. One statement for rows that exist; the rows of a first message in a chat are created.
   */
  async touchConversations(exec: Exec, message: MessageRow, recipients: number[], mentioned: number[]): Promise<void> {
    const sender = message.from_user;
    const everyone = [...new Set([sender, ...recipients])];
    const named = new Set(mentioned.filter((id) => id !== sender));
    const touched = await exec
      .updateTable('conversations')
      .set((eb) => ({
        last_msg_id: message.id,
        last_time: message.create_time,
        hidden: 0,
        unread: eb
          .case()
          .when('user_id', '=', sender)
          .then(eb.ref('unread'))
          .else(eb('unread', '+', 1))
          .end(),
        read_msg_id: eb.case().when('user_id', '=', sender).then(eb.val(message.id)).else(eb.ref('read_msg_id')).end(),
        ...(named.size > 0 && {
          is_at: eb
            .case()
            .when('user_id', 'in', [...named])
            .then(eb('is_at', '+', 1))
            .else(eb.ref('is_at'))
            .end(),
        }),
      }))
      .where('chat_key', '=', message.chat_key)
      .where('user_id', 'in', everyone)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === everyone.length) return;
    // The rows the update reached now carry this message's id; the others are created below.
    const reached = await exec
      .selectFrom('conversations')
      .select('user_id')
      .where('chat_key', '=', message.chat_key)
      .where('last_msg_id', '=', message.id)
      .where('user_id', 'in', everyone)
      .execute();
    const done = new Set(reached.map((r) => r.user_id));
    const fresh = everyone.filter((id) => !done.has(id));
    for (let i = 0; i < fresh.length; i += CONVERSATION_ROWS_PER_INSERT) {
      const rows = fresh.slice(i, i + CONVERSATION_ROWS_PER_INSERT).map((userId) => ({
        user_id: userId,
        chat_key: message.chat_key,
        last_msg_id: message.id,
        last_time: message.create_time,
        unread: userId === sender ? 0 : 1,
        read_msg_id: userId === sender ? message.id : 0,
        is_at: named.has(userId) ? 1 : 0,
      }));
      await exec
        .insertInto('conversations')
        .values(rows)
        // A row created by another request since the update above counts this message as well.
        .onConflict((oc) =>
          oc.columns(['user_id', 'chat_key']).doUpdateSet((eb) => ({
            last_msg_id: eb.ref('excluded.last_msg_id'),
            last_time: eb.ref('excluded.last_time'),
            hidden: 0,
            unread: eb('conversations.unread', '+', eb.ref('excluded.unread')),
            read_msg_id: eb
              .case()
              .when('conversations.user_id', '=', sender)
              .then(eb.ref('excluded.read_msg_id'))
              .else(eb.ref('conversations.read_msg_id'))
              .end(),
            is_at: eb('conversations.is_at', '+', eb.ref('excluded.is_at')),
          })),
        )
        .execute();
    }
  }

  /** Marks a conversation read up to `msgId`: unread becomes what lies after it. */
  async markRead(userId: number, chatKey: string, msgId: number): Promise<void> {
    const conv = await this.conversation(userId, chatKey);
    if (!conv) return;
    const readTo = Math.max(conv.read_msg_id, msgId);
    const unread = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('chat_key', '=', chatKey)
      .where('id', '>', Math.max(readTo, conv.clear_msg_id))
      .where('from_user', '!=', userId)
      .where('is_deleted', '=', 0)
      .executeTakeFirstOrThrow();
    const left = Number(unread.n);
    await this.db
      .updateTable('conversations')
      .set({ read_msg_id: readTo, unread: left, ...(left === 0 && { is_at: 0 }) })
      .where('id', '=', conv.id)
      .execute();
  }

  async newestId(chatKey: string): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('m'))
      .where('chat_key', '=', chatKey)
      .executeTakeFirst();
    return Number(row?.m ?? 0);
  }

  /**
   * After a message is deleted (for everyone) or hidden (for `userId`), the conversation rows that
   * showed it as their last message show the newest message before it instead.
   */
  async rewindLast(chatKey: string, removedId: number, userId?: number): Promise<void> {
    let prev = this.db
      .selectFrom('messages as m')
      .select(['m.id', 'm.create_time'])
      .where('m.chat_key', '=', chatKey)
      .where('m.id', '<', removedId)
      .where('m.is_deleted', '=', 0);
    if (userId !== undefined) {
      prev = prev.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('message_hidden as h')
              .select('h.msg_id')
              .whereRef('h.msg_id', '=', 'm.id')
              .where('h.user_id', '=', userId),
          ),
        ),
      );
    }
    const row = await prev.orderBy('m.id', 'desc').executeTakeFirst();
    let q = this.db
      .updateTable('conversations')
      .set({ last_msg_id: row?.id ?? 0, ...(row && { last_time: row.create_time }) })
      .where('chat_key', '=', chatKey)
      .where('last_msg_id', '=', removedId);
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    await q.execute();
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

  /** A page of one chat as a reader sees it, newest `limit` before `lastId` (or after `afterId`), ascending. */
  async list(
    v: Visibility,
    opts: {
      limit: number;
      offset: number;
      lastId?: number | undefined;
      afterId?: number | undefined;
      types?: string[] | undefined;
      keywords?: string | undefined;
      mentioning?: number | undefined;
      fromUser?: number | undefined;
    },
  ): Promise<{ rows: MessageRow[]; total: number }> {
    let q = this.db
      .selectFrom('messages as m')
      .where('m.chat_key', '=', v.chatKey)
      .where('m.id', '>', v.floor)
      .where('m.is_deleted', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('message_hidden as h')
              .select('h.msg_id')
              .whereRef('h.msg_id', '=', 'm.id')
              .where('h.user_id', '=', v.userId),
          ),
        ),
      );
    if (opts.types?.length) q = q.where('m.type', 'in', opts.types).where('m.is_undo', '=', 0);
    if (opts.keywords) {
      const like = `%${opts.keywords.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q
        .where('m.type', '=', 'text')
        .where('m.is_undo', '=', 0)
        .where((eb) => eb('m.content', 'like', eb.val(like)));
    }
    if (opts.mentioning !== undefined) {
      q = q.where((eb) => eb.or([eb('m.at', 'like', `%,${opts.mentioning},%`), eb('m.at', 'like', '%,0,%')]));
    }
    if (opts.fromUser !== undefined) q = q.where('m.from_user', '=', opts.fromUser);
    const totalRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let page = q.selectAll('m');
    if (opts.afterId !== undefined) {
      page = page.where('m.id', '>', opts.afterId).orderBy('m.id', 'asc').limit(opts.limit);
      return { rows: await page.execute(), total: Number(totalRow.n) };
    }
    if (opts.lastId !== undefined && opts.lastId > 0) page = page.where('m.id', '<', opts.lastId);
    const rows = await page
      .orderBy('m.id', 'desc')
      .limit(opts.limit)
      .offset(opts.lastId ? 0 : opts.offset)
      .execute();
    return { rows: rows.reverse(), total: Number(totalRow.n) };
  }

  /**
   * Everything addressed to me or sent by me after `afterId`, across chats, ascending: private
   * and file-transfer chats, and the groups I am in (from my join on when they hide history).
   */
  async since(userId: number, afterId: number, limit: number): Promise<{ rows: MessageRow[]; remaining: number }> {
    const base = this.db
      .selectFrom('messages as m')
      .leftJoin('group_members as gm', (join) =>
        join.on('gm.user_id', '=', userId).onRef('gm.group_id', '=', 'm.to_id'),
      )
      .leftJoin('conversations as c', (join) =>
        join.on('c.user_id', '=', userId).onRef('c.chat_key', '=', 'm.chat_key'),
      )
      .where('m.id', '>', afterId)
      .where('m.is_deleted', '=', 0)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('m.chat_type', '=', ChatType.Private),
            eb.or([eb('m.to_id', '=', userId), eb('m.from_user', '=', userId)]),
          ]),
          eb.and([eb('m.chat_type', '=', ChatType.Self), eb('m.from_user', '=', userId)]),
          eb.and([
            eb('m.chat_type', '=', ChatType.Group),
            eb('gm.user_id', 'is not', null),
            eb('m.id', '>', eb.ref('gm.join_msg_id')),
          ]),
        ]),
      )
      .where((eb) => eb.or([eb('c.clear_msg_id', 'is', null), eb('m.id', '>', eb.ref('c.clear_msg_id'))]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('message_hidden as h')
              .select('h.msg_id')
              .whereRef('h.msg_id', '=', 'm.id')
              .where('h.user_id', '=', userId),
          ),
        ),
      );
    const rows = await base
      .selectAll('m')
      .orderBy('m.id', 'asc')
      .limit(limit + 1)
      .execute();
    if (rows.length <= limit) return { rows, remaining: 0 };
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows: rows.slice(0, limit), remaining: Number(total.n) - limit };
  }

  /**
   * Messages carrying files that I sent, or that reached me (private to me, or in a group I am
   * in), newest first, with each file's extension and size.
   */
  async files(
    userId: number,
    mine: boolean,
    opts: { cate?: number | undefined; keywords?: string | undefined; limit: number; offset: number },
  ) {
    let q = this.db
      .selectFrom('messages as m')
      .innerJoin('files as f', 'f.id', 'm.file_id')
      .where('m.file_id', '>', 0)
      .where('m.is_deleted', '=', 0)
      .where('m.is_undo', '=', 0)
      .where('m.type', 'in', ['image', 'video', 'voice', 'file'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('message_hidden as h')
              .select('h.msg_id')
              .whereRef('h.msg_id', '=', 'm.id')
              .where('h.user_id', '=', userId),
          ),
        ),
      );
    if (mine) q = q.where('m.from_user', '=', userId);
    else {
      q = q
        .leftJoin('group_members as gm', (join) =>
          join.on('gm.user_id', '=', userId).onRef('gm.group_id', '=', 'm.to_id'),
        )
        .where('m.from_user', '!=', userId)
        .where((eb) =>
          eb.or([
            eb.and([eb('m.chat_type', '=', ChatType.Private), eb('m.to_id', '=', userId)]),
            eb.and([eb('m.chat_type', '=', ChatType.Group), eb('gm.user_id', 'is not', null)]),
          ]),
        );
    }
    if (opts.cate === 2) q = q.where('m.type', '=', 'image');
    else if (opts.cate === 4) q = q.where('m.type', '=', 'video');
    else if (opts.cate === 3) q = q.where('m.type', '=', 'voice');
    else if (opts.cate !== undefined) q = q.where('m.type', '=', 'file').where('f.cate', '=', opts.cate);
    if (opts.keywords) {
      const like = `%${opts.keywords.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb('m.extends', 'like', eb.val(like)));
    }
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll('m')
      .select(['f.ext as file_ext', 'f.size as file_size'])
      .orderBy('m.id', 'desc')
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    return { rows, total: Number(total.n) };
  }

  /** The messages of a chat's conversation rows' last ids, by id. */
  async byIds(ids: number[]): Promise<Map<number, MessageRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('messages').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }
}
