import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { DataExportsTable } from '../../db/schema';
import { unlessDuplicate } from '../../db/unique';

export type ExportRow = Selectable<DataExportsTable>;

/** Messages read at a time while an archive is written. */
export const EXPORT_PAGE = 500;

/** The only SQL on data exports (migration 030) and what an archive reads of its user. */
export class ExportRepo {
  constructor(private readonly db: Db) {}

  /**
   * Queues an export of the user's data unless one is queued or running (the partial unique
   * index keeps it to one): answers the new row or that one.
   */
  async queue(userId: number, now: number): Promise<ExportRow> {
    const inserted = await unlessDuplicate(() =>
      this.db
        .insertInto('data_exports')
        .values({ user_id: userId, state: 'queued', create_time: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    if (inserted) return inserted;
    const live = await this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
    // Finished between the refused insert and this read: queue again.
    return live ?? this.queue(userId, now);
  }

  /** The user's export by id, or their newest. */
  mine(userId: number, id?: number): Promise<ExportRow | undefined> {
    let q = this.db.selectFrom('data_exports').selectAll().where('user_id', '=', userId);
    if (id) q = q.where('id', '=', id);
    return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  /** Exports no node is building: queued, or running under a lease that ran out (its node stopped). */
  async claimable(now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('data_exports')
      .select('id')
      .where((eb) =>
        eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Takes an export to build until `leaseUntil`, a compare-and-set: only one node wins a row that
   * is queued or whose lease ran out. The row as claimed, or undefined when another node has it.
   */
  async claim(id: number, now: number, leaseUntil: number): Promise<ExportRow | undefined> {
    return this.db
      .updateTable('data_exports')
      .set((eb) => ({ state: 'running', lease_until: leaseUntil, progress: 0, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** Records progress and renews the lease; false when the row is no longer this build's (its lease was taken). */
  async progress(id: number, attempt: number, progress: number, leaseUntil: number): Promise<boolean> {
    const res = await this.db
      .updateTable('data_exports')
      .set({ progress, lease_until: leaseUntil })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('attempts', '=', attempt)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Marks this build's export done; false when another build took it over meanwhile. */
  async finish(
    id: number,
    attempt: number,
    done: { storageKey: string; size: number; now: number; expiresAt: number },
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('data_exports')
      .set({
        state: 'done',
        progress: 100,
        storage_key: done.storageKey,
        size: done.size,
        finish_time: done.now,
        expires_at: done.expiresAt,
        lease_until: 0,
      })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('attempts', '=', attempt)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async fail(id: number, attempt: number, now: number): Promise<void> {
    await this.db
      .updateTable('data_exports')
      .set({ state: 'failed', finish_time: now, lease_until: 0 })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('attempts', '=', attempt)
      .execute();
  }

  /** Finished exports whose time is up. */
  expired(now: number, limit: number): Promise<ExportRow[]> {
    return this.db
      .selectFrom('data_exports')
      .selectAll()
      .where('state', '=', 'done')
      .where('expires_at', '<=', now)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Marks an export expired once its archive is gone (a compare-and-set: one sweep tells of it). */
  async expire(id: number): Promise<boolean> {
    const res = await this.db
      .updateTable('data_exports')
      .set({ state: 'expired', storage_key: '' })
      .where('id', '=', id)
      .where('state', '=', 'done')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** The user's friends with the remark they gave each. */
  friends(userId: number) {
    return this.db
      .selectFrom('friends as f')
      .innerJoin('users as u', 'u.id', 'f.friend_user_id')
      .select(['u.id', 'u.account', 'u.realname', 'f.nickname', 'f.create_time'])
      .where('f.user_id', '=', userId)
      .orderBy('f.id')
      .execute();
  }

  /** The live groups the user is in, with their role. */
  groups(userId: number) {
    return this.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .select(['g.id', 'g.name', 'g.owner_id', 'm.role', 'm.nickname', 'm.join_time'])
      .where('m.user_id', '=', userId)
      .where('g.status', '=', 1)
      .orderBy('g.id')
      .execute();
  }

  /** How many live messages the user sent, and the distinct files among them. */
  async sentCounts(userId: number): Promise<{ messages: number; files: number }> {
    const m = await this.db
      .selectFrom('messages')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('file_id').distinct().as('f')])
      .where('from_user', '=', userId)
      .where('is_deleted', '=', 0)
      .where('is_undo', '=', 0)
      .executeTakeFirstOrThrow();
    return { messages: Number(m.n), files: Number(m.f) };
  }

  /** A page of the live messages the user sent after `afterId`, oldest first, with the name of each chat. */
  sentPage(userId: number, afterId: number) {
    return this.db
      .selectFrom('messages as m')
      .leftJoin('users as peer', (j) => j.onRef('peer.id', '=', 'm.to_id').on('m.chat_type', '=', 0))
      .leftJoin('groups as g', (j) => j.onRef('g.id', '=', 'm.to_id').on('m.chat_type', '=', 1))
      .leftJoin('files as fl', 'fl.id', 'm.file_id')
      .select([
        'fl.ext as file_ext',
        'm.id',
        'm.chat_type',
        'm.to_id',
        'm.type',
        'm.content',
        'm.extends',
        'm.file_id',
        'm.create_time',
        'peer.realname as peer_name',
        'g.name as group_name',
      ])
      .where('m.from_user', '=', userId)
      .where('m.id', '>', afterId)
      .where('m.is_deleted', '=', 0)
      .where('m.is_undo', '=', 0)
      .orderBy('m.id')
      .limit(EXPORT_PAGE)
      .execute();
  }

  /** A page of the distinct files the user sent in live messages, after file id `afterId`. */
  sentFiles(userId: number, afterId: number) {
    return this.db
      .selectFrom('files as f')
      .select(['f.id', 'f.ext', 'f.size', 'f.storage_key'])
      .where('f.id', '>', afterId)
      .where('f.id', 'in', (eb) =>
        eb
          .selectFrom('messages')
          .select('file_id')
          .where('from_user', '=', userId)
          .where('file_id', '>', 0)
          .where('is_deleted', '=', 0)
          .where('is_undo', '=', 0),
      )
      .orderBy('f.id')
      .limit(EXPORT_PAGE)
      .execute();
  }

  /** The user's moments posts with their pictures' files and the comments on them. */
  async moments(userId: number) {
    const posts = await this.db
      .selectFrom('moment_posts')
      .select(['id', 'content', 'location', 'visibility', 'create_time'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    const ids = posts.map((p) => p.id);
    const images = ids.length
      ? await this.db
          .selectFrom('moment_images as i')
          .innerJoin('files as f', 'f.id', 'i.file_id')
          .select(['i.post_id', 'i.file_id', 'f.ext', 'f.storage_key'])
          .where('i.post_id', 'in', ids)
          .orderBy('i.post_id')
          .orderBy('i.sort')
          .execute()
      : [];
    const comments = ids.length
      ? await this.db
          .selectFrom('moment_comments as c')
          .innerJoin('users as u', 'u.id', 'c.user_id')
          .select(['c.post_id', 'c.user_id', 'u.realname', 'c.content', 'c.create_time'])
          .where('c.post_id', 'in', ids)
          .orderBy('c.id')
          .execute()
      : [];
    return { posts, images, comments };
  }

  /** The user's favourites, newest first, as saved. */
  favourites(userId: number) {
    return this.db
      .selectFrom('favourites')
      .select(['id', 'kind', 'type', 'body', 'create_time'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }
}
