import type { Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction, lockKey } from '../../db/locks';
import { Prepared } from '../../db/prepared';
import type { FriendRequestsTable, FriendsTable } from '../../db/schema';

export type FriendRow = Selectable<FriendsTable>;
export type RequestRow = Selectable<FriendRequestsTable>;

export const RequestStatus = { Refused: 0, Accepted: 1, Pending: 2 } as const;

const friendsBetween = new Prepared((db, a: number, b: number) =>
  db
    .selectFrom('friends')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('user_id', '=', a), eb('friend_user_id', '=', b)]),
        eb.and([eb('user_id', '=', b), eb('friend_user_id', '=', a)]),
      ]),
    ),
);
/** A friend request as the `system` row of the conversation list shows it. */
export interface RequestPreview {
  createTime: number;
  /** The sender's real name ('' when the account is gone). */
  fromName: string;
}

/** The only SQL on friendships and friend requests. */
export class FriendRepo {
  constructor(private readonly db: Db | Transaction<Database>) {}

  /**
   * Runs `work` in one transaction holding the lock of the pair `a`–`b`, with this repository bound
   * to it: whether they are friends and who asked whom is read through `f` and changed, while no
   * other change of the same pair can come between (db/locks.ts). Two people asking each other at
   * once thus find each other's request and become friends; one asking twice at once asks once.
   */
  pair<T>(a: number, b: number, work: (f: FriendRepo) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (trx) => {
      await lockKey(trx, `friends:${Math.min(a, b)}:${Math.max(a, b)}`);
      return work(new FriendRepo(trx));
    });
  }

  /** My friendship row with `other`, if we are friends. */
  row(userId: number, other: number): Promise<FriendRow | undefined> {
    return this.db
      .selectFrom('friends')
      .selectAll()
      .where('user_id', '=', userId)
      .where('friend_user_id', '=', other)
      .executeTakeFirst();
  }

  /** The friend rows between two users, by the user whose row it is. */
  async between(a: number, b: number): Promise<Map<number, FriendRow>> {
    const rows = await friendsBetween.all(this.db, a, b);
    return new Map(rows.map((r) => [r.user_id, r]));
  }

  rowById(id: number): Promise<FriendRow | undefined> {
    return this.db.selectFrom('friends').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** My friendship rows, keyed by the friend's user id. */
  async rowsOf(userId: number): Promise<Map<number, FriendRow>> {
    const rows = await this.db.selectFrom('friends').selectAll().where('user_id', '=', userId).execute();
    return new Map(rows.map((r) => [r.friend_user_id, r]));
  }

  /** The rows of those who have me as a friend, keyed by whose row it is. */
  async rowsTo(userId: number): Promise<Map<number, FriendRow>> {
    const rows = await this.db.selectFrom('friends').selectAll().where('friend_user_id', '=', userId).execute();
    return new Map(rows.map((r) => [r.user_id, r]));
  }

  async friendIds(userId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('friends').select('friend_user_id').where('user_id', '=', userId).execute();
    return rows.map((r) => r.friend_user_id);
  }

  /** Makes two users friends (both directions), idempotently. */
  async befriend(a: number, b: number, now: number): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      for (const [u, f] of [
        [a, b],
        [b, a],
      ] as const) {
        await trx
          .insertInto('friends')
          .values({ user_id: u, friend_user_id: f, nickname: '', create_time: now })
          .onConflict((oc) => oc.columns(['user_id', 'friend_user_id']).doNothing())
          .execute();
      }
      await trx
        .updateTable('friend_requests')
        .set({ status: RequestStatus.Accepted, update_time: now })
        .where('status', '=', RequestStatus.Pending)
        .where((eb) =>
          eb.or([
            eb.and([eb('create_user', '=', a), eb('user_id', '=', b)]),
            eb.and([eb('create_user', '=', b), eb('user_id', '=', a)]),
          ]),
        )
        .execute();
    });
  }

  /** Ends a friendship in both directions; true when there was one. */
  async unfriend(a: number, b: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('friends')
      .where((eb) =>
        eb.or([
          eb.and([eb('user_id', '=', a), eb('friend_user_id', '=', b)]),
          eb.and([eb('user_id', '=', b), eb('friend_user_id', '=', a)]),
        ]),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * The remarks some readers gave some users, by reader then user: what an event line calls a
   * person for a reader who named them (only remarks that are set).
   */
  async remarks(readerIds: readonly number[], userIds: readonly number[]): Promise<Map<number, Map<number, string>>> {
    const out = new Map<number, Map<number, string>>();
    if (readerIds.length === 0 || userIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('friends')
      .select(['user_id', 'friend_user_id', 'nickname'])
      .where('user_id', 'in', [...new Set(readerIds)])
      .where('friend_user_id', 'in', [...new Set(userIds)])
      .where('nickname', '!=', '')
      .execute();
    for (const r of rows) {
      const mine = out.get(r.user_id) ?? new Map<number, string>();
      mine.set(r.friend_user_id, r.nickname);
      out.set(r.user_id, mine);
    }
    return out;
  }

  async setNickname(rowId: number, nickname: string): Promise<void> {
    await this.db.updateTable('friends').set({ nickname }).where('id', '=', rowId).execute();
  }

  pending(from: number, to: number): Promise<RequestRow | undefined> {
    return this.db
      .selectFrom('friend_requests')
      .selectAll()
      .where('create_user', '=', from)
      .where('user_id', '=', to)
      .where('status', '=', RequestStatus.Pending)
      .executeTakeFirst();
  }

  request(id: number): Promise<RequestRow | undefined> {
    return this.db.selectFrom('friend_requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createRequest(from: number, to: number, remark: string, now: number): Promise<number> {
    const row = await this.db
      .insertInto('friend_requests')
      .values({
        create_user: from,
        user_id: to,
        remark,
        status: RequestStatus.Pending,
        create_time: now,
        update_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Refreshes a pending request's note and time (asking again bumps it to the top). */
  async renewRequest(id: number, remark: string, now: number): Promise<void> {
    await this.db
      .updateTable('friend_requests')
      .set({ remark, create_time: now, update_time: now })
      .where('id', '=', id)
      .execute();
  }

  async setRequestStatus(id: number, status: number, now: number): Promise<void> {
    await this.db.updateTable('friend_requests').set({ status, update_time: now }).where('id', '=', id).execute();
  }

  /** Requests I sent (`mine`) or received, newest first, with a total. */
  async list(
    userId: number,
    mine: boolean,
    page: number,
    limit: number,
  ): Promise<{ rows: RequestRow[]; total: number }> {
    const column = mine ? 'create_user' : 'user_id';
    const rows = await this.db
      .selectFrom('friend_requests')
      .selectAll()
      .where(column, '=', userId)
      .orderBy('create_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    const total = await this.db
      .selectFrom('friend_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', userId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.n) };
  }

  async pendingCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('friend_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', RequestStatus.Pending)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The newest request to `userId` still waiting for an answer, with its sender's name (the `system` row). */
  async newestPendingTo(userId: number): Promise<RequestPreview | undefined> {
    const newest = await this.db
      .selectFrom('friend_requests as r')
      .leftJoin('users as u', 'u.id', 'r.create_user')
      .select(['r.create_time', 'u.realname'])
      .where('r.user_id', '=', userId)
      .where('r.status', '=', RequestStatus.Pending)
      .orderBy('r.create_time', 'desc')
      .executeTakeFirst();
    return newest && { createTime: newest.create_time, fromName: newest.realname ?? '' };
  }
}
