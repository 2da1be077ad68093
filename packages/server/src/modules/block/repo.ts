import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import { Prepared } from '../../db/prepared';
import type { BlocksTable } from '../../db/schema';

export type BlockRow = Selectable<BlocksTable>;

/** Whether `to` blocked `from`, and whether `from` has `to` as a friend: one statement, on every private send. */
const reach = new Prepared((db, from: number, to: number) =>
  db.selectNoFrom((eb) => [
    eb
      .exists(eb.selectFrom('blocks').select('blocker_id').where('blocker_id', '=', to).where('blocked_id', '=', from))
      .as('blocked'),
    eb
      .exists(eb.selectFrom('friends').select('id').where('user_id', '=', from).where('friend_user_id', '=', to))
      .as('friend'),
  ]),
);

/** The only SQL on block lists (黑名单): one row per (blocker, blocked) pair. */
export class BlockRepo {
  constructor(private readonly db: Db) {}

  /** Adds the pair unless it is there already; true when this call added it. */
  async block(blockerId: number, blockedId: number, now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('blocks')
      .values({ blocker_id: blockerId, blocked_id: blockedId, create_time: now })
      .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
      .returning('blocker_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Removes the pair; true when there was one. */
  async unblock(blockerId: number, blockedId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('blocks')
      .where('blocker_id', '=', blockerId)
      .where('blocked_id', '=', blockedId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Whether `blockerId` blocked `blockedId`. */
  async has(blockerId: number, blockedId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('blocks')
      .select('blocker_id')
      .where('blocker_id', '=', blockerId)
      .where('blocked_id', '=', blockedId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Whether `toId` blocked `fromId`, and whether `fromId` has `toId` as a friend, in one query: what
   * a private message, call, pat or reaction asks (Access.reaches).
   */
  async reach(fromId: number, toId: number): Promise<{ blocked: boolean; friend: boolean }> {
    const row = await reach.first(this.db, fromId, toId);
    return { blocked: Boolean(row?.blocked), friend: Boolean(row?.friend) };
  }

  /** Whether either of two people blocked the other. */
  async either(a: number, b: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('blocks')
      .select('blocker_id')
      .where((eb) =>
        eb.or([
          eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
          eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Those of `ids` who blocked `blockedId`. */
  async blockersAmong(blockedId: number, ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('blocks')
      .select('blocker_id')
      .where('blocked_id', '=', blockedId)
      .where('blocker_id', 'in', [...new Set(ids)])
      .execute();
    return rows.map((r) => r.blocker_id);
  }

  /** Everyone `userId` blocked or was blocked by. */
  async around(userId: number): Promise<number[]> {
    const [mine, theirs] = await Promise.all([
      this.db.selectFrom('blocks').select('blocked_id as id').where('blocker_id', '=', userId).execute(),
      this.db.selectFrom('blocks').select('blocker_id as id').where('blocked_id', '=', userId).execute(),
    ]);
    return [...new Set([...mine, ...theirs].map((r) => r.id))];
  }

  /** One page of the people `blockerId` blocked, the latest first, and how many in all. */
  async list(blockerId: number, page: number, limit: number): Promise<{ rows: BlockRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('blocks')
        .selectAll()
        .where('blocker_id', '=', blockerId)
        .orderBy('create_time', 'desc')
        .orderBy('blocked_id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      this.db
        .selectFrom('blocks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('blocker_id', '=', blockerId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }
}
