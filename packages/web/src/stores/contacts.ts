import { messagePreview, type AdminNotice, type Contact, type Message, type PushPayloads } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { request } from '../api';
import { translate } from '../i18n';
import {
  ADMIN_NOTICE_KEY,
  SYSTEM_KEY,
  contactKey,
  conversationKeyOf,
  mentionsMe,
  totalUnread,
  type ContactKey,
} from '../lib/conversation-list';
import { readUserItem, storage } from '../lib/storage';
import { session, sessionStore } from './session';

export interface ContactsState {
  /** Every row of getContacts by key: users, groups, `system`, `admin_notice`, `-1`. */
  rows: Record<ContactKey, Contact>;
  /** Friend requests waiting for me (the Contacts tab badge). */
  pending: number;
  /** True once getContacts answered in this session (stored rows show before that). */
  loaded: boolean;
  notice: AdminNotice | null;
  /** The announcement whose bar I closed. */
  dismissedNotice: number;
}

const me = () => sessionStore.getState().user?.user_id ?? null;

/** What is kept of the user on this device before the list is read from it: the closed announcement. */
function initial(): Pick<ContactsState, 'rows' | 'pending' | 'dismissedNotice'> {
  return { rows: {}, pending: 0, dismissedNotice: readUserItem('dismissedNotice', me())?.id ?? 0 };
}

export const contactsStore = createStore<ContactsState>()(() => ({
  ...initial(),
  loaded: false,
  notice: null,
}));

export function useContacts<T>(selector: (s: ContactsState) => T): T {
  return useStore(contactsStore, selector);
}

/** The number on the Messages tab (`totalUnread`), which the page's title and icon show too. */
export const selectUnread = (s: ContactsState): number => totalUnread(Object.values(s.rows));

/** Fields that describe the person or group, not the conversation with them. */
const IDENTITY: readonly (keyof Contact)[] = [
  'displayName',
  'avatar',
  'realname',
  'account',
  'motto',
  'friend_id',
  'dep_id',
  'dep_name',
  'index',
  'is_online',
  'notice',
  'setting',
  'owner_id',
  'member_count',
  'user_id',
  'group_id',
];

function setRows(update: (rows: Record<ContactKey, Contact>) => boolean): void {
  const rows = { ...contactsStore.getState().rows };
  if (update(rows)) contactsStore.setState({ rows });
}

/** The local store (chat/local-store.ts), loaded apart from the first screen's code. */
const local = () => import('../chat/local-store');

/** How long changes gather before they are written, so that a burst of pushes is one write. */
const SAVE_AFTER_MS = 500;
/** The rows as last written (or read) for `savedFor`, to write only those that changed. */
let saved: Record<ContactKey, Contact> = {};
let savedFor: number | null = null;
let saveTimer: ReturnType<typeof setTimeout> | null = null;

async function saveNow(): Promise<void> {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = null;
  const user = me();
  const { rows } = contactsStore.getState();
  if (user === null || user !== savedFor || rows === saved) return;
  const before = saved;
  await (await local()).saveConversationRows(user, before, rows);
  // Only once written: a failed write is made again, in full, with the next change.
  if (savedFor === user && saved === before) saved = rows;
}

function save(): void {
  saveNow().catch(() => {
    // No IndexedDB here (or it is full): the list is read from the server at every start.
  });
}

contactsStore.subscribe((s, prev) => {
  if (s.rows === prev.rows) return;
  // A row taken off the list (a chat deleted, a group left) is written at once: a reload right after it
  // must not show the row again from the store while the server's list is on its way.
  const left = Object.entries(prev.rows).some(([key, was]) => {
    const now = s.rows[key as ContactKey];
    return now === undefined || (now !== was && was.lastSendTime > 0 && !now.lastSendTime);
  });
  if (left) save();
  else saveTimer ??= setTimeout(save, SAVE_AFTER_MS);
});
if (typeof window !== 'undefined') {
  // A reload, a closed tab, an app sent to the background: the writes begun now still complete.
  window.addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') save();
  });
}

/** After the next frame is painted, or after a moment when none comes (a hidden tab). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 100);
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

/**
 * The list kept on this device for the signed-in user, shown until getContacts answers (at once
 * at a start, and without a network): the Messages tab's rows in one read and one render, then the
 * other contacts, so that thousands of them do not keep the Messages list waiting.
 */
