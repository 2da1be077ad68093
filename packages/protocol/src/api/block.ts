import * as z from 'zod';
import { userId } from './fields';
import { paging } from './friend';

/**
 * `/enterprise/block/add` (加入黑名单): blocks a user. They are not told: their private messages,
 * calls and pats to me are refused as a non-friend's are (`NotFriendChat`, `NotFriends` for a call,
 * in every runMode), their friend requests are answered as sent but never reach me, their moments
 * and mine are hidden from each other, and their @ of me in a group mentions no one; group messages
 * still reach both. The friendship, if any, stays. Blocking someone blocked already answers as the
 * first time.
 */
export const BlockAddBody = z.object({
  /** The user to block (not myself; an active account). */
  user_id: userId,
});

/** `/enterprise/block/del` (移出黑名单): unblocks a user; one I have not blocked is passed over. */
export const BlockDelBody = z.object({
  /** The user to unblock. */
  user_id: userId,
});

/** `/enterprise/block/list` (通讯录黑名单): the people I blocked, the latest first. */
export const BlockListBody = z.object({ ...paging });

/** A person on my block list. */
export interface BlockedUser {
  user_id: number;
  /** Their own name. */
  realname: string;
  /** My remark for them when they are a friend, else their name. */
  displayName: string;
  avatar: string;
  /** When I blocked them, ms. */
  create_time: number;
}
