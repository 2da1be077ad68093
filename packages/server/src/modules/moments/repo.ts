import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db';
import type { MomentPostsTable, MomentSettingsTable } from '../../db/schema';

export type PostRow = Selectable<MomentPostsTable>;
export type SettingsRow = Selectable<MomentSettingsTable>;

/** moment_hides kinds. */
export const Hide = { From: 1, Them: 2 } as const;
/** moment_notices kinds. */
export const NoticeKind = { Like: 1, Comment: 2 } as const;

const DAY_MS = 86_400_000;

export interface ImageWithFile {
  post_id: number;
  file_id: number;
  storage_key: string;
  thumb: string;
  width: number;
  height: number;
}

export interface CommentRow {
  id: number;
  post_id: number;
  user_id: number;
  reply_to_user: number;
  content: string;
  create_time: number;
}

export interface NoticeRow {
  id: number;
  actor_id: number;
  post_id: number;
  kind: number;
  comment_id: number;
  create_time: number;
}

/** The only SQL on moments. */
export class MomentRepo {
  constructor(private readonly db: Db) {}

  /**
   * One page of the posts `viewerId` may see, newest first, below `beforeId` (0: from the newest).
   * With `authorId`, only that author's (an album, where the viewer's own hide list does not apply).
   * One query over the posts' (user_id, id) index: my own posts, and my current friends' posts that
   * their visibility and hide lists admit, within the author's range (fan-out on read).
   */
  page(
    viewerId: number,
    opts: { beforeId: number; authorId?: number; limit: number; now: number },
  ): Promise<PostRow[]> {
    let q = this.db
      .selectFrom('moment_posts as p')
      .leftJoin('moment_settings as s', 's.user_id', 'p.user_id')
      .selectAll('p');
    if (opts.beforeId > 0) q = q.where('p.id', '<', opts.beforeId);
    if (opts.authorId !== undefined) q = q.where('p.user_id', '=', opts.authorId);
    q = q.where((eb) =>
      eb.or([
        eb('p.user_id', '=', viewerId),
        eb.and([
          eb.exists(
            eb
              .selectFrom('friends as f')
              .select('f.friend_user_id')
              .where('f.user_id', '=', viewerId)
              .whereRef('f.friend_user_id', '=', 'p.user_id'),
          ),
          ...(opts.authorId === undefined
            ? [
                eb(
                  'p.user_id',
                  'not in',
                  eb
                    .selectFrom('moment_hides as mine')
                    .select('mine.other_id')
                    .where('mine.owner_id', '=', viewerId)
                    .where('mine.kind', '=', Hide.Them),
                ),
              ]
            : []),
          eb.not(
            eb.exists(
              eb
                .selectFrom('moment_hides as h')
                .select('h.other_id')
                .whereRef('h.owner_id', '=', 'p.user_id')
                .where('h.kind', '=', Hide.From)
                .where('h.other_id', '=', viewerId),
            ),
          ),
          eb.or([
            eb('p.visibility', '=', 1),
            eb.and([
              eb('p.visibility', '=', 3),
              eb.exists(
                eb
                  .selectFrom('moment_targets as t')
                  .select('t.user_id')
                  .whereRef('t.post_id', '=', 'p.id')
                  .where('t.user_id', '=', viewerId),
              ),
            ]),
            eb.and([
              eb('p.visibility', '=', 4),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('moment_targets as t')
                    .select('t.user_id')
                    .whereRef('t.post_id', '=', 'p.id')
                    .where('t.user_id', '=', viewerId),
                ),
              ),
            ]),
          ]),
          eb.or([
            eb('s.range_days', 'is', null),
            eb('s.range_days', '=', 0),
            sql<boolean>`p.create_time >= cast(${opts.now} as bigint) - s.range_days * cast(${DAY_MS} as bigint)`,
          ]),
        ]),
      ]),
    );
    return q.orderBy('p.id', 'desc').limit(opts.limit).execute();
  }

  byId(id: number): Promise<PostRow | undefined> {
    return this.db.selectFrom('moment_posts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byClientId(userId: number, clientId: string): Promise<PostRow | undefined> {
    return this.db
      .selectFrom('moment_posts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Stores a post with its images and named people, in one transaction. */
  async insert(values: Insertable<MomentPostsTable>, fileIds: number[], targets: number[]): Promise<PostRow> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('moment_posts').values(values).returningAll().executeTakeFirstOrThrow();
      if (fileIds.length)
        await trx
          .insertInto('moment_images')
          .values(fileIds.map((file_id, sort) => ({ post_id: row.id, file_id, sort })))
          .execute();
      if (targets.length)
        await trx
          .insertInto('moment_targets')
          .values(targets.map((user_id) => ({ post_id: row.id, user_id })))
          .execute();
      return row;
    });
  }

  /** Removes a post and everything on it; the file ids its images used. */
  async remove(postId: number): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const files = await trx.selectFrom('moment_images').select('file_id').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_images').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_targets').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_likes').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_comments').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_notices').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_posts').where('id', '=', postId).execute();
      return files.map((f) => f.file_id);
    });
  }

  /** Whether `userId` is among the people a post names. */
  async targets(postId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('moment_targets')
      .select('user_id')
      .where('post_id', '=', postId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  targetIds(postId: number): Promise<number[]> {
    return this.db
      .selectFrom('moment_targets')
      .select('user_id')
      .where('post_id', '=', postId)
      .execute()
      .then((rows) => rows.map((r) => r.user_id));
  }

  images(postIds: number[]): Promise<ImageWithFile[]> {
    if (!postIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('moment_images as i')
      .innerJoin('files as f', 'f.id', 'i.file_id')
      .select(['i.post_id', 'i.file_id', 'f.storage_key', 'f.thumb', 'f.width', 'f.height'])
      .where('i.post_id', 'in', postIds)
      .orderBy('i.post_id')
      .orderBy('i.sort')
      .execute();
  }

  likes(postIds: number[]): Promise<Array<{ post_id: number; user_id: number }>> {
    if (!postIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('moment_likes')
      .select(['post_id', 'user_id'])
      .where('post_id', 'in', postIds)
      .orderBy('id')
      .execute();
  }

  comments(postIds: number[]): Promise<CommentRow[]> {
    if (!postIds.length) return Promise.resolve([]);
    return this.db.selectFrom('moment_comments').selectAll().where('post_id', 'in', postIds).orderBy('id').execute();
  }

  comment(id: number): Promise<CommentRow | undefined> {
    return this.db.selectFrom('moment_comments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Likes a post once; false when it was already liked. */
  async like(postId: number, userId: number, now: number): Promise<boolean> {
    const res = await this.db
      .insertInto('moment_likes')
      .values({ post_id: postId, user_id: userId, create_time: now })
      .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unlike(postId: number, userId: number): Promise<void> {
    await this.db.deleteFrom('moment_likes').where('post_id', '=', postId).where('user_id', '=', userId).execute();
    await this.db
      .deleteFrom('moment_notices')
      .where('post_id', '=', postId)
      .where('actor_id', '=', userId)
      .where('kind', '=', NoticeKind.Like)
      .execute();
  }

  async addComment(values: Omit<CommentRow, 'id'>): Promise<CommentRow> {
    return this.db.insertInto('moment_comments').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async removeComment(id: number): Promise<void> {
    await this.db.deleteFrom('moment_comments').where('id', '=', id).execute();
    await this.db.deleteFrom('moment_notices').where('comment_id', '=', id).execute();
  }

  async notify(values: Omit<NoticeRow, 'id'> & { user_id: number }): Promise<void> {
    await this.db.insertInto('moment_notices').values(values).execute();
  }

  /**
   * My notices, newest first, from actors I may see (my current friends): a like or a comment of
   * someone who is no longer my friend is not shown.
   */
  notices(userId: number, opts: { afterId?: number; offset: number; limit: number }): Promise<NoticeRow[]> {
    let q = this.db
      .selectFrom('moment_notices as n')
      .select(['n.id', 'n.actor_id', 'n.post_id', 'n.kind', 'n.comment_id', 'n.create_time'])
      .where('n.user_id', '=', userId)
      .where('n.actor_id', 'in', (eb) =>
        eb.selectFrom('friends as f').select('f.friend_user_id').where('f.user_id', '=', userId),
      );
    if (opts.afterId !== undefined) q = q.where('n.id', '>', opts.afterId);
    return q.orderBy('n.id', 'desc').offset(opts.offset).limit(opts.limit).execute();
  }

  settings(userId: number): Promise<SettingsRow | undefined> {
    return this.db.selectFrom('moment_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async saveSettings(userId: number, values: Partial<Omit<SettingsRow, 'user_id'>>): Promise<void> {
    await this.db
      .insertInto('moment_settings')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  async hides(ownerId: number, kind: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('moment_hides')
      .select('other_id')
      .where('owner_id', '=', ownerId)
      .where('kind', '=', kind)
      .execute();
    return rows.map((r) => r.other_id);
  }

  /** Whether `ownerId` has `otherId` in their hide list of `kind`. */
  async hidden(ownerId: number, kind: number, otherId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('moment_hides')
      .select('other_id')
      .where('owner_id', '=', ownerId)
      .where('kind', '=', kind)
      .where('other_id', '=', otherId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Those who hide `ownerId`'s posts from their feed. */
  async hiding(ownerId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('moment_hides')
      .select('owner_id')
      .where('other_id', '=', ownerId)
      .where('kind', '=', Hide.Them)
      .execute();
    return rows.map((r) => r.owner_id);
  }

  async setHides(ownerId: number, kind: number, others: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('moment_hides').where('owner_id', '=', ownerId).where('kind', '=', kind).execute();
      if (others.length)
        await trx
          .insertInto('moment_hides')
          .values(others.map((other_id) => ({ owner_id: ownerId, kind, other_id })))
          .execute();
    });
  }

  /** Whether any post or any cover uses this file. */
  async usesFile(fileId: number): Promise<boolean> {
    const image = await this.db
      .selectFrom('moment_images')
      .select('id')
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    if (image) return true;
    const cover = await this.db
      .selectFrom('moment_settings')
      .select('user_id')
      .where('cover_file_id', '=', fileId)
      .executeTakeFirst();
    return cover !== undefined;
  }
}