function restore(): Promise<void> {
  // The list's home before the local store: no copy of it stays behind on a shared browser.
  storage.remove('allContacts');
  const user = me();
  savedFor = user;
  saved = {};
  if (user === null) return Promise.resolve();
  /** Adds the rows read to those shown; a row changed meanwhile (a push) stays as it is now. */
  const show = (list: Contact[]) => {
    if (me() !== user || savedFor !== user || list.length === 0) return;
    const read: Record<ContactKey, Contact> = {};
    for (const c of list) read[contactKey(c.id)] = c;
    // What is written is compared with what is stored, also when the server's list came first: a
    // row stored and no longer in it (a contact deleted) is then removed, not shown again offline.
    saved = { ...read, ...saved };
    if (contactsStore.getState().loaded) {
      saveTimer ??= setTimeout(save, SAVE_AFTER_MS);
      return;
    }
    const rows = { ...contactsStore.getState().rows };
    for (const [key, c] of Object.entries(read)) rows[key] ??= c;
    contactsStore.setState({ rows, pending: rows[SYSTEM_KEY]?.unread ?? 0 });
  };
  return local()
    .then(async ({ localStore }) => {
      show(await localStore.conversations(user, 'listed'));
      // The Messages list paints before the other contacts are read.
      await afterPaint();
      show(await localStore.conversations(user, 'others'));
    })
    .catch(() => {
      // Nothing kept here: the list comes from the server.
    });
}

let loading: Promise<void> | null = null;
let loadedAt = 0;

/**
 * Conversations whose last message was deleted for everyone during this session. getContacts
 * answers lastSendTime 0 for them, as if the chat had been removed from the list; the list keeps
 * them with the preview of the message before.
 */
const lastDeleted = new Set<ContactKey>();
/** The newest status version shown of each user (`userStatus`): an older frame arriving late is ignored. */
const statusVersions = new Map<number, number>();

