import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Selectable,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Database, Db } from '../../db';
import type { MomentPostsTable, MomentSettingsTable } from '../../db/schema';
import { byName } from '../../db/prepared';
import { admitsFriendSql } from './visibility';

export type PostRow = Selectable<MomentPostsTable>;
export type SettingsRow = Selectable<MomentSettingsTable>;

/** moment_hides kinds. */
export const Hide = { From: 1, Them: 2 } as const;

const DAY_MS = 86_400_000;

/** The post `p` is older than the range its author's settings `s` show to others (range_days > 0). */
const beyondRange = (now: number) =>
  sql<boolean>`p.create_time < cast(${now} as bigint) - s.range_days * cast(${DAY_MS} as bigint)`;

export interface ImageWithFile {
  post_id: number;
  file_id: number;
  storage_key: string;
  thumb: string;
  width: number;
  height: number;
}

/** Posts and the timelines they are read from (the feed, an album), and each user's moments settings and hide lists. */
export class MomentRepo {
  constructor(private readonly db: Db) {}

  /**
   * One page of my feed, newest first, below `beforeId` (0: from the newest): one query over my
   * timeline's (user_id, post_id) key, which holds my own posts and those of my friends that their
   * visibility admitted. The rest is decided at read, by key lookups on each row: the author is still
   * my friend, neither of us hides or blocked the other, and the post is within the author's range. Written as
   * one SQL text: built with the query builder, building it cost as much CPU as running it. The
   * friend row is a scalar subquery (one row at most) so that PostgreSQL looks it up for each row
   * instead of reading all my friends into a hash for a page of ten. Run by name: on PostgreSQL,
   * planning it cost more than running it.
   */
  async feed(viewerId: number, opts: { beforeId: number; limit: number; now: number }): Promise<PostRow[]> {
    const query = sql<PostRow>`
      select p.* from moment_timeline tl
      join moment_posts p on p.id = tl.post_id
      where tl.user_id = ${viewerId}
        ${opts.beforeId > 0 ? sql`and tl.post_id < ${opts.beforeId}` : sql``}
        and (tl.author_id = ${viewerId} or (
          select 1 from friends f where f.user_id = ${viewerId} and f.friend_user_id = tl.author_id) is not null)
        and not exists (
          select 1 from moment_hides mine
          where mine.owner_id = ${viewerId} and mine.kind = ${Hide.Them} and mine.other_id = tl.author_id)
        and not exists (
          select 1 from moment_hides h
          where h.owner_id = tl.author_id and h.kind = ${Hide.From} and h.other_id = ${viewerId})
        and not exists (select 1 from blocks b where b.blocker_id = ${viewerId} and b.blocked_id = tl.author_id)
        and not exists (select 1 from blocks b where b.blocker_id = tl.author_id and b.blocked_id = ${viewerId})
        and not exists (
          select 1 from moment_settings s
          where s.user_id = tl.author_id and s.user_id <> ${viewerId} and s.range_days > 0 and ${beyondRange(opts.now)})
      order by tl.post_id desc
      limit ${opts.limit}
    `.compile(this.db);
    return (await this.db.executeQuery(byName(query))).rows;
  }

  /**
   * One page of `authorId`'s posts that `viewerId` may see (their album), newest first, below
   * `beforeId`: over the posts' (user_id, id) index, the author's own or, for a current friend
   * neither of whom blocked the other, those the post's visibility, the author's hide list and range admit.
   */
  album(
    viewerId: number,
    authorId: number,
    opts: { beforeId: number; limit: number; now: number },
  ): Promise<PostRow[]> {
    let q = this.db.selectFrom('moment_posts as p').selectAll('p').where('p.user_id', '=', authorId);
    if (opts.beforeId > 0) q = q.where('p.id', '<', opts.beforeId);
    if (authorId !== viewerId)
      q = q.where((eb) =>
        eb.and([
          eb.exists(
            eb
              .selectFrom('friends as f')
              .select('f.friend_user_id')
              .where('f.user_id', '=', viewerId)
              .where('f.friend_user_id', '=', authorId),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('moment_hides as h')
                .select('h.other_id')
                .where('h.owner_id', '=', authorId)
                .where('h.kind', '=', Hide.From)
                .where('h.other_id', '=', viewerId),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('blocks as b')
                .select('b.blocker_id')
                .where((w) =>
                  w.or([
                    w.and([w('b.blocker_id', '=', viewerId), w('b.blocked_id', '=', authorId)]),
                    w.and([w('b.blocker_id', '=', authorId), w('b.blocked_id', '=', viewerId)]),
                  ]),
                ),
            ),
          ),
          admitsFriendSql(eb, eb.ref('p.visibility'), names(eb, viewerId)),
          eb.not(
            eb.exists(
              eb
                .selectFrom('moment_settings as s')
                .select('s.user_id')
                .where('s.user_id', '=', authorId)
                .where('s.range_days', '>', 0)
                .where(beyondRange(opts.now)),
            ),
          ),
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

  /**
   * Stores a post with its images and named people, and writes it to the timelines of its author
   * and of each friend its visibility admits, in one transaction.
   */
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
      await trx
        .insertInto('moment_timeline')
        .values({ user_id: row.user_id, post_id: row.id, author_id: row.user_id })
        .execute();
      await toFriendTimelines(trx, row);
      return row;
    });
  }

