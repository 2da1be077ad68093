import type { Db } from '../../db';

/** moment_notices kinds. */
export const NoticeKind = { Like: 1, Comment: 2 } as const;

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

/** Likes and comments on posts, and the notices they leave. */
export class MomentReactionRepo {
  constructor(private readonly db: Db) {}

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

  /** Deletes a comment; false when it was already gone. */
  async removeComment(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('moment_comments').where('id', '=', id).executeTakeFirst();
    await this.db.deleteFrom('moment_notices').where('comment_id', '=', id).execute();
    return Number(res.numDeletedRows) > 0;
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
}
