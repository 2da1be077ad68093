import {
  MOMENT_NOTICES_PAGE,
  MOMENT_PAGE,
  type MomentComment,
  type MomentNotice,
  type MomentPost,
  type MomentSettings,
  type MomentUnread,
  type MomentUser,
  type RouteInput,
  MomentVisibility,
  PICTURES,
} from '@sparrow/protocol';
import { createHash } from 'node:crypto';
import { AppError } from '../../errors';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { storageUrl } from '../../storage/storage';
import type { Access } from '../access';
import type { Session } from '../auth';
import { requireUnmuted } from '../report';
import type { FriendRow } from '../friend';
import { cateOf, type FileService } from '../upload';
import type { UserRow } from '../user';
import { HeldStatus, type KeywordScreen } from '../keywords';
import { NoticeKind, type CommentRow, type MomentReactionRepo } from './reactions-repo';
import { Hide, type MomentRepo, type PostRow } from './repo';
import { admitsFriend, admitsNoFriend, readsNamed } from './visibility';

/** Most new notices `unread` counts. */
const UNREAD_MAX = 99;

/** Who a viewer sees on posts: their friends (by the name they gave them) and themselves, but for blocks. */
interface Viewer {
  id: number;
  friends: Map<number, FriendRow>;
  /** Those the viewer blocked or was blocked by (Access.blockedAround). */
  blocked: Set<number>;
}

/** What MomentService is built from. */
export interface MomentParts {
  repos: Pick<Repos, 'moments' | 'momentReactions' | 'friends' | 'users' | 'files' | 'keywords'>;
  access: Access;
  keywords: Pick<KeywordScreen, 'content'>;
  realtime: Realtime;
  now: () => number;
}

/** Moments (docs/protocol.md §3 `/enterprise/moments/*`): posts, the feed, likes, comments and notices. */
export class MomentService {
  private readonly moments: MomentRepo;
  private readonly reactions: MomentReactionRepo;

  constructor(
    private readonly ctx: MomentParts,
    private readonly files: FileService,
  ) {
    this.moments = ctx.repos.moments;
    this.reactions = ctx.repos.momentReactions;
  }

  private async viewer(userId: number): Promise<Viewer> {
    const [friends, blocked] = await Promise.all([
      this.ctx.repos.friends.rowsOf(userId),
      this.ctx.access.blockedAround(userId),
    ]);
    return { id: userId, friends, blocked };
  }

  /**
   * Whether a viewer is shown what `userId` did on a post by `authorId`: theirs, the author's, a
   * friend's; never that of someone either of them blocked.
   */
  private shows(viewer: Viewer, userId: number, authorId: number): boolean {
    if (userId === viewer.id) return true;
    if (viewer.blocked.has(userId)) return false;
    return userId === authorId || viewer.friends.has(userId);
  }

  private user(viewer: Viewer, users: Map<number, UserRow>, id: number): MomentUser {
    const row = users.get(id);
    return {
      user_id: id,
      displayName: viewer.friends.get(id)?.nickname || row?.realname || '',
      avatar: row?.avatar ?? PICTURES.person,
    };
  }

