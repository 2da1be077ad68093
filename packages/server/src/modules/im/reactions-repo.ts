import { sql } from 'kysely';
import type { Db } from '../../db';
import { inTransaction, lockKey } from '../../db/locks';

/** One emoji's count on a message, and whether the reader is among those who reacted with it. */
export interface ReactionCount {
  msg_id: number;
  emoji: string;
  count: number;
  mine: 0 | 1;
}

/** One person's reaction, as the list of who reacted reads it. */
export interface ReactionRow {
  user_id: number;
  emoji: string;
  create_time: number;
}

/** What putting a reaction on came to. */
export type ReactOutcome = 'added' | 'already' | 'full';

/**
 * Reactions to messages (migration 022): a row per person, message and emoji; every count is
 * counted from the rows, so that reactions arriving at once on any number of servers all count.
 */
export class ReactionRepo {
  constructor(private readonly db: Db) {}

  /**
   * Puts my reaction on, unless I already have `max` other emoji on the message: the check and the
   * insert run under a lock of my reactions to that message (on PostgreSQL; SQLite writes one
   * transaction at a time), so that reactions of mine sent at once never pass `max` together.
   */
  add(msgId: number, userId: number, emoji: string, max: number, now: number): Promise<ReactOutcome> {
    return inTransaction(this.db, async (trx) => {
      await lockKey(trx, `reactions:${msgId}:${userId}`);
      const mine = await trx
        .selectFrom('message_reactions')
        .select('emoji')
        .where('msg_id', '=', msgId)
        .where('user_id', '=', userId)
        .execute();
      if (mine.some((r) => r.emoji === emoji)) return 'already';
      if (mine.length >= max) return 'full';
      await trx
        .insertInto('message_reactions')
        .values({ msg_id: msgId, user_id: userId, emoji, create_time: now })
        .onConflict((oc) => oc.columns(['msg_id', 'user_id', 'emoji']).doNothing())
        .execute();
      return 'added';
    });
  }

  /** Takes my reaction back; false when it was not there. */
  async remove(msgId: number, userId: number, emoji: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('message_reactions')
      .where('msg_id', '=', msgId)
      .where('user_id', '=', userId)
      .where('emoji', '=', emoji)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** How many people react with `emoji` to a message. */
  async count(msgId: number, emoji: string): Promise<number> {
    const row = await this.db
      .selectFrom('message_reactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('msg_id', '=', msgId)
      .where('emoji', '=', emoji)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The counts of every emoji on `msgIds` and which of them `readerId` reacted with, in one query
   * (one round trip, whatever the number of messages and reactions): per message, the emoji in the
   * order each was first used.
   */
  async counts(msgIds: readonly number[], readerId: number): Promise<ReactionCount[]> {
    if (msgIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('message_reactions')
      .select((eb) => [
        'msg_id',
        'emoji',
        eb.fn.countAll<number>().as('count'),
        eb.fn.max(eb.case().when('user_id', '=', readerId).then(1).else(0).end()).as('mine'),
      ])
      .where('msg_id', 'in', msgIds)
      .groupBy(['msg_id', 'emoji'])
      .orderBy('msg_id')
      .orderBy(sql`min(create_time)`)
      .orderBy('emoji')
      .execute();
    return rows.map((r) => ({
      msg_id: Number(r.msg_id),
      emoji: r.emoji,
      count: Number(r.count),
      mine: Number(r.mine) ? 1 : 0,
    }));
  }

  /** Who reacted to a message (with `emoji` only, when given), oldest first, at most `limit` per emoji. */
  async who(msgId: number, emoji: string | undefined, limit: number): Promise<ReactionRow[]> {
    let q = this.db
      .selectFrom('message_reactions')
      .select(['user_id', 'emoji', 'create_time'])
      .where('msg_id', '=', msgId);
    if (emoji !== undefined) q = q.where('emoji', '=', emoji);
    const rows = await q.orderBy('emoji').orderBy('create_time').orderBy('user_id').execute();
    const perEmoji = new Map<string, number>();
    const out: ReactionRow[] = [];
    for (const r of rows) {
      const n = perEmoji.get(r.emoji) ?? 0;
      if (n >= limit) continue;
      perEmoji.set(r.emoji, n + 1);
      out.push({ user_id: Number(r.user_id), emoji: r.emoji, create_time: Number(r.create_time) });
    }
    return out.sort((a, b) => a.create_time - b.create_time || a.user_id - b.user_id);
  }
}
