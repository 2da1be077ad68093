import type { Contact } from '@sparrow/protocol';
import { ADMIN_NOTICE_KEY, compareConversations, matchesName } from '../../lib/conversation-list';

/** Chats and contacts the quick switcher lists at once. */
export const SWITCHER_SHOWN = 8;

/**
 * The chats and contacts `q` finds, by the search page's rule (name, real name, account), in the
 * Messages tab's order (pinned, then the newest); with no words, the recent conversations.
 */
export function switcherResults(rows: Iterable<Contact>, q: string): Contact[] {
  const words = q.trim().toLowerCase();
  const found: Contact[] = [];
  for (const c of rows) {
    if (c.id === ADMIN_NOTICE_KEY) continue;
    if (words ? matchesName(c, words) : c.lastSendTime > 0 || c.is_top === 1) found.push(c);
  }
  return found.sort(compareConversations).slice(0, SWITCHER_SHOWN);
}
