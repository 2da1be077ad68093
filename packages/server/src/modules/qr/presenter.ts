import type { UserPreview } from '@sparrow/protocol';
import type { FriendRow } from '../friend';
import type { UserRow } from '../user';

/** A person as their scanned code shows them to the scanner: my remark wins over their name. */
export function toUserPreview(user: UserRow, friend: FriendRow | undefined): UserPreview {
  return {
    user_id: user.id,
    displayName: friend?.nickname || user.realname,
    avatar: user.avatar,
    motto: user.motto,
    is_friend: friend ? 1 : 0,
  };
}
