import type { Contact, Message } from '@sparrow/protocol';
import { api } from '../api';
import { translate } from '../i18n';
import type { ContactKey } from '../lib/conversation-list';
import {
  notificationOf,
  notifies,
  TAB_HEARTBEAT_MS,
  tabNotifies,
  type Attention,
  type ChatNotification,
  type TabState,
} from '../lib/notification';
import { navigateTo } from '../nav/navigation';
import { chatPath } from '../nav/paths';
import { contactsStore } from '../stores/contacts';
import { sessionStore } from '../stores/session';
import { settings, settingsStore } from '../stores/settings';

/**
 * 桌面通知: while the page is open but hidden or its window unfocused, a notification per chat for
 * each new message (lib/notification.ts decides which and what it says). The server sends no Web
 * Push to a user whose socket is bound (modules/push/service.ts), so while this page is open it is
 * the only one to notify; both tag a chat's notification alike, so a newer one replaces the older.
 * The tabs of one signed-in user tell each other their attention over a BroadcastChannel, so that
 * none notifies while the user looks at another, and only one of them notifies otherwise.
 */

const ICON = `${import.meta.env.BASE_URL}pwa-192.png`;

/** Whether this browser can show notifications from a page. */
export function desktopSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** The browser's answer for this site, or `unsupported`. */
export function desktopPermission(): NotificationPermission | 'unsupported' {
  return desktopSupported() ? Notification.permission : 'unsupported';
}

/** Whether the page notifies now: the switch is on and the browser allows it. */
export function desktopEnabled(): boolean {
  return settingsStore.getState().desktopNotify && desktopPermission() === 'granted';
}

/** Turns the switch on, asking the browser's permission (only now, on the user's tap). */
export async function enableDesktop(): Promise<'denied' | 'unsupported' | null> {
  if (!desktopSupported()) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  settings.setDesktopNotify(true);
  return null;
}

export function disableDesktop(): void {
  settings.setDesktopNotify(false);
}

const me = () => sessionStore.getState().user?.user_id ?? null;

/** The preview choice (`/enterprise/push/setting`) of the signed-in user, asked once per session. */
let previewChoice: { user: number; preview: Promise<boolean> } | null = null;

/**
 * Whether my notifications show the sender and the message: the choice Web Push follows, kept on
 * the server. Until it is known, and when it cannot be asked, only that a message came is shown.
 */
export function notificationPreview(): Promise<boolean> {
  const user = me();
  if (user === null) return Promise.resolve(false);
  if (previewChoice?.user !== user) {
    const asked = api.pushKey({}, { silent: true }).then(
      (key) => key.preview === 1,
      () => {
        if (previewChoice?.preview === asked) previewChoice = null;
        return false;
      },
    );
    previewChoice = { user, preview: asked };
  }
  return previewChoice.preview;
}

/** Records a preview choice the server has saved. */
export function rememberPreview(preview: boolean): void {
  const user = me();
  if (user !== null) previewChoice = { user, preview: Promise.resolve(preview) };
}

function attention(): Attention {
  return { visible: document.visibilityState === 'visible', focused: document.hasFocus() };
}

/** This tab's id among the tabs of its user (lib/notification.ts `tabNotifies` orders by it). */
const TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** What another tab of the same user last told, by its id. */
const tabs = new Map<string, TabState>();

/** What a tab posts: its attention; `hello` when it opens (the others answer), `gone` when it goes. */
interface TabMessage extends Attention {
  tab: string;
  hello?: boolean;
  gone?: boolean;
}

/** The channel to the other tabs of the signed-in user, and how to leave it. */
let tabChannel: { user: number; leave: () => void } | null = null;

function joinTabs(user: number): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const port = new BroadcastChannel(`sparrow-tabs-${user}`);
  const tell = (flags: { hello?: boolean; gone?: boolean } = {}) =>
    port.postMessage({ tab: TAB, ...attention(), ...flags } satisfies TabMessage);
  port.onmessage = (e: MessageEvent<Partial<TabMessage>>) => {
    const m = e.data;
    if (typeof m?.tab !== 'string' || m.tab === TAB) return;
    if (m.gone) {
      tabs.delete(m.tab);
      return;
    }
    tabs.set(m.tab, { visible: m.visible === true, focused: m.focused === true, at: Date.now() });
    if (m.hello) tell();
  };
  const changed = () => tell();
  const hidden = () => tell({ gone: true });
  const shown = (e: PageTransitionEvent) => {
    if (e.persisted) tell({ hello: true });
  };
  document.addEventListener('visibilitychange', changed);
  window.addEventListener('focus', changed);
  window.addEventListener('blur', changed);
  window.addEventListener('pagehide', hidden);
  window.addEventListener('pageshow', shown);
  const heartbeat = setInterval(changed, TAB_HEARTBEAT_MS);
  tell({ hello: true });
  tabChannel = {
    user,
    leave: () => {
      tell({ gone: true });
      clearInterval(heartbeat);
      document.removeEventListener('visibilitychange', changed);
      window.removeEventListener('focus', changed);
      window.removeEventListener('blur', changed);
      window.removeEventListener('pagehide', hidden);
      window.removeEventListener('pageshow', shown);
      port.close();
      tabs.clear();
    },
  };
}

/** Keeps this tab on the channel of the signed-in user: joined on sign-in, left on sign-out. */
function followUser(user: number | null): void {
  if (tabChannel?.user === user) return;
  tabChannel?.leave();
  tabChannel = null;
  if (user !== null) joinTabs(user);
}

/** The notification shown for each chat, closed once the chat is read. */
const shown = new Map<ContactKey, Notification>();

function show(n: ChatNotification): void {
  const options: NotificationOptions = { body: n.body, tag: n.tag, icon: ICON, data: { chat: n.chat } };
  let note: Notification;
  try {
    note = new Notification(n.title, options);
  } catch {
    // Where a page may not construct one (Chrome on Android), the service worker shows it and opens its chat.
    void navigator.serviceWorker
      ?.getRegistration()
      .then((reg) => reg?.showNotification(n.title, options))
      .catch(() => undefined);
    return;
  }
  shown.set(n.chat, note);
  note.onclick = () => {
    window.focus();
    note.close();
    navigateTo(chatPath(n.chat));
  };
  note.onclose = () => {
    if (shown.get(n.chat) === note) shown.delete(n.chat);
  };
}

/**
 * A message pushed to this page, after the conversation list took it (`row`): notifies when the
 * user is not looking at this page nor at another tab of theirs, the message is one that notifies,
 * and this is the one tab of theirs to show it.
 */
export async function notifyMessage(msg: Message, row: Contact | undefined): Promise<void> {
  const user = me();
  if (user === null || !desktopEnabled() || !notifies(msg, user, row, attention())) return;
  if (!tabNotifies(TAB, attention(), tabs, Date.now())) return;
  const preview = await notificationPreview();
  if (me() !== user) return;
  show(notificationOf(msg, user, row, preview, translate));
}

if (typeof window !== 'undefined') {
  followUser(me());
  sessionStore.subscribe((s) => followUser(s.user?.user_id ?? null));
  // A chat read here or on another device takes its notification away.
  contactsStore.subscribe((s, prev) => {
    if (s.rows === prev.rows) return;
    for (const [key, note] of shown) {
      if ((prev.rows[key]?.unread ?? 0) > 0 && !((s.rows[key]?.unread ?? 0) > 0)) note.close();
    }
  });
}
