import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction, lockKey, onPostgres } from '../../db/locks';
import { isUniqueViolation } from '../../db/unique';

/** A poll as stored (migration 036), its options read. */
export interface PollRow {
  id: number;
  msg_id: number;
  group_id: number;
  creator: number;
  question: string;
  options: string[];
  multiple: 0 | 1;
  anonymous: 0 | 1;
  deadline: number;
  closed: 0 | 1;
  create_time: number;
}

/** A poll's counts, counted from its votes, and what one reader chose. */
export interface PollTally {
  poll: PollRow;
  counts: number[];
  voters: number;
  mine: number[];
}

/** What a vote came to: taken, or refused because the poll was closed or its deadline passed. */
export type VoteOutcome = 'voted' | 'closed';

/** One voter's option, as the list of voters reads it. */
export interface PollVoteRow {
  option: number;
  user_id: number;
  create_time: number;
}

type PollsTableRow = Database['polls'] extends infer T ? { [K in keyof T]: unknown } : never;

function readPoll(r: PollsTableRow): PollRow {
  let options: string[] = [];
  try {
    const parsed: unknown = JSON.parse(String(r.options));
    if (Array.isArray(parsed)) options = parsed.map(String);
  } catch {
    options = [];
  }
  return {
    id: Number(r.id),
    msg_id: Number(r.msg_id),
    group_id: Number(r.group_id),
    creator: Number(r.creator),
    question: String(r.question),
    options,
    multiple: Number(r.multiple) ? 1 : 0,
    anonymous: Number(r.anonymous) ? 1 : 0,
    deadline: Number(r.deadline),
    closed: Number(r.closed) ? 1 : 0,
    create_time: Number(r.create_time),
  };
}

/**
 * Polls and their votes: a row per voter and chosen option, every count counted from the rows, so
 * that votes arriving at once on any number of servers all count.
 */
export class PollRepo {
  constructor(private readonly db: Db) {}

