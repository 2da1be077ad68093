import * as z from 'zod';
import { FRIEND_NOTE_MAX, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, REALNAME_MAX } from '../limits';
import { personText, qrToken, rowId, userId } from './fields';

/** Paging fields (docs/protocol.md §1). */
export const paging = {
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
};

/** `/enterprise/friend/add`: ask a user to be friends, with a note. */
export const FriendAddBody = z.object({
  user_id: userId,
  /** The note shown with the request. */
  remark: personText(FRIEND_NOTE_MAX).default(''),
  /** The token of the person's scanned QR code: it must name `user_id`; '' is none. */
  token: z.union([z.literal(''), qrToken]).optional(),
});

/** `/enterprise/friend/index`: requests I received (0) or sent (1). */
export const FriendIndexBody = z.object({
  is_mine: z.coerce.number().int().min(0).max(1).default(0),
  ...paging,
});

/** `/enterprise/friend/update`: the addressee accepts (1) or refuses (0) a request. */
export const FriendUpdateBody = z.object({
  friend_id: rowId,
  status: z.coerce.number().int().min(0).max(1),
});

/** `/enterprise/friend/del`: end a friendship, both directions. */
export const FriendDelBody = z.object({ id: userId });

/** `/enterprise/friend/setNickname`: my remark name for a friend ('' clears it). */
export const FriendSetNicknameBody = z.object({
  friend_id: rowId,
  nickname: personText(REALNAME_MAX),
});

/** `/enterprise/im/getContacts`. */
export const GetContactsBody = z.object({});
