import { MOMENTS_PAGE } from '@sparrow/protocol';
import { withQuery } from './paths';

/** The moments pages of the product's route table (§2 `/pages/compass/*`). */
export const momentPaths = {
  /** 朋友圈: the feed, or with `user_id` a person's album. */
  moments: MOMENTS_PAGE,
  /** 发表动态 */
  publish: '/pages/compass/publish',
  /** 朋友圈设置: whom my posts are hidden from, whose I skip, how far back friends read mine. */
  setting: '/pages/compass/setting',
  /** 消息: likes and comments on my posts and replies to my comments. */
  notices: '/pages/compass/notices',
  /** 详情: one post, with `id`. */
  post: '/pages/compass/post',
} as const;

/** A person's album: their posts I may see. */
export const albumPath = (userId: number) => withQuery(momentPaths.moments, { user_id: userId });

/** One post, as a notice opens it. */
export const postPath = (postId: number) => withQuery(momentPaths.post, { id: postId });
