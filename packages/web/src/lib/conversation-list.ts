import type { Contact, ContactId, Message } from '@sparrow/protocol';

/** One string per conversation: `5` (a user), `group-3`, `-1`, `system`, `admin_notice`. */
export type ContactKey = string;

export function contactKey(id: ContactId | string | number): ContactKey {
  return String(id);
}

/** The id to send back to the server for a key: numbers stay numbers. */
export function contactIdOf(key: ContactKey): ContactId {
  if (/^-?\d+$/.test(key)) return Number(key) as ContactId;
  return key as ContactId;
}

export const SYSTEM_KEY = 'system';
export const ADMIN_NOTICE_KEY = 'admin_notice';
export const SELF_KEY = '-1';

export function isGroupKey(key: ContactKey): boolean {
  return key.startsWith('group-');
}

/** The conversation a message belongs to, seen from user `me`. */
export function conversationKeyOf(msg: Pick<Message, 'toContactId' | 'is_group' | 'fromUser'>, me: number): ContactKey {
  if (msg.fromUser.id === 'system') return SYSTEM_KEY;
  if (msg.is_group === 1) return contactKey(msg.toContactId);
  if (msg.is_group === 3 || msg.toContactId === -1) return SELF_KEY;
  return msg.fromUser.id === me ? contactKey(msg.toContactId) : contactKey(msg.fromUser.id);
}

/** Whether a message mentions me (by id, or everyone). */
export function mentionsMe(msg: Pick<Message, 'at'>, me: number): boolean {
  return msg.at.includes(me) || msg.at.includes(0);
}

/**
 * The rows the Messages tab lists: conversations that have messages, are pinned, hold a draft or a
 * message of mine on its way.
 */
export function isListed(c: Contact, draft: string | undefined, outgoing = false): boolean {
  if (c.id === ADMIN_NOTICE_KEY) return false;
  return c.lastSendTime > 0 || c.is_top === 1 || Boolean(draft) || outgoing;
}

/** docs/product.md §4 order: pinned first, then by last send time, newest first. */
export function compareConversations(a: Contact, b: Contact): number {
  return b.is_top - a.is_top || b.lastSendTime - a.lastSendTime;
}

export function conversationList(
  rows: Iterable<Contact>,
  drafts: Readonly<Record<string, string>>,
  outgoing: Readonly<Record<string, unknown>> = {},
): Contact[] {
  const out: Contact[] = [];
  for (const c of rows) {
    const key = contactKey(c.id);
    if (isListed(c, drafts[key], key in outgoing)) out.push(c);
  }
  return out.sort(compareConversations);
}

/** Whether a contact or group is found by `q` (lower case): its shown name, real name or account holds it. */
export function matchesName(c: Pick<Contact, 'displayName' | 'realname' | 'account'>, q: string): boolean {
  return [c.displayName, c.realname ?? '', c.account ?? ''].some((s) => s.toLowerCase().includes(q));
}

export type Badge = { kind: 'none' } | { kind: 'dot' } | { kind: 'count'; text: string };

export const BADGE_MAX = 99;

export function badgeText(n: number): string {
  return n > BADGE_MAX ? `${BADGE_MAX}+` : String(n);
}

/** The count a muted conversation shows before its preview ("[12]", "[99+]"), or null. */
export function mutedCount(c: Pick<Contact, 'unread' | 'is_notice'>): string | null {
  return c.is_notice === 0 && c.unread > 1 ? badgeText(c.unread) : null;
}

/** Unread messages as a number, or as a dot when the conversation is muted. */
export function badgeOf(c: Pick<Contact, 'unread' | 'is_notice'>): Badge {
  if (c.unread <= 0) return { kind: 'none' };
  if (c.is_notice === 0) return { kind: 'dot' };
  return { kind: 'count', text: badgeText(c.unread) };
}

/**
 * The number on the Messages tab: unread of conversations that are not muted. Friend requests
 * (`system`) are counted on the Contacts tab instead, and announcements have their own bar.
 */
export function totalUnread(rows: Iterable<Contact>): number {
  let n = 0;
  for (const c of rows) {
    if (c.id === SYSTEM_KEY || c.id === ADMIN_NOTICE_KEY || c.is_notice === 0) continue;
    n += Math.max(0, c.unread);
  }
  return n;
}

/** Whether muted conversations hold unread messages: the tab then shows a dot when no number. */
export function hasMutedUnread(rows: Iterable<Contact>): boolean {
  for (const c of rows) if (c.is_notice === 0 && c.unread > 0 && c.id !== ADMIN_NOTICE_KEY) return true;
  return false;
}

/**
 * The second line of a conversation row: a draft wins, then a message of mine on its way or not
 * sent, then a mention of me, then the last message.
 */
export type PreviewMarker = 'draft' | 'sending' | 'failed' | 'at' | null;
export function previewOf(
  c: Pick<Contact, 'lastContent' | 'is_at'>,
  draft: string | undefined,
  outgoing?: { state: 'sending' | 'failed'; text: string },
): { marker: PreviewMarker; text: string } {
  if (draft) return { marker: 'draft', text: draft.replace(/\s+/g, ' ') };
  if (outgoing) return { marker: outgoing.state, text: outgoing.text.replace(/\s+/g, ' ') };
  return { marker: c.is_at > 0 ? 'at' : null, text: c.lastContent };
}

/** The letters of the A–Z index; `#` last. */
export const INDEX_LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'] as const;

function letterOf(c: Contact): string {
  const l = (c.index || '#').toUpperCase();
  return /^[A-Z]$/.test(l) ? l : '#';
}

let collator: Intl.Collator | null = null;

/** Users of the contact list grouped by letter (A–Z then #), by name within each letter. */
export function groupContacts(rows: Iterable<Contact>): { letters: string[]; counts: number[]; items: Contact[] } {
  collator ??= new Intl.Collator('zh-Hans-u-co-pinyin', { sensitivity: 'base', numeric: true });
  const buckets = new Map<string, Contact[]>();
  for (const c of rows) {
    if (c.is_group !== 0) continue;
    const l = letterOf(c);
    let b = buckets.get(l);
    if (!b) buckets.set(l, (b = []));
    b.push(c);
  }
  const letters: string[] = [];
  const counts: number[] = [];
  const items: Contact[] = [];
  for (const l of INDEX_LETTERS) {
    const b = buckets.get(l);
    if (!b) continue;
    b.sort((x, y) => collator!.compare(x.displayName, y.displayName));
    letters.push(l);
    counts.push(b.length);
    items.push(...b);
  }
  return { letters, counts, items };
}

type NameKey = 'contacts.newFriends' | 'home.announcement' | 'chat.selfTitle';

/**
 * The name to show for a row: the pseudo-contacts (friend requests, announcements, my file
 * transfer) are named in the interface language, whatever language the server wrote them in.
 */
export function contactName(c: Pick<Contact, 'id' | 'displayName' | 'is_group'>, t: (key: NameKey) => string): string {
  if (c.id === SYSTEM_KEY) return t('contacts.newFriends');
  if (c.id === ADMIN_NOTICE_KEY) return t('home.announcement');
  if (c.id === -1 || c.is_group === 3) return t('chat.selfTitle');
  return c.displayName;
}