  /** Posts as a viewer sees them: images, and likes and comments only from people the viewer may see. */
  private async present(viewer: Viewer, rows: PostRow[]): Promise<MomentPost[]> {
    const ids = rows.map((r) => r.id);
    // My own posts a review list holds: kept as only mine (仅自己可见) until an operator decides.
    const mineHidden = rows.filter((r) => r.user_id === viewer.id && r.visibility === MomentVisibility.Private);
    const [images, likes, comments, held] = await Promise.all([
      this.moments.images(ids),
      this.reactions.likes(ids),
      this.reactions.comments(ids),
      this.ctx.repos.keywords.waiting(
        'moment',
        viewer.id,
        mineHidden.map((r) => String(r.id)),
      ),
    ]);
    const waiting = new Set(held.map((h) => Number(h.client_id)));
    const authorOf = new Map(rows.map((r) => [r.id, r.user_id]));
    const seenLikes = likes.filter((l) => this.shows(viewer, l.user_id, authorOf.get(l.post_id)!));
    const seenComments = comments.filter((c) => {
      const author = authorOf.get(c.post_id)!;
      return this.shows(viewer, c.user_id, author) && (!c.reply_to_user || this.shows(viewer, c.reply_to_user, author));
    });
    const users = await this.ctx.repos.users.byIds([
      ...rows.map((r) => r.user_id),
      ...seenLikes.map((l) => l.user_id),
      ...seenComments.flatMap((c) => [c.user_id, c.reply_to_user]),
    ]);
    return rows.map((r) => ({
      id: r.id,
      client_id: r.client_id,
      user: this.user(viewer, users, r.user_id),
      content: r.content,
      images: images
        .filter((i) => i.post_id === r.id)
        .map((i) => ({
          file_id: i.file_id,
          src: storageUrl(i.storage_key),
          thumb: i.thumb || storageUrl(i.storage_key),
          width: i.width,
          height: i.height,
        })),
      ...(r.location && { location: JSON.parse(r.location) as MomentPost['location'] }),
      visibility: r.visibility,
      create_time: r.create_time,
      likes: seenLikes
        .filter((l) => l.post_id === r.id)
        .map((l) => {
          const u = this.user(viewer, users, l.user_id);
          return { user_id: u.user_id, displayName: u.displayName };
        }),
      comments: seenComments.filter((c) => c.post_id === r.id).map((c) => this.presentComment(viewer, users, c)),
      ...(waiting.has(r.id) && { held: 1 as const }),
    }));
  }

  private presentComment(viewer: Viewer, users: Map<number, UserRow>, c: CommentRow): MomentComment {
    return {
      id: c.id,
      user: this.user(viewer, users, c.user_id),
      ...(c.reply_to_user ? { reply_to: this.user(viewer, users, c.reply_to_user) } : {}),
      content: c.content,
      create_time: c.create_time,
    };
  }

  private async presentOne(userId: number, post: PostRow): Promise<MomentPost> {
    return (await this.present(await this.viewer(userId), [post]))[0]!;
  }

  /** The feed, or with `user_id` that person's album; paged by `last_id`. */
  async list(session: Session, body: RouteInput<'momentsList'>): Promise<MomentPost[]> {
    const me = session.userId;
    const page = { beforeId: body.last_id, limit: MOMENT_PAGE, now: this.ctx.now() };
    const rows =
      body.user_id === undefined ? await this.moments.feed(me, page) : await this.moments.album(me, body.user_id, page);
    if (body.user_id === undefined && body.last_id === 0 && rows[0]) {
      const seen = (await this.moments.settings(me))?.seen_post_id ?? 0;
      if (rows[0].id > seen) await this.moments.saveSettings(me, { seen_post_id: rows[0].id });
    }
    return this.present(await this.viewer(me), rows);
  }

  /**
   * Friends of the author who may see a post (Access.seesMoment, in bulk): its visibility admits
   * them, the author's hide list does not name them, it is within the author's range, and neither
   * blocked the other.
   */
  private async viewers(post: PostRow, now: number): Promise<number[]> {
    if (admitsNoFriend(post.visibility)) return [];
    const [friends, hideFrom, targets, settings, blocked] = await Promise.all([
      this.ctx.repos.friends.friendIds(post.user_id),
      this.moments.hides(post.user_id, Hide.From),
      this.moments.targetIds(post.id),
      this.moments.settings(post.user_id),
      this.ctx.access.blockedAround(post.user_id),
    ]);
    const range = settings?.range_days ?? 0;
    if (range > 0 && post.create_time < now - range * 86_400_000) return [];
    const out = new Set([...hideFrom, ...blocked]);
    const named = new Set(targets);
    return friends.filter((id) => !out.has(id) && admitsFriend(post.visibility, named.has(id)));
  }

