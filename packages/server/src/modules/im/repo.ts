import { sql, type QueryResult, type Selectable } from 'kysely';
import type { Dialect } from '../../db/dialect';
import { runAtomically, type Work } from '../../db/at-once';
import { Prepared } from '../../db/prepared';
import type { Db } from '../../db';
import type { ConversationsTable, MessagesTable } from '../../db/schema';
import { indexRows, insertIndexRows, SEARCH_INDEX_LOCK } from '../../db/search-index';
import { readerTokens, searchText, termQuery, type TermQuery } from './search-text';

export type MessageRow = Selectable<MessagesTable>;
export type ConversationRow = Selectable<ConversationsTable>;

/** The advisory lock that orders message inserts on PostgreSQL. */
const MESSAGE_SEQUENCE_LOCK = 7_243_001;

export const ChatType = { Private: 0, Group: 1, Self: 3 } as const;

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

/** The chat key of a private pair (the same for both sides). */
export const pairKey = (a: number, b: number) => `p:${Math.min(a, b)}:${Math.max(a, b)}`;
/** Whether a chat key is a group's (`g:<id>`). */
export const isGroupKey = (chatKey: string) => chatKey.startsWith('g:');
/** The chat key of my file-transfer chat. */
export const selfKey = (userId: number) => `s:${userId}`;

/** What a reader may see of one chat: messages after these ids, minus the hidden ones. */
export interface Visibility {
  userId: number;
  chatKey: string;
  /** Messages up to this id are not shown (cleared history, or joined without history). */
  floor: number;
}

/** The message `m` is not hidden by this user: an id, or the `c.user_id` of a conversation row. */
const notHiddenBy = (user: number | 'c.user_id') =>
  sql<boolean>`not exists (select 1 from message_hidden as h where h.msg_id = m.id and h.user_id = ${
    user === 'c.user_id' ? sql.ref(user) : user
  })`;

/** The message `m` is in one of this user's groups: named, so each is read by index on its own. */
const inGroupsOf = (userId: number) =>
  sql<boolean>`m.to_id in (select g.group_id from group_members as g where g.user_id = ${userId})`;

/**
 * The messages `m` a reader may see across all chats: private chats they are in, their own
 * chat, and the groups they are in from the first message each shows them (after their join in
 * the groups of `hidingHistory`, or in all of them), after a history they cleared, neither
 * deleted nor hidden by them. Access.floor is the same rule for one chat.
 */
function readableBy(db: Db, dialect: Dialect, userId: number, hidingHistory: readonly number[] | 'all') {
  return db
    .selectFrom('messages as m')
    .leftJoin('group_members as gm', (join) => join.on('gm.user_id', '=', userId).onRef('gm.group_id', '=', 'm.to_id'))
    .leftJoin('conversations as c', (join) => join.on('c.user_id', '=', userId).onRef('c.chat_key', '=', 'm.chat_key'))
    .where('m.is_deleted', '=', 0)
    .where((eb) =>
      // Each branch is read by an index of its own: received (chat_type, to_id), sent (from_user), groups.
      eb.or([
        eb.and([eb('m.chat_type', '=', ChatType.Private), eb('m.to_id', '=', userId)]),
        eb.and([eb('m.from_user', '=', userId), eb('m.chat_type', 'in', [ChatType.Private, ChatType.Self])]),
        eb.and([
          eb('m.chat_type', '=', ChatType.Group),
          // On PostgreSQL as an array, which its planner can read by index inside an OR (a subquery it cannot).
          dialect === 'postgres'
            ? sql<boolean>`m.to_id = any(array(select g.group_id from group_members as g where g.user_id = ${userId}))`
            : inGroupsOf(userId),
          hidingHistory === 'all'
            ? eb('m.id', '>', eb.ref('gm.join_msg_id'))
            : hidingHistory.length
              ? eb.or([eb('m.to_id', 'not in', hidingHistory), eb('m.id', '>', eb.ref('gm.join_msg_id'))])
              : sql<boolean>`1 = 1`,
        ]),
      ]),
    )
    .where((eb) => eb.or([eb('c.clear_msg_id', 'is', null), eb('m.id', '>', eb.ref('c.clear_msg_id'))]))
    .where(notHiddenBy(userId));
}

