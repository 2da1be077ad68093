import {
  DEFAULT_APP_SETTING,
  LOCALES,
  type AppSetting,
  type GlobalConfig,
  type Locale,
  type UserInfo,
} from '@sparrow/protocol';
import { THEME_CHOICES, type ThemeChoice } from './color-theme';
import { SEND_KEYS, type SendKey } from './desk-keys';

/**
 * The items kept in localStorage (docs/product.md §3 "Locally stored items"). Strings are stored as they
 * are, objects as JSON. Items that belong to one user carry that user's id, so that another
 * account signing in on the same browser never reads them.
 */
export interface StoredItems {
  userInfo: UserInfo;
  /** `bearer <token>`, exactly as login returned it. */
  authToken: string;
  /** The socket's client_id from its `init` frame. */
  client_id: string;
  /** Per-install id, generated once. */
  cid: string;
  language: Locale;
  appSetting: AppSetting;
  /** The colour theme chosen on this device (深色模式); absent: the system's. */
  theme: ThemeChoice;
  /** Whether this browser shows a notification for new messages while the page is hidden (桌面通知). */
  desktopNotify: { on: boolean };
  /** Which key sends a message at a keyboard: Enter, or Ctrl/⌘+Enter (the other breaks the line). */
  sendKey: SendKey;
  /** The width of the conversation list in the wide layout, px, as last dragged in this browser. */
  deskList: { width: number };
  globalConfig: GlobalConfig;
  /** Unsent text per contact key (docs/product.md §3 `draft`). */
  draft: { user_id: number; drafts: Record<string, string> };
  /** The last msg_id a `sync` page returned: where the next catch-up starts. */
  syncCursor: { user_id: number; msg_id: number };
  /** Per contact key, the msg_id up to which history was cleared on this device. */
  clearedHistory: { user_id: number; upTo: Record<string, number> };
  /** The id of the announcement whose bar was closed. */
  dismissedNotice: { user_id: number; id: number };
}
export type StorageKey = keyof StoredItems;
/** Items kept once and now kept elsewhere (`allContacts`: the contact list, now in the local store), removed where found. */
export type RetiredKey = 'allContacts';

type Backend = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const stringKeys: ReadonlySet<StorageKey> = new Set(['authToken', 'client_id', 'cid', 'language', 'sendKey', 'theme']);

function isLocale(v: string): v is Locale {
  return (LOCALES as readonly string[]).includes(v);
}

function decode<K extends StorageKey>(key: K, raw: string): StoredItems[K] | null {
  if (stringKeys.has(key)) {
    if (key === 'language' && !isLocale(raw)) return null;
    if (key === 'sendKey' && !(SEND_KEYS as readonly string[]).includes(raw)) return null;
    if (key === 'theme' && !(THEME_CHOICES as readonly string[]).includes(raw)) return null;
    return raw as StoredItems[K];
  }
  const value: unknown = JSON.parse(raw);
  if (value === null || typeof value !== 'object') return null;
  if (key === 'appSetting') {
    const merged: Record<string, unknown> = { ...DEFAULT_APP_SETTING, ...value };
    const flags = Object.keys(DEFAULT_APP_SETTING);
    return flags.every((k) => typeof merged[k] === 'boolean')
      ? (Object.fromEntries(flags.map((k) => [k, merged[k]])) as StoredItems[K])
      : null;
  }
  return value as StoredItems[K];
}

/** Typed access to the stored items; a broken or unreadable item reads as absent. */
export function createStorage(backend: () => Backend | undefined) {
  return {
    get<K extends StorageKey>(key: K): StoredItems[K] | null {
      try {
        const raw = backend()?.getItem(key);
        return raw == null ? null : decode(key, raw);
      } catch {
        return null;
      }
    },
    set<K extends StorageKey>(key: K, value: StoredItems[K]): void {
      try {
        backend()?.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
      } catch {
        // Storage can be full or disabled (private mode); the app keeps working from memory.
      }
    },
    remove(key: StorageKey | RetiredKey): void {
      try {
        backend()?.removeItem(key);
      } catch {
        // Same as above: nothing to clean when storage is unavailable.
      }
    },
  };
}

export const storage = createStorage(() => (typeof localStorage === 'undefined' ? undefined : localStorage));

/** A random hex id; crypto.randomUUID is missing on plain-http origins, getRandomValues is not. */
export function randomId(bytes = 16): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The per-install id sent as the `cid` header; created on first use. */
export function installId(): string {
  const existing = storage.get('cid');
  if (existing) return existing;
  const id = randomId();
  storage.set('cid', id);
  return id;
}

/** Stored items that belong to one user. */
export type UserItemKey = {
  [K in StorageKey]: StoredItems[K] extends { user_id: number } ? K : never;
}[StorageKey];

export const USER_ITEMS: readonly UserItemKey[] = ['draft', 'syncCursor', 'clearedHistory', 'dismissedNotice'];

/** A user's stored item; null when absent or when it belongs to someone else. */
export function readUserItem<K extends UserItemKey>(key: K, userId: number | null | undefined): StoredItems[K] | null {
  if (userId == null) return null;
  const item = storage.get(key);
  return item && (item as { user_id?: unknown }).user_id === userId ? item : null;
}
