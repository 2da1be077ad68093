import { sql } from 'kysely';
import type { Dialect } from '../../db/dialect';
import { runAtomically, type Work } from '../../db/at-once';
import { Prepared } from '../../db/prepared';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { ChatType, type ConversationRow, type MessageRow, type NewMessage } from './repo';
import { searchText } from './search-text';

/** The advisory lock that orders message inserts on PostgreSQL. */
const MESSAGE_SEQUENCE_LOCK = 7_243_001;

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

/** When a file's bytes were removed (0: kept); no row for a file that is not stored. */
const fileRemovedAt = new Prepared((db, fileId: number) =>
  db.selectFrom('files').select('removed_at').where('id', '=', fileId),
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

/** Storing a message with its outbox row and conversation rows' updates at once, and the outbox until it is pushed. */
export class MessageStoreRepo {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

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
   * in two steps. A message carrying a file holds the file's row shared (`f`) and is stored only
   * while its bytes are kept: freeing the file takes the row FOR UPDATE, so either it waits for this
   * send and then sees the message, or this send waits for it and, the row's `removed_at` read
   * again once it is free, is refused FileExpired.
   */
  private async storeInOneStatement(
    message: Omit<MessageRow, 'id' | 'edited_at'>,
    mentioned: readonly number[],
    publishDue: number,
  ): Promise<{ row: MessageRow; sides: Map<number, ConversationRow> }> {
    const sender = message.from_user;
    const isGroup = message.chat_type === ChatType.Group;
    const sides = isGroup ? [] : [...new Set([sender, message.to_id])];
    const named = isGroup ? [...new Set(mentioned)].filter((id) => id !== sender) : [];
    const { rows } = await sql<{ message: MessageRow; sides: ConversationRow[] | null }>`
      with f as (select id from files where id = ${message.file_id} and removed_at = 0 for share),
      l as (select pg_advisory_xact_lock(${MESSAGE_SEQUENCE_LOCK})),
      m as (
        insert into messages (${sql.join(MESSAGE_COLUMNS.map((c) => sql.ref(c)))})
        select ${sql.join(MESSAGE_COLUMNS.map((c) => message[c]))} from l
        where ${message.file_id} = 0 or exists (select 1 from f)
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
    if (!row) throw new AppError('FileExpired');
    return { row, sides: new Map((written ?? []).map((r) => [r.user_id, r])) };
  }

  /** A message's writes on SQLite, one transaction: the message, then what it changes on conversation rows. */
  private *storing(
    message: Omit<MessageRow, 'id' | 'edited_at'>,
    mentioned: readonly number[],
    publishDue: number,
  ): Work<{ row: MessageRow; sides: Map<number, ConversationRow> }> {
    const { db } = this;
    if (message.file_id) {
      const file = (yield fileRemovedAt.bind(db, message.file_id)).rows[0] as { removed_at: number } | undefined;
      if (file?.removed_at) throw new AppError('FileExpired');
    }
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

  /** Whether a message is stored and not yet pushed. */
  async unpublished(msgId: number): Promise<boolean> {
    return (await outboxRow.first(this.db, msgId)) !== undefined;
  }

  /** Takes pushed messages off the outbox. */
  async published(msgIds: readonly number[]): Promise<void> {
    if (msgIds.length) await this.db.deleteFrom('message_outbox').where('msg_id', 'in', msgIds).execute();
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
}
