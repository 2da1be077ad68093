import { newContact, type Contact, type FriendRequest, PICTURES, type UserStatus } from '@sparrow/protocol';
import { indexLetter } from '../../lib/letter';
import { maskAccount, type UserRow } from '../user';
import type { FriendRow, RequestRow } from './repo';

/**
 * A user as a row of my contact list: my remark wins over their name. `department` is the name of
 * their department, given in runMode 1 where the list groups the organisation by department.
 */
export function toUserContact(
  user: UserRow,
  friend: FriendRow | undefined,
  online: boolean,
  department?: string,
  /** Their status while it lasts, and their last-seen time when the reader may see it (users/presenter.ts). */
  presence?: { status: UserStatus | null; lastSeen?: number },
): Contact {
  const displayName = friend?.nickname || user.realname;
  return newContact({
    id: user.id,
    user_id: user.id,
    displayName,
    realname: user.realname,
    avatar: user.avatar,
    account: friend ? user.account : maskAccount(user.account),
    motto: user.motto,
    ...(friend && { friend_id: friend.id }),
    is_group: 0,
    is_online: online ? 1 : 0,
    dep_id: user.dep_id,
    ...(department !== undefined && { dep_name: department }),
    ...(presence?.status && { status: presence.status }),
    ...(presence?.lastSeen !== undefined && { last_seen: presence.lastSeen }),
    index: indexLetter(displayName),
  });
}

const brief = (u: UserRow | undefined, id: number) => ({
  user_id: id,
  id,
  realname: u?.realname ?? '',
  displayName: u?.realname ?? '',
  avatar: u?.avatar ?? PICTURES.person,
});

export function toFriendRequest(row: RequestRow, users: Map<number, UserRow>): FriendRequest {
  return {
    friend_id: row.id,
    create_user_info: brief(users.get(row.create_user), row.create_user),
    user_id_info: brief(users.get(row.user_id), row.user_id),
    remark: row.remark,
    status: row.status === 0 || row.status === 1 ? row.status : 2,
    create_time: row.create_time,
  };
}