  /**
   * Stores a poll before its message, keyed by its creator and the client-made id of its message:
   * a retry, or a second start at once, answers the poll the first stored. `attach` names the
   * message once it is stored.
   */
  async create(p: Omit<PollRow, 'id' | 'msg_id' | 'closed'>, clientId: string): Promise<number> {
    const made = await this.byClient(p.creator, clientId);
    if (made !== undefined) return made;
    try {
      const row = await this.db
        .insertInto('polls')
        .values({
          msg_id: 0,
          group_id: p.group_id,
          creator: p.creator,
          question: p.question,
          options: JSON.stringify(p.options),
          multiple: p.multiple,
          anonymous: p.anonymous,
          deadline: p.deadline,
          closed: 0,
          closed_at: 0,
          client_id: clientId,
          create_time: p.create_time,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await this.byClient(p.creator, clientId);
      if (raced === undefined) throw err;
      return raced;
    }
  }

  private async byClient(creator: number, clientId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('polls')
      .select('id')
      .where('creator', '=', creator)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row && Number(row.id);
  }

  /** Deletes a poll whose message was never stored (its start failed), with any vote it has. */
  async dropUnsent(pollId: number): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const gone = await trx.deleteFrom('polls').where('id', '=', pollId).where('msg_id', '=', 0).executeTakeFirst();
      if (Number(gone.numDeletedRows) > 0) await trx.deleteFrom('poll_votes').where('poll_id', '=', pollId).execute();
    });
  }

  /** Names the message that carries a poll (again, on a retried start: the same message). */
  async attach(pollId: number, msgId: number): Promise<void> {
    await this.db.updateTable('polls').set({ msg_id: msgId }).where('id', '=', pollId).execute();
  }

  /** A poll by its id. */
  async byId(pollId: number): Promise<PollRow | undefined> {
    if (!Number.isSafeInteger(pollId) || pollId <= 0) return undefined;
    const row = await this.db.selectFrom('polls').selectAll().where('id', '=', pollId).executeTakeFirst();
    return row ? readPoll(row) : undefined;
  }

  /**
   * The polls `pollIds`, with their counts and what `readerId` chose, by poll id: four queries
   * whatever the number of polls or votes.
   */
  async tallies(pollIds: readonly number[], readerId: number): Promise<Map<number, PollTally>> {
    const out = new Map<number, PollTally>();
    const ids = [...new Set(pollIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
    if (ids.length === 0) return out;
    const polls = (await this.db.selectFrom('polls').selectAll().where('id', 'in', ids).execute()).map(readPoll);
    if (polls.length === 0) return out;
    const counts = await this.db
      .selectFrom('poll_votes')
      .select((eb) => ['poll_id', 'option', eb.fn.countAll<number>().as('n')])
      .where('poll_id', 'in', ids)
      .groupBy(['poll_id', 'option'])
      .execute();
    const voters = await this.db
      .selectFrom('poll_votes')
      .select((eb) => ['poll_id', eb.fn.count<number>('user_id').distinct().as('n')])
      .where('poll_id', 'in', ids)
      .groupBy('poll_id')
      .execute();
    const mine = await this.db
      .selectFrom('poll_votes')
      .select(['poll_id', 'option'])
      .where('poll_id', 'in', ids)
      .where('user_id', '=', readerId)
      .orderBy('option')
      .execute();
    for (const poll of polls) out.set(poll.id, { poll, counts: poll.options.map(() => 0), voters: 0, mine: [] });
    for (const c of counts) {
      const t = out.get(Number(c.poll_id));
      const i = Number(c.option);
      if (t && i < t.counts.length) t.counts[i] = Number(c.n);
    }
    for (const v of voters) {
      const t = out.get(Number(v.poll_id));
      if (t) t.voters = Number(v.n);
    }
    for (const m of mine) out.get(Number(m.poll_id))?.mine.push(Number(m.option));
    return out;
  }

  /**
   * Replaces my choice with `options` (none: withdraws it), unless the poll is closed or its
   * deadline has passed. The poll's row is read under a shared lock (on PostgreSQL), which a close
   * waits for: a vote either commits before the close or sees it. My earlier choice is replaced
   * under a lock of (poll, me), so that two votes of mine at once end as one of them.
   */
  vote(pollId: number, userId: number, options: readonly number[], now: number): Promise<VoteOutcome> {
    return inTransaction(this.db, async (trx) => {
      const poll = await this.sharedRow(trx, pollId);
      if (!poll || poll.closed || (poll.deadline > 0 && now >= poll.deadline)) return 'closed';
      await lockKey(trx, `poll:${pollId}:${userId}`);
      await trx.deleteFrom('poll_votes').where('poll_id', '=', pollId).where('user_id', '=', userId).execute();
      if (options.length)
        await trx
          .insertInto('poll_votes')
          .values(options.map((option) => ({ poll_id: pollId, user_id: userId, option, create_time: now })))
          .execute();
      return 'voted';
    });
  }

  private async sharedRow(trx: Transaction<Database>, pollId: number) {
    const q = trx.selectFrom('polls').select(['closed', 'deadline']).where('id', '=', pollId);
    const row = await (onPostgres(trx) ? q.forShare() : q).executeTakeFirst();
    return row && { closed: Number(row.closed), deadline: Number(row.deadline) };
  }

  /** Closes a poll; false when it was closed already (a compare-and-set: one close wins). */
  async close(pollId: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('polls')
      .set({ closed: 1, closed_at: now })
      .where('id', '=', pollId)
      .where('closed', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Who chose each option (`option` alone when given), oldest vote first, at most `limit` per
   * option: the database numbers each option's votes and reads no more than that.
   */
  async voters(pollId: number, option: number | undefined, limit: number): Promise<PollVoteRow[]> {
    let ranked = this.db
      .selectFrom('poll_votes')
      .select([
        'option',
        'user_id',
        'create_time',
        sql<number>`row_number() over (partition by ${sql.ref('option')} order by ${sql.ref('create_time')}, ${sql.ref('user_id')})`.as(
          'place',
        ),
      ])
      .where('poll_id', '=', pollId);
    if (option !== undefined) ranked = ranked.where('option', '=', option);
    const rows = await this.db
      .selectFrom(ranked.as('v'))
      .select(['v.option', 'v.user_id', 'v.create_time'])
      .where('v.place', '<=', limit)
      .orderBy('v.option')
      .orderBy('v.create_time')
      .orderBy('v.user_id')
      .execute();
    return rows.map((r) => ({
      option: Number(r.option),
      user_id: Number(r.user_id),
      create_time: Number(r.create_time),
    }));
  }
}