export const contacts = {
  /** getContacts: the whole list with its counters; concurrent calls share one request. */
  load(): Promise<void> {
    loading ??= request('getContacts', {}, { silent: true })
      .then(({ data, count, system }) => {
        const before = contactsStore.getState().rows;
        const rows: Record<ContactKey, Contact> = {};
        for (const c of system ? [...data, system] : data) {
          const key = contactKey(c.id);
          const old = before[key];
          rows[key] =
            lastDeleted.has(key) && c.lastSendTime === 0 && old && old.lastSendTime > 0
              ? { ...c, lastSendTime: old.lastSendTime, lastContent: old.lastContent, type: old.type }
              : c;
        }
        const pending = count ?? rows[SYSTEM_KEY]?.unread ?? 0;
        loadedAt = Date.now();
        contactsStore.setState({ rows, pending, loaded: true });
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  },

  /** How long ago getContacts last answered, ms (Infinity before the first answer). */
  age(): number {
    return loadedAt ? Date.now() - loadedAt : Number.POSITIVE_INFINITY;
  },

  get(key: ContactKey): Contact | undefined {
    return contactsStore.getState().rows[key];
  },

  /**
   * A contact pushed or fetched: a new row as it is; for a row we hold, only who they are
   * changes, so that pins, mutes and unread counts survive a remark or an avatar change.
   */
  upsert(contact: Contact): void {
    setRows((rows) => {
      const key = contactKey(contact.id);
      const existing = rows[key];
      if (!existing) {
        rows[key] = contact;
        return true;
      }
      const next: Contact = { ...existing };
      for (const field of IDENTITY) {
        if (contact[field] !== undefined) (next as unknown as Record<string, unknown>)[field] = contact[field];
      }
      rows[key] = next;
      return true;
    });
  },

  patch(key: ContactKey, patch: Partial<Contact>): void {
    setRows((rows) => {
      const existing = rows[key];
      if (!existing) return false;
      rows[key] = { ...existing, ...patch };
      return true;
    });
  },

  /** A message of this conversation was deleted for everyone (see lastDeleted). */
  noteDeleted(key: ContactKey): void {
    lastDeleted.add(key);
  },

  /** I removed the conversation from my list myself. */
  forgetDeleted(key: ContactKey): void {
    lastDeleted.delete(key);
  },

  remove(key: ContactKey): void {
    setRows((rows) => {
      if (!rows[key]) return false;
      delete rows[key];
      return true;
    });
  },

  /**
   * A new message (docs/product.md §4): the conversation's preview and time move on; unread rises unless
   * it is mine or the conversation is open before my eyes; a mention of me raises is_at;
   * a conversation I did not have is added from the message's contactInfo. A group's system line
   * ("A 邀请 B 加入了群聊") is nothing to read: it counts as no unread, and leaves a muted group
   * where it was, as getContacts does.
   */
  applyMessage(msg: Message, opts: { openKey: ContactKey | null }): Contact | undefined {
    const user = me();
    if (user === null) return undefined;
    const key = conversationKeyOf(msg, user);
    lastDeleted.delete(key);
    const mine = msg.fromUser.id === user;
    const seen = mine || opts.openKey === key;
    let result: Contact | undefined;
    setRows((rows) => {
      const base = rows[key] ?? msg.contactInfo;
      if (!base) return false;
      const systemLine = msg.is_group === 1 && msg.type === 'event';
      if (systemLine && rows[key]?.is_notice === 0) {
        result = rows[key];
        return false;
      }
      const row: Contact = {
        ...base,
        lastContent: messagePreview(msg, translate),
        lastSendTime: Math.max(msg.sendTime, base.lastSendTime),
        type: msg.type,
        // A pushed contactInfo of a private chat already counts this message; a group's does not.
        unread: seen ? 0 : systemLine ? base.unread : rows[key] ? base.unread + 1 : Math.max(1, base.unread),
        is_at: seen ? 0 : (rows[key] ? base.is_at : 0) + (mentionsMe(msg, user) && !mine ? 1 : 0),
      };
      if (!rows[key] && msg.is_group === 1) {
        // A pushed group row is written for every member alike; my role comes with getContacts.
        delete row.role;
      }
      rows[key] = row;
      result = row;
      return true;
    });
    return result;
  },

  /** An edited text: when it was the conversation's last message, the preview shows the new text. */
  applyEdit(key: ContactKey, edit: { sendTime: number; content: string }): void {
    const row = contactsStore.getState().rows[key];
    if (row && row.lastSendTime === edit.sendTime && row.type === 'text')
      contacts.patch(key, { lastContent: edit.content });
  },

  /** A withdrawn message: when it was the last one, the preview becomes the event line. */
  applyUndo(msg: Message): void {
    const user = me();
    if (user === null) return;
    const key = conversationKeyOf(msg, user);
    const row = contactsStore.getState().rows[key];
    if (row && row.lastSendTime === msg.sendTime) contacts.patch(key, { lastContent: msg.content, type: msg.type });
  },

  /** A friend-request notice from `system`: the badge and the `system` row follow it. */
  applySystemNotice(msg: Message): void {
    const info = msg.contactInfo;
    if (!info) return;
    contactsStore.setState({ pending: info.unread });
    setRows((rows) => {
      rows[SYSTEM_KEY] = { ...(rows[SYSTEM_KEY] ?? info), ...info };
      return true;
    });
  },

  setPending(pending: number): void {
    contactsStore.setState({ pending: Math.max(0, pending) });
    contacts.patch(SYSTEM_KEY, { unread: Math.max(0, pending) });
  },

  /** I read a conversation (here or on another device). */
  markRead(key: ContactKey): void {
    const row = contactsStore.getState().rows[key];
    if (row && (row.unread !== 0 || row.is_at !== 0)) contacts.patch(key, { unread: 0, is_at: 0 });
  },

  /**
   * Someone's status changed, or they went offline, or their 最近在线 stopped being mine to see
   * (`userStatus`, `last_seen` null: no time, and shown offline): their row shows it; my own other
   * devices keep my record's status. A status older than one already shown (`version`) is stale.
   */
  setStatus({ user_id, status, last_seen, version }: PushPayloads['userStatus']): void {
    if (version !== undefined) {
      if (version < (statusVersions.get(user_id) ?? 0)) return;
      statusVersions.set(user_id, version);
    }
    if (sessionStore.getState().user?.user_id === user_id) session.patchUser({ status });
    const key = contactKey(user_id);
    if (!contactsStore.getState().rows[key]) return;
    const seen =
      last_seen === null ? { last_seen: undefined, is_online: 0 as const } : last_seen !== undefined && { last_seen };
    contacts.patch(key, { status: status ?? undefined, ...seen });
  },

  setOnline(userId: number, isOnline: 0 | 1): void {
    const row = contactsStore.getState().rows[contactKey(userId)];
    if (row && row.is_online !== isOnline) contacts.patch(contactKey(userId), { is_online: isOnline });
  },

  async loadNotice(): Promise<void> {
    try {
      const notice = (await request('getAdminNotice', {}, { silent: true })).data;
      // Id 0: none published.
      contactsStore.setState({ notice: notice.id ? notice : null });
    } catch {
      // No bar without the announcement; it comes again with the next start or push.
    }
  },

  setNotice(notice: AdminNotice): void {
    contactsStore.setState({ notice });
    contacts.patch(ADMIN_NOTICE_KEY, { lastContent: notice.title, lastSendTime: notice.create_time });
  },

  dismissNotice(): void {
    const { notice } = contactsStore.getState();
    const user_id = me();
    if (!notice || user_id === null) return;
    contactsStore.setState({ dismissedNotice: notice.id });
    storage.set('dismissedNotice', { user_id, id: notice.id });
    contacts.markRead(ADMIN_NOTICE_KEY);
    request('setMsgIsRead', { toContactId: ADMIN_NOTICE_KEY, is_group: 2 }, { silent: true }).catch(() => {
      // Only the announcement's unread mark depends on it; the bar is closed here either way.
    });
  },

  /** Signed out, or another user signed in: their stored rows, or nothing. */
  reset(): Promise<void> {
    lastDeleted.clear();
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    contactsStore.setState({ ...initial(), loaded: false, notice: null });
    restoring = restore();
    return restoring;
  },

  /** Resolves once the rows kept on this device are shown, or are known to be none. */
  restored(): Promise<void> {
    return restoring;
  },
};

let restoring = restore();

sessionStore.subscribe((s, prev) => {
  if (s.user?.user_id !== prev.user?.user_id) void contacts.reset();
});
