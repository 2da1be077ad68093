import { newContact, type Contact, type GroupMember } from '@sparrow/protocol';

/** A conversation-list row as getContacts answers it, with what a test sets. */
export function contactRow(id: Contact['id'], over: Partial<Contact> = {}): Contact {
  return newContact({
    id,
    displayName: String(id),
    type: 'text',
    is_group: typeof id === 'string' && id.startsWith('group-') ? 1 : 0,
    ...over,
  });
}

/** A group member as groupUserList answers it; `who.name` is their realname and displayName. */
export function groupMember(
  user_id: number,
  role: 1 | 2 | 3,
  extra: Partial<GroupMember> = {},
  who: { name?: string; account?: string } = {},
): GroupMember {
  const { name = `u${user_id}`, account = `a${user_id}` } = who;
  return {
    user_id,
    role,
    nickname: '',
    no_speak_until: 0,
    no_speak_time: 0,
    join_time: user_id,
    profile: 1,
    userInfo: { user_id, id: user_id, realname: name, displayName: name, avatar: '', account },
    ...extra,
  };
}