  /** Those whose feed shows a new post: its viewers, but for those who skip the author's posts. */
  private async audience(post: PostRow): Promise<number[]> {
    const [viewers, hiding] = await Promise.all([
      this.viewers(post, post.create_time),
      this.moments.hiding(post.user_id),
    ]);
    const skip = new Set(hiding);
    return viewers.filter((id) => !skip.has(id));
  }

  /** A new post; publishing the same client `id` again answers the post already made. */
  async publish(session: Session, body: RouteInput<'momentsPublish'>): Promise<MomentPost> {
    const me = session.userId;
    const existing = await this.moments.byClientId(me, body.id);
    if (existing) return this.presentOne(me, existing);
    requireUnmuted(session.user, this.ctx.now());
    const fileIds = [...new Set(body.file_ids)];
    if (!body.content && fileIds.length === 0) throw new AppError('MomentEmpty', {}, { fields: ['content'] });
    for (const id of fileIds) {
      const { file } = await this.ctx.access.ownFile(me, id);
      if (cateOf(file.ext) !== 2) throw new AppError('MomentNotImage', {}, { fields: ['file_ids'] });
    }
    const named = readsNamed(body.visibility) ? [...new Set(body.user_ids)].filter((id) => id !== me) : [];
    // A post a review list holds is kept as only its author's until an operator approves it.
    const screened = this.ctx.keywords.content(body.content);
    let post: PostRow;
    try {
      post = await this.moments.insert(
        {
          user_id: me,
          client_id: body.id,
          content: screened.text,
          location: body.location ? JSON.stringify(body.location) : '',
          visibility: screened.held ? MomentVisibility.Private : body.visibility,
          create_time: this.ctx.now(),
        },
        fileIds,
        named,
      );
    } catch (err) {
      // The same client id published twice at once: the other request stored it.
      const raced = await this.moments.byClientId(me, body.id);
      if (!raced) throw err;
      return this.presentOne(me, raced);
    }
    if (screened.held) {
      await this.ctx.repos.keywords.hold({
        kind: 'moment',
        user_id: me,
        client_id: String(post.id),
        chat_type: 0,
        to_id: 0,
        body: JSON.stringify({ content: screened.text, visibility: body.visibility }),
        words: JSON.stringify(screened.held),
        create_time: this.ctx.now(),
      });
      return this.presentOne(me, post);
    }
    const audience = await this.audience(post);
    if (audience.length)
      await this.ctx.realtime.publish(audience, {
        type: 'moments',
        data: { type: 'post', post_id: post.id, user_id: me },
      });
    return this.presentOne(me, post);
  }

  /** New friends: each one's feed gets the other's posts it may show (friends.onBefriended). */
  befriended(a: number, b: number): Promise<void> {
    return this.moments.befriended(a, b);
  }

  /** No longer friends: each one's feed loses the other's posts (friends.onUnfriended). */
  unfriended(a: number, b: number): Promise<void> {
    return this.moments.unfriended(a, b);
  }

  /**
   * Deletes my own post; its images stop being served when nothing else uses them. Those who could
   * see it (album pages included, so also friends who skip my posts in their feed) and my other
   * devices are told, so an open feed drops it; `exceptClientId` is the caller's own socket.
   */
  async remove(session: Session, id: number, exceptClientId?: string): Promise<void> {
    const post = await this.moments.byId(id);
    if (!post || post.user_id !== session.userId) throw new AppError('MomentNotFound');
    // Asked before the delete: it takes the post's named people with it.
    const viewers = await this.viewers(post, this.ctx.now());
    const fileIds = await this.moments.remove(post.id, post.user_id);
    for (const fileId of fileIds) await this.files.release(fileId);
    await this.ctx.realtime.publish(
      [post.user_id, ...viewers],
      { type: 'moments', data: { type: 'delete', post_id: post.id, user_id: post.user_id } },
      exceptClientId,
    );
  }

