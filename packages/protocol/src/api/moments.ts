import * as z from 'zod';
import { LocationExtends } from './files';
import { clientId, personText, rowId, rowIdOrZero } from './fields';

/** Longest comment, in characters (docs/protocol.md §3 `/enterprise/moments/*`). */
export const MOMENT_COMMENT_MAX = 500;
/** Longest post text, in characters. */
export const MOMENT_TEXT_MAX = 2000;
/** Most images on one post. */
export const MOMENT_IMAGES_MAX = 9;
/** Most people a post's "only these" / "all but these" list or a hide list may name. */
export const MOMENT_USERS_MAX = 500;
/** Posts on one page of the feed or an album. */
export const MOMENT_PAGE = 10;
/** Notices on one page of `notices`. */
export const MOMENT_NOTICES_PAGE = 20;

/** Who may see a post: 1 all friends, 2 only me, 3 only these, 4 all friends but these. */
export const MomentVisibility = { Friends: 1, Private: 2, Only: 3, Except: 4 } as const;

const id = rowId;
const userIds = z.array(id).max(MOMENT_USERS_MAX);

/** `/enterprise/moments/list`: the feed, or with `user_id` that person's album; paged by `last_id`. */
export const MomentListBody = z.object({
  page: z.coerce.number().int().min(1).default(1),
  last_id: rowIdOrZero.default(0),
  user_id: id.optional(),
});

/** `/enterprise/moments/publish`: idempotent on the client's `id`; text or at least one image. */
export const MomentPublishBody = z.object({
  id: clientId,
  content: personText(MOMENT_TEXT_MAX).default(''),
  file_ids: z.array(id).max(MOMENT_IMAGES_MAX).default([]),
  location: LocationExtends.optional(),
  visibility: z.coerce.number().int().min(1).max(4).default(1),
  user_ids: userIds.default([]),
});

/** `del`, `like`, `unlike` of a post; `delComment` of a comment. */
export const MomentIdBody = z.object({ id });

/** `/enterprise/moments/comment`: on a post, or a reply to one of its comments (`reply_to`, a comment id). */
export const MomentCommentBody = z.object({
  id,
  content: personText(MOMENT_COMMENT_MAX, 1),
  reply_to: id.optional(),
});

/** `/enterprise/moments/notices`. */
export const MomentNoticesBody = z.object({ page: z.coerce.number().int().min(1).default(1) });

/** `/enterprise/moments/setCover`: an image I uploaded. */
export const MomentCoverBody = z.object({ file_id: id });

/**
 * `/enterprise/moments/setting`: each field given replaces that setting; none given reads them.
 * With someone else's `user_id` it only reads their cover, for their album.
 */
export const MomentSettingBody = z.object({
  hide_from: userIds.optional(),
  hide_them: userIds.optional(),
  range: z.union([z.literal(0), z.literal(3), z.literal(30), z.literal(180)]).optional(),
  user_id: id.optional(),
});

/** Someone as a viewer sees them on a post: their name as the viewer calls them. */
export interface MomentUser {
  user_id: number;
  displayName: string;
  avatar: string;
}

export interface MomentImage {
  file_id: number;
  src: string;
  thumb: string;
  width: number;
  height: number;
}

export interface MomentComment {
  id: number;
  user: MomentUser;
  /** The person this comment answers. */
  reply_to?: MomentUser;
  content: string;
  create_time: number;
  /** 1 on its author's answer when a review list (敏感词) held it: stored only once approved. */
  held?: 1;
}

export interface MomentPost {
  id: number;
  /** The author's own id of the post (publish's `id`). */
  client_id: string;
  user: MomentUser;
  content: string;
  images: MomentImage[];
  location?: z.infer<typeof LocationExtends>;
  visibility: number;
  /** Milliseconds. */
  create_time: number;
  /** Only from the viewer's friends, the viewer and the author. */
  likes: Array<{ user_id: number; displayName: string }>;
  comments: MomentComment[];
  /** 1 on its author's answer when a review list (敏感词) held it: only its author sees it until approved. */
  held?: 1;
}

/** A like or a comment on my post, or a reply to my comment. */
export interface MomentNotice {
  id: number;
  type: 'like' | 'comment';
  user: MomentUser;
  post_id: number;
  comment_id: number;
  /** The comment's text (empty for a like). */
  content: string;
  /** The post's first image thumbnail, or '' when it has none. */
  post_image: string;
  /** The post's text when it has no image. */
  post_text: string;
  create_time: number;
}

export interface MomentUnread {
  /** New notices since `readNotices`. */
  count: number;
  /** The newest poster I have not yet seen in the feed, or 0. */
  poster: number;
  /** That poster's avatar, or ''. */
  avatar: string;
}

export interface MomentSettings {
  hide_from: number[];
  hide_them: number[];
  range: number;
  /** My cover image URL (with `user_id`, that person's), or ''. */
  cover: string;
}