/** What `sync` reads: the messages a reader may see after a cursor, oldest first, `take` of them. */
const messagesSince = (dialect: Dialect) =>
  new Prepared((db, userId: number, afterId: number, take: number) =>
    readableBy(db, dialect, userId, 'all')
      .where('m.id', '>', afterId)
      .selectAll('m')
      .orderBy('m.id', 'asc')
      .limit(take),
  );
const sinceIn = { sqlite: messagesSince('sqlite'), postgres: messagesSince('postgres') };

/** A message as it is handed to `store`: what search finds it by is worked out there. */
export type NewMessage = Omit<MessageRow, 'id' | 'search_text'>;

/** What a search asks of the messages besides its words. */
/** The groups a reader is in, and those among them that hide what came before the reader's join (Access.readerGroups). */
export interface ReaderGroups {
  ids: readonly number[];
  hidingHistory: readonly number[];
}

export interface SearchFilter {
  /** One chat only. */
  chatKey?: string | undefined;
  types?: readonly string[] | undefined;
  fromUser?: number | undefined;
  startTime?: number | undefined;
  endTime?: number | undefined;
}

/** `%word%` for LIKE with a backslash as its escape, the word's own wildcards taken literally. */
const likeTerm = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An FTS5 query: every term's tokens, and one of the reader's `whoTokens`. */
function ftsQuery(terms: readonly TermQuery[], who: readonly string[]): string {
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  const words = terms.flatMap((q) => q.tokens.map(({ token, prefix }) => quote(token) + (prefix ? '*' : '')));
  return [...words, `(${who.map(quote).join(' OR ')})`].join(' AND ');
}