  /**
   * Takes a post down for everyone (an administrator's action on a report), as its author's delete
   * does; false when it is gone already.
   */
  async takeDown(id: number): Promise<boolean> {
    const post = await this.moments.byId(id);
    if (!post) return false;
    const viewers = await this.viewers(post, this.ctx.now());
    const fileIds = await this.moments.remove(post.id, post.user_id);
    for (const fileId of fileIds) await this.files.release(fileId);
    await this.ctx.realtime.publish([post.user_id, ...viewers], {
      type: 'moments',
      data: { type: 'delete', post_id: post.id, user_id: post.user_id },
    });
    return true;
  }

  async like(session: Session, id: number): Promise<MomentPost> {
    const me = session.userId;
    const now = this.ctx.now();
    const post = await this.ctx.access.moment(me, id, now);
    if ((await this.reactions.like(post.id, me, now)) && post.user_id !== me) {
      await this.reactions.notify({
        user_id: post.user_id,
        actor_id: me,
        post_id: post.id,
        kind: NoticeKind.Like,
        comment_id: 0,
        create_time: now,
      });
      await this.ctx.realtime.publish([post.user_id], {
        type: 'moments',
        data: { type: 'like', post_id: post.id, user_id: me },
      });
    }
    return this.presentOne(me, post);
  }

  async unlike(session: Session, id: number): Promise<MomentPost> {
    const post = await this.ctx.access.moment(session.userId, id, this.ctx.now());
    await this.reactions.unlike(post.id, session.userId);
    return this.presentOne(session.userId, post);
  }

  /** A comment on a post I may see, or a reply to a comment on it that I may see. */
  async comment(session: Session, body: RouteInput<'momentsComment'>): Promise<MomentComment> {
    const me = session.userId;
    const now = this.ctx.now();
    requireUnmuted(session.user, now);
    const post = await this.ctx.access.moment(me, body.id, now);
    const viewer = await this.viewer(me);
    let replyTo = 0;
    if (body.reply_to !== undefined) {
      const target = await this.reactions.comment(body.reply_to);
      if (!target || target.post_id !== post.id || !this.shows(viewer, target.user_id, post.user_id))
        throw new AppError('MomentCommentNotFound', {}, { fields: ['reply_to'] });
      if (target.user_id !== me) replyTo = target.user_id;
    }
    const users = await this.ctx.repos.users.byIds([me, replyTo]);
    const screened = this.ctx.keywords.content(body.content);
    if (screened.held) {
      // Held for review: not stored until approved; its author is answered the comment marked as held.
      // Its id is made of what was asked, so that a retry finds the item held first.
      const asked = JSON.stringify([me, post.id, body.reply_to ?? 0, body.content]);
      const held = await this.ctx.repos.keywords.hold({
        kind: 'comment',
        user_id: me,
        client_id: `${post.id}:${createHash('sha256').update(asked).digest('hex').slice(0, 40)}`,
        chat_type: 0,
        to_id: post.id,
        body: JSON.stringify({ post_id: post.id, reply_to_user: replyTo, content: screened.text }),
        words: JSON.stringify(screened.held),
        create_time: now,
      });
      if (held.status === HeldStatus.Rejected) throw new AppError('KeywordRefused');
      const shown = { id: 0, post_id: post.id, user_id: me, reply_to_user: replyTo, content: screened.text };
      return { ...this.presentComment(viewer, users, { ...shown, create_time: held.create_time }), held: 1 };
    }
    const row = await this.addComment(post, me, replyTo, screened.text, now);
    return this.presentComment(viewer, users, row);
  }

  /** Stores a comment and tells the post's author and the person it answers. */
  private async addComment(post: PostRow, me: number, replyTo: number, content: string, now: number) {
    const row = await this.reactions.addComment({
      post_id: post.id,
      user_id: me,
      reply_to_user: replyTo,
      content,
      create_time: now,
    });
    const told = new Set<number>();
    if (post.user_id !== me) told.add(post.user_id);
    if (replyTo && (await this.ctx.access.seesMoment(replyTo, post, now))) told.add(replyTo);
    for (const userId of told)
      await this.reactions.notify({
        user_id: userId,
        actor_id: me,
        post_id: post.id,
        kind: NoticeKind.Comment,
        comment_id: row.id,
        create_time: now,
      });
    if (told.size)
      await this.ctx.realtime.publish([...told], {
        type: 'moments',
        data: { type: 'comment', post_id: post.id, user_id: me },
      });
    return row;
  }