  /**
   * Two people became friends: each one's timeline gets the other's posts whose visibility admits
   * them (the range and hide lists are applied at read).
   */
  async befriended(a: number, b: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await backfill(trx, a, b);
      await backfill(trx, b, a);
    });
  }

  /**
   * A post a review list held (kept as Private meanwhile) gets the visibility its author chose and
   * reaches the timelines of the friends it admits, as at publish.
   */
  async reveal(post: PostRow, visibility: number): Promise<PostRow> {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('moment_posts').set({ visibility }).where('id', '=', post.id).execute();
      const revealed = { ...post, visibility };
      await toFriendTimelines(trx, revealed);
      return revealed;
    });
  }

  /** Two people are no longer friends: each one's timeline loses the other's posts. */
  async unfriended(a: number, b: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [reader, author] of [
        [a, b],
        [b, a],
      ] as const)
        await trx
          .deleteFrom('moment_timeline')
          .where('user_id', '=', reader)
          .where('post_id', 'in', (eb) => eb.selectFrom('moment_posts').select('id').where('user_id', '=', author))
          .execute();
    });
  }

  /** Removes `authorId`'s post and everything on it; the file ids its images used. */
  async remove(postId: number, authorId: number): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const files = await trx.selectFrom('moment_images').select('file_id').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_images').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_targets').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_likes').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_comments').where('post_id', '=', postId).execute();
      await trx.deleteFrom('moment_notices').where('post_id', '=', postId).execute();
      // A post is only in its author's and the author's friends' timelines: found by their keys.
      await trx
        .deleteFrom('moment_timeline')
        .where('post_id', '=', postId)
        .where((eb) =>
          eb.or([
            eb('user_id', '=', authorId),
            eb('user_id', 'in', eb.selectFrom('friends').select('friend_user_id').where('user_id', '=', authorId)),
          ]),
        )
        .execute();
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

/** That the post `p` names `reader` (among its `moment_targets`). */
function names(eb: ExpressionBuilder<Database & { p: MomentPostsTable }, 'p'>, reader: number): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('moment_targets as t')
      .select('t.user_id')
      .whereRef('t.post_id', '=', 'p.id')
      .where('t.user_id', '=', reader),
  );
}

/**
 * Writes a post to the timelines of its author's friends its visibility admits, those it names
 * (`moment_targets`) read in the same transaction: at publish, and when a held post is revealed.
 */
async function toFriendTimelines(
  trx: Transaction<Database>,
  post: Pick<PostRow, 'id' | 'user_id' | 'visibility'>,
): Promise<void> {
  await trx
    .insertInto('moment_timeline')
    .columns(['user_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('friends')
        .select([
          'friend_user_id',
          sql<number>`cast(${post.id} as bigint)`.as('post_id'),
          sql<number>`cast(${post.user_id} as bigint)`.as('author_id'),
        ])
        .where('user_id', '=', post.user_id)
        .where((w) =>
          admitsFriendSql(
            w,
            sql<number>`cast(${post.visibility} as integer)`,
            w('friend_user_id', 'in', w.selectFrom('moment_targets').select('user_id').where('post_id', '=', post.id)),
          ),
        ),
    )
    .execute();
}

/** Writes into `reader`'s timeline the posts of `author` whose visibility admits them. */
async function backfill(trx: Transaction<Database>, reader: number, author: number): Promise<void> {
  await trx
    .insertInto('moment_timeline')
    .columns(['user_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('moment_posts as p')
        .select([sql<number>`cast(${reader} as bigint)`.as('user_id'), 'p.id', 'p.user_id'])
        .where('p.user_id', '=', author)
        .where((w) => admitsFriendSql(w, w.ref('p.visibility'), names(w, reader))),
    )
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing())
    .execute();
}
