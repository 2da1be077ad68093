import {
  negotiateLocale,
  newContact,
  translate,
  type Contact,
  type FriendRequest,
  type Message,
} from '@sparrow/protocol';
import { indexLetter } from '../../lib/letter';
import { maskAccount, type UserRow } from '../user';
import type { FriendRow, RequestRow } from './repo';

/** A user as a row of my contact list: my remark wins over their name. */
export function toUserContact(user: UserRow, friend: FriendRow | undefined, online: boolean): Contact {
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
    index: indexLetter(displayName),
  });
}

const brief = (u: UserRow | undefined, id: number) => ({
  user_id: id,
  realname: u?.realname ?? '',
  displayName: u?.realname ?? '',
  avatar: u?.avatar ?? '',
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

/** The `system` pseudo-contact, which carries friend-request notices. */
export function systemContact(recipient: UserRow, pending: number, lastContent: string, at: number): Contact {
  const locale = negotiateLocale(recipient.language || undefined);
  return newContact({
    id: 'system',
    displayName: translate(locale, 'contact.system'),
    lastContent,
    lastSendTime: at,
    type: 'event',
    is_group: 2,
    unread: pending,
  });
}

/** A notice from `system` to a user, in that user's language, as a `simple` push. */
export function systemNotice(
  recipient: UserRow,
  key: 'notice.friendRequest' | 'notice.friendAccepted',
  name: string,
  extra: { friend_id: number; user_id: number; pending: number; now: number },
): Message {
  const locale = negotiateLocale(recipient.language || undefined);
  const content = translate(locale, key, { name });
  return {
    id: `friend-${extra.friend_id}-${key === 'notice.friendRequest' ? 'request' : 'accepted'}`,
    msg_id: 0,
    type: 'event',
    content,
    sendTime: extra.now,
    toContactId: recipient.id,
    is_group: 2,
    status: 'succeed',
    is_read: 0,
    at: [],
    pid: 0,
    fromUser: {
      id: 'system',
      user_id: 'system',
      realname: '',
      displayName: translate(locale, 'contact.system'),
      avatar: '',
    },
    extends: {
      event: key === 'notice.friendRequest' ? 'friendRequest' : 'friendAccepted',
      friend_id: extra.friend_id,
      user_id: extra.user_id,
    },
    contactInfo: systemContact(recipient, extra.pending, content, extra.now),
  };
}