  /**
   * A held post an operator approved (modules/keywords/review.ts): it takes the visibility its
   * author chose and reaches its audience as at publish. False when it is gone.
   */
  async releasePost(postId: number, visibility: number): Promise<boolean> {
    const held = await this.moments.byId(postId);
    if (!held) return false;
    const post = await this.moments.reveal(held, visibility);
    const audience = await this.audience(post);
    if (audience.length)
      await this.ctx.realtime.publish(audience, {
        type: 'moments',
        data: { type: 'post', post_id: post.id, user_id: post.user_id },
      });
    return true;
  }

  /** A held comment an operator approved: stored as if sent now, when its author may still see the post. */
  async releaseComment(userId: number, held: { post_id: number; reply_to_user: number; content: string }) {
    const now = this.ctx.now();
    const post = await this.moments.byId(held.post_id);
    if (!post || !(await this.ctx.access.seesMoment(userId, post, now))) return false;
    await this.addComment(post, userId, held.reply_to_user, held.content, now);
    return true;
  }

  /**
   * Deletes my own comment, or any comment on my post. Anything else reads as a missing comment:
   * someone else's comment on someone else's post, and my own comment on a post I may no longer
   * see (an ex-friend's, one that now excludes or hides me, one beyond its author's range).
   */
  async removeComment(session: Session, id: number): Promise<void> {
    const me = session.userId;
    const row = await this.reactions.comment(id);
    const post = row && (await this.moments.byId(row.post_id));
    if (
      !row ||
      !post ||
      (row.user_id !== me && post.user_id !== me) ||
      !(await this.ctx.access.seesMoment(me, post, this.ctx.now()))
    )
      throw new AppError('MomentCommentNotFound');
    // Another call may have deleted it since it was read: that one answered, this one finds nothing.
    if (!(await this.reactions.removeComment(row.id))) throw new AppError('MomentCommentNotFound');
  }

  /** Likes and comments on my posts and replies to my comments, newest first, from my friends. */
  async notices(session: Session, page: number): Promise<MomentNotice[]> {
    const me = session.userId;
    const rows = await this.reactions.notices(me, {
      offset: (page - 1) * MOMENT_NOTICES_PAGE,
      limit: MOMENT_NOTICES_PAGE,
    });
    const viewer = await this.viewer(me);
    const now = this.ctx.now();
    const postIds = [...new Set(rows.map((r) => r.post_id))];
    const posts = new Map<number, PostRow>();
    for (const id of postIds) {
      const post = await this.moments.byId(id);
      if (post && (await this.ctx.access.seesMoment(me, post, now))) posts.set(id, post);
    }
    const [images, comments, users] = await Promise.all([
      this.moments.images([...posts.keys()]),
      this.reactions.comments([...posts.keys()]),
      this.ctx.repos.users.byIds(rows.map((r) => r.actor_id)),
    ]);
    return rows
      .filter((r) => posts.has(r.post_id) && !viewer.blocked.has(r.actor_id))
      .map((r) => {
        const post = posts.get(r.post_id)!;
        const image = images.find((i) => i.post_id === r.post_id);
        return {
          id: r.id,
          type: r.kind === NoticeKind.Like ? ('like' as const) : ('comment' as const),
          user: this.user(viewer, users, r.actor_id),
          post_id: r.post_id,
          comment_id: r.comment_id,
          content: comments.find((c) => c.id === r.comment_id)?.content ?? '',
          post_image: image ? image.thumb || storageUrl(image.storage_key) : '',
          post_text: image ? '' : post.content,
          create_time: r.create_time,
        };
      });
  }

