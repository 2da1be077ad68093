import type { Repos } from '../../repos';
import type { Chat } from '../access';

/** A person as a reader sees them in a chat's lists (who reacted, who voted). */
export interface NamedPerson {
  name: string;
  avatar: string;
}

/**
 * The people `ids` named as `readerId` sees them in `chat`: the reader's remark for them, else their
 * nickname in the group, else their own name; three queries however many there are.
 */
export async function peopleNamed(
  repos: Pick<Repos, 'users' | 'friends' | 'groups'>,
  readerId: number,
  chat: Chat,
  ids: number[],
): Promise<Map<number, NamedPerson>> {
  const named = new Map<number, NamedPerson>();
  if (ids.length === 0) return named;
  const users = await repos.users.byIds(ids);
  const remarks = (await repos.friends.remarks([readerId], ids)).get(readerId);
  const nicknames =
    chat.kind === 'group' ? (await repos.groups.rolesIn([chat.group.id], ids)).get(chat.group.id) : undefined;
  for (const id of ids) {
    const user = users.get(id);
    named.set(id, {
      name: remarks?.get(id) || nicknames?.get(id)?.nickname || user?.realname || '',
      avatar: user?.avatar ?? '',
    });
  }
  return named;
}
