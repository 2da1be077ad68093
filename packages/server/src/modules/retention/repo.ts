import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db';
import { atOnce, runAtomically, type Work } from '../../db/at-once';
import type { RetentionSweepTable } from '../../db/schema';
import { parseJson } from '../../lib/text';

export type SweepRow = Selectable<RetentionSweepTable>;

/** What the sweep reads of a message to judge and delete it. */
export interface AgedMessage {
  id: number;
  chat_key: string;
  from_user: number;
  type: string;
  file_id: number;
  is_deleted: number;
  create_time: number;
}

/** Private and own chats keep an unread counter on each side's row (groups count theirs when read). */
const counted = (chatKey: string) => !chatKey.startsWith('g:');

/**
 * The retention sweep's SQL (migration 031): its lease, the messages past a policy, and deleting
 * them with everything that hangs off them, a batch per short transaction.
 */
export class RetentionRepo {
  constructor(private readonly db: Db) {}

  /** A batch runs in the caller's turn (SQLite, see SqliteAtOnce): everything else waits for it. */
  get inCallersTurn(): boolean {
    return atOnce(this.db) !== undefined;
  }

  /** Takes the sweep's lease for `holder` until `until` when it is free (expired) or already its own. */
  async takeLease(holder: string, now: number, until: number): Promise<boolean> {
    const res = await this.db
      .updateTable('retention_sweep')
      .set({ holder, lease_until: until, last_start: now })
      .where('id', '=', 1)
      .where((eb) => eb.or([eb('lease_until', '<', now), eb('holder', '=', holder)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Extends the lease `holder` holds; false when it lost it (it expired and another node took it). */
  async renewLease(holder: string, until: number): Promise<boolean> {
    const res = await this.db
      .updateTable('retention_sweep')
      .set({ lease_until: until })
      .where('id', '=', 1)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Gives the lease back and records what the sweep did. */
  async endLease(holder: string, now: number, done: { messages: number; files: number }): Promise<void> {
    await this.db
      .updateTable('retention_sweep')
      .set({ lease_until: 0, last_end: now, last_messages: done.messages, last_files: done.files })
      .where('id', '=', 1)
      .where('holder', '=', holder)
      .execute();
  }

  lastSweep(): Promise<SweepRow> {
    return this.db.selectFrom('retention_sweep').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  }

  /** Each live group whose own setting keeps its messages a number of days, with that number. */
  async groupPolicies(): Promise<Array<{ groupId: number; days: number }>> {
    const rows = await this.db
      .selectFrom('groups')
      .select(['id', 'setting'])
      .where('setting', 'like', '%"retention":%')
      .execute();
    return rows.flatMap((r) => {
      const days = Number(parseJson(r.setting).retention ?? 0);
      return Number.isInteger(days) && days > 0 ? [{ groupId: r.id, days }] : [];
    });
  }

  /** The next `limit` messages after `after`, oldest first (by id, the primary key: a walk in the order they were sent). */
  page(after: number, limit: number): Promise<AgedMessage[]> {
    return this.db
      .selectFrom('messages')
      .select(['id', 'chat_key', 'from_user', 'type', 'file_id', 'is_deleted', 'create_time'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** A chat's oldest `limit` messages sent before `cutoff` (the chat's time index). */
  olderIn(chatKey: string, cutoff: number, limit: number): Promise<AgedMessage[]> {
    return this.db
      .selectFrom('messages')
      .select(['id', 'chat_key', 'from_user', 'type', 'file_id', 'is_deleted', 'create_time'])
      .where('chat_key', '=', chatKey)
      .where('create_time', '<', cutoff)
      .orderBy('create_time')
      .limit(limit)
      .execute();
  }

  /**
   * Deletes messages for good in one short transaction, with what hangs off them: reactions,
   * earlier versions of edited texts, pins, "hidden for me" marks, an outbox row not yet pushed;
   * their search index rows go by the messages' own trigger (migration 019). The unread counters of
   * the private chats they were in lose the messages they counted (from the other side, after the
   * row's read mark and cleared history). Read marks are ids and stay;
   * a chat's last message is read off the messages, so its preview moves to the newest one left.
   * Favourites and merged forwards' records are snapshots and stay. Answers how many it deleted.
   */
  deleteMessages(batch: readonly AgedMessage[]): Promise<number> {
    if (!batch.length) return Promise.resolve(0);
    return runAtomically(this.db, () => this.deleting(batch));
  }

  private *deleting(batch: readonly AgedMessage[]): Work<number> {
    const { db } = this;
    const ids = batch.map((m) => m.id);
    yield db.deleteFrom('message_reactions').where('msg_id', 'in', ids).compile();
    // The polls first, then their votes: a vote reads its poll's row under a shared lock, so one
    // under way has committed its rows by the time the poll is deleted, and one to come finds none.
    const { rows: polls } = yield db.selectFrom('polls').select('id').where('msg_id', 'in', ids).compile();
    const pollIds = (polls as Array<{ id: unknown }>).map((p) => Number(p.id));
    if (pollIds.length) {
      yield db.deleteFrom('polls').where('id', 'in', pollIds).compile();
      yield db.deleteFrom('poll_votes').where('poll_id', 'in', pollIds).compile();
    }
    yield db.deleteFrom('message_edits').where('msg_id', 'in', ids).compile();
    yield db.deleteFrom('chat_pins').where('msg_id', 'in', ids).compile();
    yield db.deleteFrom('message_hidden').where('msg_id', 'in', ids).compile();
    yield db.deleteFrom('message_outbox').where('msg_id', 'in', ids).compile();
    const deleted = yield db.deleteFrom('messages').where('id', 'in', ids).compile();
    // After the messages: a chain's change takes its message's row first, so one under way has
    // committed its line by now, and one to come finds no message and writes nothing.
    yield db
      .deleteFrom('chain_entries')
      .where('chain_id', 'in', db.selectFrom('chains').select('id').where('msg_id', 'in', ids))
      .compile();
    yield db.deleteFrom('chains').where('msg_id', 'in', ids).compile();
    const chats = [...new Set(batch.map((m) => m.chat_key))].filter(counted);
    if (chats.length) {
      const { rows } = yield db
        .selectFrom('conversations')
        .select(['id', 'user_id', 'chat_key', 'read_msg_id', 'clear_msg_id', 'unread'])
        .where('chat_key', 'in', chats)
        .where('unread', '>', 0)
        .compile();
      for (const c of rows as Array<{
        id: number;
        user_id: number;
        chat_key: string;
        read_msg_id: number;
        clear_msg_id: number;
        unread: number;
      }>) {
        const gone = batch.filter(
          (m) =>
            m.chat_key === c.chat_key &&
            Number(m.from_user) !== Number(c.user_id) &&
            m.is_deleted === 0 &&
            m.id > Number(c.read_msg_id) &&
            m.id > Number(c.clear_msg_id),
        ).length;
        // Taken off what the row holds now: a send counted meanwhile stays counted.
        if (gone)
          yield db
            .updateTable('conversations')
            .set({ unread: sql<number>`case when unread > ${gone} then unread - ${gone} else 0 end` })
            .where('id', '=', c.id)
            .compile();
      }
    }
    return Number(deleted.numAffectedRows ?? 0);
  }

  /**
   * Marks these messages' files expired in one short transaction: the message no longer carries
   * the file (`file_id` 0, so it no longer keeps it stored) and says so in its `extends`
   * (`expired: 1`); its content and the rest of `extends` stay. Answers the files they carried.
   */
  expireFiles(ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return Promise.resolve([]);
    return runAtomically(this.db, () => this.expiring(ids));
  }

  private *expiring(ids: readonly number[]): Work<number[]> {
    const { db } = this;
    const { rows } = yield db
      .selectFrom('messages')
      .select(['id', 'file_id', 'extends'])
      .where('id', 'in', ids)
      .where('file_id', '<>', 0)
      .compile();
    const carried = rows as Array<{ id: number; file_id: number; extends: string }>;
    for (const m of carried) {
      const ext = parseJson(m.extends);
      yield db
        .updateTable('messages')
        .set({ file_id: 0, extends: JSON.stringify({ ...ext, expired: 1 }) })
        .where('id', '=', m.id)
        .compile();
    }
    return carried.map((m) => Number(m.file_id));
  }
}