  /** New notices since readNotices, and the newest poster I have not seen in the feed. */
  async unread(session: Session): Promise<MomentUnread> {
    const me = session.userId;
    const settings = await this.moments.settings(me);
    const [notices, blocked] = await Promise.all([
      this.reactions.notices(me, { afterId: settings?.read_notice_id ?? 0, offset: 0, limit: UNREAD_MAX }),
      this.ctx.access.blockedAround(me),
    ]);
    // Counted as `notices` shows them: none from someone either of us blocked.
    const fresh = notices.filter((r) => !blocked.has(r.actor_id));
    const newest = await this.moments.feed(me, { beforeId: 0, limit: MOMENT_PAGE, now: this.ctx.now() });
    const poster = newest.find((p) => p.user_id !== me && p.id > (settings?.seen_post_id ?? 0));
    const avatar = poster ? ((await this.ctx.repos.users.byId(poster.user_id))?.avatar ?? PICTURES.person) : '';
    return { count: fresh.length, poster: poster?.user_id ?? 0, avatar };
  }

  async readNotices(session: Session): Promise<void> {
    const [newest] = await this.reactions.notices(session.userId, { offset: 0, limit: 1 });
    if (newest) await this.moments.saveSettings(session.userId, { read_notice_id: newest.id });
  }

  private async settings(userId: number): Promise<MomentSettings> {
    const [row, hideFrom, hideThem] = await Promise.all([
      this.moments.settings(userId),
      this.moments.hides(userId, Hide.From),
      this.moments.hides(userId, Hide.Them),
    ]);
    return { hide_from: hideFrom, hide_them: hideThem, range: row?.range_days ?? 0, cover: await this.cover(row) };
  }

  /** The URL of a cover image, or '' for none. */
  private async cover(row: { cover_file_id: number } | undefined): Promise<string> {
    const file = row?.cover_file_id ? await this.ctx.repos.files.byId(row.cover_file_id) : undefined;
    return file ? storageUrl(file.storage_key) : '';
  }

  /** My cover: an image I uploaded. */
  async setCover(session: Session, fileId: number): Promise<MomentSettings> {
    const { file } = await this.ctx.access.ownFile(session.userId, fileId);
    if (cateOf(file.ext) !== 2) throw new AppError('MomentNotImage', {}, { fields: ['file_id'] });
    const old = (await this.moments.settings(session.userId))?.cover_file_id ?? 0;
    await this.moments.saveSettings(session.userId, { cover_file_id: file.id });
    if (old && old !== file.id) await this.files.release(old);
    return this.settings(session.userId);
  }

  /**
   * Replaces the settings given; answers them all. With someone else's `user_id`, reads only their
   * cover, for their album: shown to their friends unless either blocked the other, and to anyone
   * else as if they had none; their lists and range are never told.
   */
  async setting(session: Session, body: RouteInput<'momentsSetting'>): Promise<MomentSettings> {
    const me = session.userId;
    if (body.user_id !== undefined && body.user_id !== me) {
      if (body.hide_from || body.hide_them || body.range !== undefined)
        throw new AppError('Validation', {}, { fields: ['user_id'] });
      const shown =
        (await this.ctx.access.friendship(me, body.user_id)) !== undefined &&
        !(await this.ctx.access.blockedEither(me, body.user_id));
      const cover = shown ? await this.cover(await this.moments.settings(body.user_id)) : '';
      return { hide_from: [], hide_them: [], range: 0, cover };
    }
    if (body.hide_from)
      await this.moments.setHides(
        me,
        Hide.From,
        [...new Set(body.hide_from)].filter((id) => id !== me),
      );
    if (body.hide_them)
      await this.moments.setHides(
        me,
        Hide.Them,
        [...new Set(body.hide_them)].filter((id) => id !== me),
      );
    if (body.range !== undefined) await this.moments.saveSettings(me, { range_days: body.range });
    return this.settings(me);
  }
}