/** The same as a PostgreSQL tsquery, read as it is written (no parser, no dictionary). */
function tsQuery(terms: readonly TermQuery[], who: readonly string[]): string {
  const quote = (t: string) => `'${t.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  const words = terms.flatMap((q) => q.tokens.map(({ token, prefix }) => quote(token) + (prefix ? ':*' : '')));
  return [...words, `(${who.map(quote).join(' | ')})`].join(' & ');
}

const messageBySender = new Prepared((db, fromUser: number, clientId: string) =>
  db.selectFrom('messages').selectAll().where('from_user', '=', fromUser).where('client_id', '=', clientId),
);

const outboxRow = new Prepared((db, msgId: number) =>
  db.selectFrom('message_outbox').select('msg_id').where('msg_id', '=', msgId),
);

const MESSAGE_COLUMNS = [
  'client_id',
  'from_user',
  'chat_type',
  'to_id',
  'chat_key',
  'type',
  'content',
  'extends',
  'at',
  'pid',
  'file_id',
  'is_undo',
  'is_deleted',
  'create_time',
  'search_text',
] as const satisfies ReadonlyArray<keyof MessageRow>;

const insertMessage = new Prepared((db, ...values: Array<MessageRow[(typeof MESSAGE_COLUMNS)[number]]>) =>
  db
    .insertInto('messages')
    .values(Object.fromEntries(MESSAGE_COLUMNS.map((c, i) => [c, values[i]])) as Omit<MessageRow, 'id'>)
    .returningAll(),
);

const insertOutbox = new Prepared((db, msgId: number, due: number) =>
  db.insertInto('message_outbox').values({ msg_id: msgId, due }),
);

/** Unread rises on the rows of a private chat (`a`, `b`: its sides; in my own chat, me twice) but the sender's. */
const countUnread = new Prepared((db, sender: number, msgId: number, chatKey: string, a: number, b: number) =>
  db
    .updateTable('conversations')
    .set((eb) => ({
      unread: eb
        .case()
        .when('user_id', '=', sender)
        .then(0)
        .else(eb('unread', '+', 1))
        .end(),
      read_msg_id: eb.case().when('user_id', '=', sender).then(msgId).else(eb.ref('read_msg_id')).end(),
    }))
    .where('chat_key', '=', chatKey)
    .where('user_id', 'in', [a, b])
    .returningAll(),
);

/** The only SQL on messages and conversation rows. */
export class MessageRepo {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

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

  conversation(userId: number, chatKey: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('chat_key', '=', chatKey)
      .executeTakeFirst();
  }

  /** Whether a message is stored and not yet pushed. */
  async unpublished(msgId: number): Promise<boolean> {
    return (await outboxRow.first(this.db, msgId)) !== undefined;
  }

  /** Takes pushed messages off the outbox. */
  async published(msgIds: readonly number[]): Promise<void> {
    if (msgIds.length) await this.db.deleteFrom('message_outbox').where('msg_id', 'in', msgIds).execute();
  }

  /** The last message id the search index has seen, and the newest message's (0: none). */
  async searchBacklog(): Promise<{ through: number; newest: number }> {
    const row = await this.db
      .selectFrom('search_indexed')
      .select((eb) => [
        'through',
        eb
          .selectFrom('messages')
          .select((m) => m.fn.max('id').as('n'))
          .as('newest'),
      ])
      .executeTakeFirstOrThrow();
    return { through: Number(row.through), newest: Number(row.newest ?? 0) };
  }

  /**
   * Indexes for search the next `limit` messages the index has not seen, in one transaction, and
   * answers how many it passed: 0 when none wait, or on PostgreSQL when another node is indexing
   * and `wait` is false (with `wait`, after that node's batch). See migration 019.
   */
  indexForSearch(limit: number, wait: boolean): Promise<number> {
    return runAtomically(this.db, () => this.indexing(limit, wait));
  }

  private *indexing(limit: number, wait: boolean): Work<number> {
    const { db } = this;
    if (this.dialect === 'postgres') {
      const lock = wait
        ? sql<{ got: boolean }>`select true as got from (select pg_advisory_xact_lock(${SEARCH_INDEX_LOCK})) l`
        : sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${SEARCH_INDEX_LOCK}) as got`;
      if (!(yield lock.compile(db)).rows.some((r) => (r as { got: boolean }).got)) return 0;
    }
    const { through } = (yield sql`select through from search_indexed`.compile(db)).rows[0] as { through: number };
    const { rows } = (yield sql`select id, chat_type, from_user, to_id, search_text, is_undo, is_deleted
      from messages where id > ${through} order by id limit ${limit}`.compile(db)) as QueryResult<
      Pick<MessageRow, 'id' | 'chat_type' | 'from_user' | 'to_id' | 'search_text' | 'is_undo' | 'is_deleted'>
    >;
    if (!rows.length) return 0;
    const live = rows.filter((r) => r.is_deleted === 0 && r.is_undo === 0 && r.search_text !== '');
    if (live.length) yield insertIndexRows(this.dialect, indexRows(live)).compile(db);
    yield sql`update search_indexed set through = ${rows.at(-1)!.id}`.compile(db);
    return rows.length;
  }

  /**
   * Claims up to `limit` messages whose push is overdue, oldest first, moving each one's due time to
   * `leaseUntil` so that another node's sweep leaves them alone meanwhile (on PostgreSQL rows another
   * sweep holds are skipped, not waited for); a claim whose node dies is taken up again after the lease.
   */
  async claimOverdue(now: number, leaseUntil: number, limit: number): Promise<MessageRow[]> {
    const claimed = this.db
      .selectFrom('message_outbox')
      .select('msg_id')
      .where('due', '<=', now)
      .orderBy('msg_id')
      .limit(limit);
    const ids = await this.db
      .updateTable('message_outbox')
      .set({ due: leaseUntil })
      .where('msg_id', 'in', this.dialect === 'postgres' ? claimed.forUpdate().skipLocked() : claimed)
      .where('due', '<=', now)
      .returning('msg_id')
      .execute();
    if (!ids.length) return [];
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where(
        'id',
        'in',
        ids.map((r) => r.msg_id),
      )
      .orderBy('id')
      .execute();
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

  /**
   * Stores a message with what it changes on conversation rows, and answers the rows it wrote:
   * in a private or own chat, both sides (unread rises for the receiver; the rows of a first
   * message are created); in a group, the rows of those it mentions only (the members' unread is
   * counted from their read positions), so a group message is one insert whatever the group's size.
   */
  store(
    message: NewMessage,
    mentioned: readonly number[],
    publishDue: number,
  ): Promise<{ row: MessageRow; sides: Map<number, ConversationRow> }> {
    const row = { ...message, search_text: searchText(message.type, message.content, message.extends) };
    if (this.dialect === 'postgres') return this.storeInOneStatement(row, mentioned, publishDue);
    return runAtomically(this.db, () => this.storing(row, mentioned, publishDue));
  }

  /**
   * `storing` as one PostgreSQL statement, its own transaction. Message ids must commit in the
   * order they are given, so that a `sync` cursor never passes an id whose transaction has yet to
   * commit: the statement takes an advisory lock before its insert draws the id, held until it
   * commits (SQLite writes one transaction at a time). As one statement, the lock is held for the
   * statement's own work and the commit only, not for round trips through this process's event
   * loop, which under load made every send wait in line for the lock (and held pool connections
   * meanwhile). The rows of a private chat are created or counted by one upsert, as `storing` does
   * in two steps.
   */
  private async storeInOneStatement(
    message: Omit<MessageRow, 'id'>,
    mentioned: readonly number[],
    publishDue: number,
  ): Promise<{ row: MessageRow; sides: Map<number, ConversationRow> }> {
    const sender = message.from_user;
    const isGroup = message.chat_type === ChatType.Group;
    const sides = isGroup ? [] : [...new Set([sender, message.to_id])];
    const named = isGroup ? [...new Set(mentioned)].filter((id) => id !== sender) : [];
    const { rows } = await sql<{ message: MessageRow; sides: ConversationRow[] | null }>`
      with l as (select pg_advisory_xact_lock(${MESSAGE_SEQUENCE_LOCK})),
      m as (
        insert into messages (${sql.join(MESSAGE_COLUMNS.map((c) => sql.ref(c)))})
        select ${sql.join(MESSAGE_COLUMNS.map((c) => message[c]))} from l
        returning *
      ),
      o as (insert into message_outbox (msg_id, due) select m.id, ${publishDue} from m),
      s as (
        insert into conversations (user_id, chat_key, unread, read_msg_id)
        select u, m.chat_key, case when u = ${sender} then 0 else 1 end, case when u = ${sender} then m.id else 0 end
        from m cross join unnest(${sides}::bigint[]) as u
        on conflict (user_id, chat_key) do update set
          unread = case when conversations.user_id = ${sender} then 0 else conversations.unread + 1 end,
          read_msg_id = case when conversations.user_id = ${sender} then excluded.read_msg_id else conversations.read_msg_id end
        returning conversations.*
      ),
      a as (
        update conversations set is_at = conversations.is_at + 1 from m
        where conversations.chat_key = m.chat_key and conversations.user_id = any(${named}::bigint[])
      )
      select (select row_to_json(m) from m) as message, (select json_agg(s) from s) as sides
    `.execute(this.db);
    const { message: row, sides: written } = rows[0]!;
    return { row, sides: new Map((written ?? []).map((r) => [r.user_id, r])) };
  }

  /** A message's writes on SQLite, one transaction: the message, then what it changes on conversation rows. */
  private *storing(
    message: Omit<MessageRow, 'id'>,
    mentioned: readonly number[],
    publishDue: number,
  ): Work<{ row: MessageRow; sides: Map<number, ConversationRow> }> {
    const { db } = this;
    const row = (yield insertMessage.bind(db, ...MESSAGE_COLUMNS.map((c) => message[c]))).rows[0] as MessageRow;
    yield insertOutbox.bind(db, row.id, publishDue);
    if (message.chat_type === ChatType.Group) {
      const named = [...new Set(mentioned)].filter((id) => id !== message.from_user);
      if (named.length) {
        yield db
          .updateTable('conversations')
          .set((eb) => ({ is_at: eb('is_at', '+', 1) }))
          .where('chat_key', '=', message.chat_key)
          .where('user_id', 'in', named)
          .compile();
      }
      return { row, sides: new Map() };
    }
    // Unread rises on the receiver's row of a private chat; the rows of its first message are created.
    const sender = message.from_user;
    const everyone = message.chat_type === ChatType.Private ? [sender, message.to_id] : [sender];
    const rows = (yield countUnread.bind(db, sender, row.id, row.chat_key, everyone[0]!, everyone.at(-1)!))
      .rows as ConversationRow[];
    if (rows.length < everyone.length) {
      const fresh = everyone.filter((id) => !rows.some((r) => r.user_id === id));
      const created = yield (
        db
          .insertInto('conversations')
          .values(
            fresh.map((id) => ({
              user_id: id,
              chat_key: row.chat_key,
              unread: id === sender ? 0 : 1,
              read_msg_id: id === sender ? row.id : 0,
            })),
          )
          // A row created by another request meanwhile counts this message as well.
          .onConflict((oc) =>
            oc
              .columns(['user_id', 'chat_key'])
              .doUpdateSet((eb) => ({ unread: eb('conversations.unread', '+', eb.ref('excluded.unread')) })),
          )
          .returningAll()
          .compile()
      );
      rows.push(...(created.rows as ConversationRow[]));
    }
    return { row, sides: new Map(rows.map((r) => [r.user_id, r])) };
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
   * unread. A private chat's counter becomes what is left; a group's is counted when read.
   */
  /**
   * Marks a conversation read up to `msgId`; answers where it was read to before (its cleared
   * history counts as read), or null when I have no such conversation.
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
    await this.db.updateTable('conversations').set(values).where('id', '=', conv.id).execute();
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
      /** Centred on this message: `limit` minus half before and with it, half after. */
      aroundId?: number | undefined;
      /** Sent from this time on (ms); without a cursor the page starts there, oldest first. */
      startTime?: number | undefined;
      /** Sent up to this time (ms), inclusive. */
      endTime?: number | undefined;
    },
  ): Promise<{ rows: MessageRow[]; total: number }> {
    let q = this.db
      .selectFrom('messages as m')
      .where('m.chat_key', '=', v.chatKey)
      .where('m.id', '>', v.floor)
      .where('m.is_deleted', '=', 0)
      .where(notHiddenBy(v.userId));
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
    if (opts.startTime !== undefined) q = q.where('m.create_time', '>=', opts.startTime);
    if (opts.endTime !== undefined) q = q.where('m.create_time', '<=', opts.endTime);
    const totalRow = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let page = q.selectAll('m');
    if (opts.aroundId !== undefined) {
      const newer = Math.floor(opts.limit / 2);
      const [before, after] = await Promise.all([
        page
          .where('m.id', '<=', opts.aroundId)
          .orderBy('m.id', 'desc')
          .limit(opts.limit - newer)
          .execute(),
        page.where('m.id', '>', opts.aroundId).orderBy('m.id', 'asc').limit(newer).execute(),
      ]);
      return { rows: [...before.reverse(), ...after], total: Number(totalRow.n) };
    }
    if (opts.startTime !== undefined && opts.afterId === undefined && !opts.lastId) {
      // The day's first message, found by time, bounds the page, so that the chat before it is not read.
      const first = await this.db
        .selectFrom('messages')
        .select('id')
        .where('chat_key', '=', v.chatKey)
        .where('create_time', '>=', opts.startTime)
        .orderBy('create_time', 'asc')
        .orderBy('id', 'asc')
        .limit(1)
        .executeTakeFirst();
      if (!first) return { rows: [], total: Number(totalRow.n) };
      page = page.where('m.id', '>=', first.id).orderBy('m.id', 'asc').limit(opts.limit).offset(opts.offset);
      return { rows: await page.execute(), total: Number(totalRow.n) };
    }
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
    const rows = await sinceIn[this.dialect].all(this.db, userId, afterId, limit + 1);
    if (rows.length <= limit) return { rows, remaining: 0 };
    const total = await this.readableBy(userId, 'all')
      .where('m.id', '>', afterId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows: rows.slice(0, limit), remaining: Number(total.n) - limit };
  }

  private readableBy(userId: number, hidingHistory: readonly number[] | 'all') {
    return readableBy(this.db, this.dialect, userId, hidingHistory);
  }

  /**
   * Messages a reader may see whose words hold every term, newest first, with how many in all.
   * The word index (migration 019) is asked for the terms' tokens among the reader's own chats
   * (`whoTokens`: their private chats, the groups they are in), so that it walks the reader's
   * matches and nothing else; the reader's rules are applied to what it finds. A term whose
   * tokens do not say it is there as typed (three Chinese characters and more, "budget.txt"),
   * and one with no letters or digits (punctuation, emoji), are checked in the message's words.
   * Withdrawn and deleted messages are never found.
   */
  async search(
    userId: number,
    groups: ReaderGroups,
    terms: readonly string[],
    filter: SearchFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: MessageRow[]; total: number }> {
    let q = this.readableBy(userId, groups.hidingHistory).where(
      sql<boolean>`m.is_deleted = 0 and m.is_undo = 0 and m.search_text <> ''`,
    );
    const asked = terms.map((term) => ({ term, query: termQuery(term) }));
    const indexed = asked.flatMap(({ query }) => (query ? [query] : []));
    if (indexed.length) {
      const who = readerTokens(userId, groups.ids);
      q = q.where(
        this.dialect === 'postgres'
          ? sql<boolean>`m.id in (select s.msg_id from message_search s where s.words @@ ${tsQuery(indexed, who)}::tsquery)`
          : sql<boolean>`m.id in (select rowid from message_words where message_words match ${ftsQuery(indexed, who)})`,
      );
    }
    for (const { term, query } of asked) {
      if (query && !query.recheck) continue;
      q = q.where(
        this.dialect === 'postgres'
          ? sql<boolean>`strpos(lower(m.search_text), lower(${term})) > 0`
          : sql<boolean>`m.search_text like ${likeTerm(term)} escape '\\'`,
      );
    }
    if (filter.chatKey !== undefined) q = q.where('m.chat_key', '=', filter.chatKey);
    if (filter.types?.length) q = q.where('m.type', 'in', filter.types);
    if (filter.fromUser !== undefined) q = q.where('m.from_user', '=', filter.fromUser);
    if (filter.startTime !== undefined) q = q.where('m.create_time', '>=', filter.startTime);
    if (filter.endTime !== undefined) q = q.where('m.create_time', '<=', filter.endTime);
    // The page and the count of all matches in one pass over the matches; past the last page, counted alone.
    const found = await q
      .selectAll('m')
      .select(sql<number>`count(*) over ()`.as('matches'))
      // On PostgreSQL not by the primary key's order, which tempts its planner to walk every message
      // backwards for the LIMIT: every match is counted anyway, and the reader's indexes find them.
      .orderBy(this.dialect === 'postgres' ? sql`m.id + 0` : sql`m.id`, 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = found.length
      ? Number(found[0]!.matches)
      : Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return { rows: found.map(({ matches: _, ...row }) => row), total };
  }

  /**
   * Messages carrying files that I sent, or that reached me (private to me, or in a group I am
   * in), or both, newest first, with each file's extension and size.
   */
  async files(
    userId: number,
    direction: 'sent' | 'received' | 'both',
    opts: { cate?: number | undefined; keywords?: string | undefined; limit: number; offset: number },
  ) {
    let q = this.db
      .selectFrom('messages as m')
      .innerJoin('files as f', 'f.id', 'm.file_id')
      .where('m.file_id', '>', 0)
      .where('m.is_deleted', '=', 0)
      .where('m.is_undo', '=', 0)
      .where('m.type', 'in', ['image', 'video', 'voice', 'file'])
      .where(notHiddenBy(userId));
    if (direction === 'sent') q = q.where('m.from_user', '=', userId);
    else {
      q = q.where((eb) => {
        const reached = eb.or([
          eb.and([eb('m.chat_type', '=', ChatType.Private), eb('m.to_id', '=', userId)]),
          eb.and([eb('m.chat_type', '=', ChatType.Group), inGroupsOf(userId)]),
        ]);
        return direction === 'both'
          ? eb.or([eb('m.from_user', '=', userId), reached])
          : eb.and([eb('m.from_user', '!=', userId), reached]);
      });
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

  /** The newest live (not deleted, not withdrawn) messages that carry a file, at most `limit`. */
  async liveIdsWithFile(fileId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('messages')
      .select('id')
      .where('file_id', '=', fileId)
      .where('is_deleted', '=', 0)
      .where('is_undo', '=', 0)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
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

  /** The messages of a chat's conversation rows' last ids, by id. */
  async byIds(ids: number[]): Promise<Map<number, MessageRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('messages').selectAll().where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }
}
