import { sql, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from '../../db/dialect';
import type { Database, Db } from '../../db';
import type { ConversationsTable, MessagesTable } from '../../db/schema';

export type MessageRow = Selectable<MessagesTable>;
export type ConversationRow = Selectable<ConversationsTable>;

/** The advisory lock that orders message inserts on PostgreSQL. */
const MESSAGE_SEQUENCE_LOCK = 7_243_001;

export const ChatType = { Private: 0, Group: 1, Self: 3 } as const;

/** Unread messages counted per chat: the list shows 99+ beyond 99. */
export const UNREAD_MAX = 100;

/** Chats this process knows to have their conversation rows, kept up to this many. */
const KNOWN_CHATS_MAX = 100_000;

/** A chat as one user's list shows it. */
export interface ConversationView {
  row: ConversationRow;
  /** The newest message the user can see, or 0. */
  lastId: number;
  /** Messages from others after the read position, up to UNREAD_MAX. */
  unread: number;
}

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
  private readonly withRows = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

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
  private async lockSequence(trx: Transaction<Database>): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${MESSAGE_SEQUENCE_LOCK})`.execute(trx);
  }

  private async insert(exec: Exec, row: Omit<MessageRow, 'id'>): Promise<MessageRow> {
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

  /** Creates or updates a user's conversation row. */
  async upsertConversation(
    exec: Exec,
    userId: number,
    chatKey: string,
    values: Partial<
      Pick<
        ConversationRow,
        'is_top' | 'is_notice' | 'hidden' | 'read_msg_id' | 'clear_msg_id' | 'is_at' | 'last_msg_id'
      >
    >,
  ): Promise<void> {
    await exec
      .insertInto('conversations')
      .values({ user_id: userId, chat_key: chatKey, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'chat_key']).doUpdateSet(values))
      .execute();
  }

  /**
   * Stores a message. The conversation rows a chat needs (`rows`: its two sides, or me) are
   * created with the first message this process stores in it (rows are never deleted but with
   * membership), and the members it mentions are marked; a message with neither is one insert.
   */
  async store(message: Omit<MessageRow, 'id'>, opts: { rows: number[]; mentioned: number[] }): Promise<MessageRow> {
    const rows = this.withRows.has(message.chat_key) ? [] : opts.rows;
    const mentioned = [...new Set(opts.mentioned)].filter((id) => id !== message.from_user);
    const stored =
      this.dialect === 'sqlite' && rows.length === 0 && mentioned.length === 0
        ? await this.insert(this.db, message)
        : await this.db.transaction().execute(async (trx) => {
            await this.lockSequence(trx);
            const row = await this.insert(trx, message);
            if (rows.length) {
              await trx
                .insertInto('conversations')
                .values(rows.map((userId) => ({ user_id: userId, chat_key: message.chat_key })))
                .onConflict((oc) => oc.columns(['user_id', 'chat_key']).doNothing())
                .execute();
            }
            if (mentioned.length) {
              await trx
                .updateTable('conversations')
                .set((eb) => ({ is_at: eb('is_at', '+', 1) }))
                .where('chat_key', '=', message.chat_key)
                .where('user_id', 'in', mentioned)
                .execute();
            }
            return row;
          });
    if (rows.length) {
      if (this.withRows.size >= KNOWN_CHATS_MAX) this.withRows.clear();
      this.withRows.add(message.chat_key);
    }
    return stored;
  }

  /** One user's conversation rows (all, or of some chats) as their list shows them. */
  viewsOf(userId: number, chatKeys?: string[]): Promise<ConversationView[]> {
    if (chatKeys?.length === 0) return Promise.resolve([]);
    let q = this.views().where('c.user_id', '=', userId);
    if (chatKeys) q = q.where('c.chat_key', 'in', chatKeys);
    return this.toViews(q.execute());
  }

  /** Some users' rows of one chat, by user. */
  async viewsIn(chatKey: string, userIds: number[]): Promise<Map<number, ConversationView>> {
    const views = await this.toViews(
      this.views().where('c.chat_key', '=', chatKey).where('c.user_id', 'in', userIds).execute(),
    );
    return new Map(views.map((v) => [v.row.user_id, v]));
  }

  /**
   * Conversation rows with what is read off the messages: the newest message the user can see
   * (not deleted, not hidden by them, after a cleared history) and the messages from others after
   * the read position, counted up to `UNREAD_MAX`. Each walks the (chat_key, id) index from the
   * newest message down, so the cost does not grow with the history.
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
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('message_hidden as h')
                  .select('h.msg_id')
                  .whereRef('h.msg_id', '=', 'm.id')
                  .whereRef('h.user_id', '=', 'c.user_id'),
              ),
            ),
          )
          .orderBy('m.id', 'desc')
          .limit(1)
          .as('last_id'),
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
              .limit(UNREAD_MAX)
              .as('u'),
          )
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('unread'),
      ]);
  }

  private async toViews(
    rows: Promise<Array<ConversationRow & { last_id: number | null; unread: number | null }>>,
  ): Promise<ConversationView[]> {
    return (await rows).map(({ last_id, unread, ...row }) => ({
      row,
      lastId: Number(last_id ?? 0),
      unread: Number(unread ?? 0),
    }));
  }

  /** Marks a conversation read up to `msgId`; its mentions are cleared once nothing after it is unread. */
  async markRead(userId: number, chatKey: string, msgId: number): Promise<void> {
    const [view] = await this.viewsOf(userId, [chatKey]);
    if (!view) return;
    const readTo = Math.max(view.row.read_msg_id, msgId);
    await this.db.updateTable('conversations').set({ read_msg_id: readTo }).where('id', '=', view.row.id).execute();
    const [after] = await this.viewsOf(userId, [chatKey]);
    if (after?.unread === 0)
      await this.db.updateTable('conversations').set({ is_at: 0 }).where('id', '=', view.row.id).execute();
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
