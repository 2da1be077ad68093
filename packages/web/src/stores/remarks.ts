import type { Contact } from '@sparrow/protocol';
import { contactKey } from '../lib/conversation-list';
import { useContacts } from './contacts';

/**
 * My remark for a user, or '' when I gave none: a friend's row in my list carries it as its
 * `displayName`, beside the name they chose (`realname`).
 */
export function remarkOf(rows: Readonly<Record<string, Contact>>, userId: number | string | undefined): string {
  if (typeof userId !== 'number') return '';
  const row = rows[contactKey(userId)];
  return row?.realname && row.displayName && row.displayName !== row.realname ? row.displayName : '';
}

/** My remark for one user, following my list. */
export function useRemark(userId: number | string | undefined): string {
  return useContacts((s) => remarkOf(s.rows, userId));
}

/** My remarks by user id, for a list of people (a stable function while my list is unchanged). */
export function useRemarks(): (userId: number) => string {
  const rows = useContacts((s) => s.rows);
  return (userId) => remarkOf(rows, userId);
}
