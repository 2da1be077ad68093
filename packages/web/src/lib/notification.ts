import {
  messagePreview,
  notificationText,
  type Contact,
  type Message,
  type NotificationKey,
  type PreviewKey,
} from '@sparrow/protocol';
import { badgeText, conversationKeyOf, SELF_KEY, type ContactKey } from './conversation-list';

/**
 * What the page tells while it is open but not looked at: the unread count in its title and on its
 * icon, and a notification per chat for new messages (docs/product.md §7). The rules here are pure;
 * session/notifications.ts and app/favicon.ts act on them.
 */

/**
 * The tag of a chat's notification: a newer one replaces the one before. The service worker tags
 * its Web Push notifications the same way (sw.ts), so a push and the page never show two for a chat.
 */
export function notificationTag(chat: ContactKey): string {
  return `chat-${chat}`;
}

/**
 * The page's title with the unread count before it ("(3) 首页"), the number the Messages tab shows
 * (`totalUnread`); the title alone at 0.
 */
export function titleWithUnread(
  title: string,
  unread: number,
  word: (params: { title: string; count: string }) => string,
): string {
  return unread > 0 ? word({ title, count: badgeText(unread) }) : title;
}

/** Whether the user is looking at the page: shown, and its window focused. */
export interface Attention {
  visible: boolean;
  focused: boolean;
}

/**
 * Whether a pushed message notifies: only while the page is hidden or its window unfocused, never for
 * my own messages (sent from another device), event lines, my file transfer chat or a muted chat.
 */
export function notifies(
  msg: Pick<Message, 'fromUser' | 'type' | 'toContactId' | 'is_group'>,
  me: number,
  row: Pick<Contact, 'is_notice'> | undefined,
  attention: Attention,
): boolean {
  if (attention.visible && attention.focused) return false;
  if (msg.fromUser.id === 'system' || msg.fromUser.id === me) return false;
  if (msg.type === 'event' || row?.is_notice === 0) return false;
  return conversationKeyOf(msg, me) !== SELF_KEY;
}

/** A tab's attention as it last told it, and when (ms since the epoch). */
export interface TabState extends Attention {
  at: number;
}

/** How often a tab repeats its state to the other tabs of its user. */
export const TAB_HEARTBEAT_MS = 10_000;

/** A tab not heard from for this long is taken as gone (closed, crashed or asleep). */
export const TAB_STALE_MS = 30_000;

/**
 * Whether this tab (`self`, in `attention` now) shows a message's notification, given what the other
 * tabs of the same user last told (`others`, by tab id): none while any live tab is looked at, and
 * otherwise only the live tab with the lowest id, so that one notification shows across the tabs.
 * A tab not heard from within `TAB_STALE_MS` of `now` no longer counts.
 */
export function tabNotifies(
  self: string,
  attention: Attention,
  others: ReadonlyMap<string, TabState>,
  now: number,
): boolean {
  if (attention.visible && attention.focused) return false;
  for (const [id, tab] of others) {
    if (id === self || now - tab.at > TAB_STALE_MS) continue;
    if ((tab.visible && tab.focused) || id < self) return false;
  }
  return true;
}

/** A chat's notification: where a click leads, its tag, and what it says. */
export interface ChatNotification {
  chat: ContactKey;
  tag: string;
  title: string;
  body: string;
}

export type NotificationWordKey = PreviewKey | NotificationKey | 'call.voice' | 'call.video';

/**
 * What a message's notification says, by protocol's `notificationText` (the rule Web Push follows):
 * without `preview` only that a message came; a group's name over "sender: text"; a person's name
 * (as I named them) over the text; a call as an invitation of its kind.
 */
export function notificationOf(
  msg: Message,
  me: number,
  row: Pick<Contact, 'displayName' | 'is_group'> | undefined,
  preview: boolean,
  t: (key: NotificationWordKey, params?: Record<string, string>) => string,
): ChatNotification {
  const chat = conversationKeyOf(msg, me);
  const person = msg.fromUser.displayName || msg.fromUser.realname;
  const group = msg.is_group === 1 ? (row?.displayName ?? '') : undefined;
  const call = msg.type === 'webrtc' ? t(msg.extends.type === 1 ? 'call.video' : 'call.voice') : undefined;
  const words = notificationText(
    {
      preview,
      sender: group === undefined && row?.is_group === 0 ? row.displayName || person : person,
      group,
      text: preview && call === undefined ? messagePreview(msg, t) : '',
      call,
    },
    t,
  );
  return { chat, tag: notificationTag(chat), ...words };
}
