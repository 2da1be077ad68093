import type { Contact, Message } from '@sparrow/protocol';
import { api } from '../api';
import { translate } from '../i18n';
import type { ContactKey } from '../lib/conversation-list';
import { notificationOf, notifies, type Attention, type ChatNotification } from '../lib/notification';
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
 * user is not looking at the page and the message is one that notifies.
 */
export async function notifyMessage(msg: Message, row: Contact | undefined): Promise<void> {
  const user = me();
  if (user === null || !desktopEnabled() || !notifies(msg, user, row, attention())) return;
  const preview = await notificationPreview();
  if (me() !== user) return;
  show(notificationOf(msg, user, row, preview, translate));
}

if (typeof window !== 'undefined') {
  // A chat read here or on another device takes its notification away.
  contactsStore.subscribe((s, prev) => {
    if (s.rows === prev.rows) return;
    for (const [key, note] of shown) {
      if ((prev.rows[key]?.unread ?? 0) > 0 && !((s.rows[key]?.unread ?? 0) > 0)) note.close();
    }
  });
}
