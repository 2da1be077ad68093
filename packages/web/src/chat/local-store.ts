import { foldForSearch, searchWords, type Contact, type Message } from '@sparrow/protocol';
import { deleteDB, openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { contactKey, conversationKeyOf, isListed, type ContactKey } from '../lib/conversation-list';
import type { OutboxRecord, OutboxStore } from './outbox';

/** The newest messages kept of each conversation. */
export const MESSAGES_PER_CHAT = 200;
/** Conversations whose messages are kept: those opened last, then those written to last. */
export const CHATS_KEPT = 50;
/** Messages a local search answers at most, newest first. */
export const LOCAL_HITS_MAX = 200;
/** The database every account of this browser shares; each row carries its user's id. */
export const LOCAL_DB = 'sparrow';
/** Where messages on their way were kept before they joined this database. */
export const LEGACY_OUTBOX_DB = 'sparrow-outbox';
/** How long opening the database may take: a tab holding an older version open blocks it, perhaps for good. */
export const OPEN_TIMEOUT_MS = 5_000;

interface ConversationRecord {
  user_id: number;
  key: ContactKey;
  /** 1 for a row the Messages tab lists (isListed, drafts aside), read before the others at a start. */
  listed: 0 | 1;
  row: Contact;
}

interface MessageRecord {
  user_id: number;
  chat: ContactKey;
  msg_id: number;
  message: Message;
}

/**
 * When a conversation was last opened and written to (the least recent beyond CHATS_KEPT lose their
 * messages), and where its unbroken stretch of messages up to the newest begins.
 */
interface ChatRecord {
  user_id: number;
  key: ContactKey;
  /** When it was last opened; 0 when never. */
  opened: number;
  written: number;
  /**
   * The lowest msg_id of the stretch known to hold every message up to the newest: set by the
   * newest page, lowered only by older pages joined to it, raised by trimming. `page()` never reads
   * below it; absent, nothing stored is known to be whole and nothing is shown.
   */
  from?: number;
}

interface LocalSchema extends DBSchema {
  conversations: {
    key: [number, ContactKey];
    value: ConversationRecord;
    indexes: { listed: [number, number, ContactKey] };
  };
  messages: { key: [number, ContactKey, number]; value: MessageRecord };
  chats: { key: [number, ContactKey]; value: ChatRecord };
  outbox: { key: [number, string]; value: OutboxRecord; indexes: { user: number } };
  /** `legacyOutbox`: the ids (`user_id:id`) already copied from the old outbox database. */
  meta: { key: string; value: { key: string; ids: string[] } };
}

type Names = 'conversations' | 'messages' | 'chats' | 'outbox' | 'meta';
type Tx = IDBPTransaction<LocalSchema, Names[], 'readwrite'>;

/**
 * A page getMessageList answered: the newest (`last_id` absent) or the one before `last_id`;
 * `full`: as long as asked for, so older messages may exist.
 */
export interface SavedPage {
  key: ContactKey;
  full: boolean;
  last_id?: number;
}

/** Which page of a conversation to read (chat/engine.ts PageQuery); at most one of the ids. */
export interface StoredPageQuery {
  limit: number;
  last_id?: number;
  after_id?: number;
  around_id?: number;
}

/** Every key of one user in a store keyed `[user_id, …]`. */
const ofUser = (userId: number) => IDBKeyRange.bound([userId], [userId, []]);
/** Every message of one conversation, by msg_id. */
const ofChat = (userId: number, key: ContactKey) => IDBKeyRange.bound([userId, key, 0], [userId, key, Infinity]);

/** Conversation rows written or read in one request: thousands at once would be one long task. */
const ROWS_BATCH = 500;

/** Whether two rows say the same, so that getContacts answering them again unchanged writes nothing. */
function sameRow(a: Contact, b: Contact): boolean {
  const keys = Object.keys(a) as (keyof Contact)[];
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    return x === y || (typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y));
  });
}

/**
 * Writes the conversation list of a user as it is now (`rows`), given what was written before
 * (`before`): the rows that changed, in batches, and the removal of those gone.
 */
export async function saveConversationRows(
  userId: number,
  before: Readonly<Record<ContactKey, Contact>>,
  rows: Readonly<Record<ContactKey, Contact>>,
  store: LocalStore = localStore,
): Promise<void> {
  const changed = Object.entries(rows)
    .filter(([key, row]) => {
      const old = before[key];
      return old !== row && !(old && sameRow(old, row));
    })
    .map(([, row]) => row);
  const gone = Object.keys(before).filter((key) => !(key in rows));
  if (changed.length === 0 && gone.length === 0) return;
  // Each batch is a write of its own, refused once the user is signed out: none re-adds their rows.
  for (let i = 0; i < changed.length || i === 0; i += ROWS_BATCH)
    await store.saveConversations(userId, changed.slice(i, i + ROWS_BATCH), i === 0 ? gone : []);
}

/** The words a message is found by: protocol's rule, as the server indexes them. */
export function searchableText(m: Message): string {
  return searchWords(m.type, m.content, m.extends as Record<string, unknown>);
}

/**
 * Whether every word of a search occurs in `text`: inside words (Chinese has no spaces between
 * them), Latin letters in either case, as the server's search matches.
 */
export function matchesWords(text: string, words: string): boolean {
  const parts = foldForSearch(words).split(/\s+/u).filter(Boolean);
  if (parts.length === 0) return false;
  const lower = foldForSearch(text);
  return parts.every((w) => lower.includes(w));
}

/**
 * What this browser keeps of the signed-in user for a start without a network (IndexedDB through
 * `idb`, one database for every account, the user's id first in every key): the conversation list,
 * the newest MESSAGES_PER_CHAT messages of the CHATS_KEPT conversations opened or written to last,
 * and the outbox of messages on their way.
 */
export interface LocalStore {
  /**
   * The stored contact list in one read: every row, or the part the Messages tab lists (`listed`)
   * or the rest (`others`), so that the Messages list is read first and alone.
   */
  conversations(userId: number, part?: 'listed' | 'others'): Promise<Contact[]>;
  /** Writes the rows that changed and removes those gone, with their messages. */
  saveConversations(userId: number, changed: readonly Contact[], gone: readonly ContactKey[]): Promise<void>;
  /**
   * Messages as they arrive (pages, pushes, sync pages, my sends stored); each conversation keeps
   * its newest. `newestPage`: the newest page of one conversation, which replaces older messages
   * not joined to it (the store keeps one unbroken stretch up to the newest).
   */
  saveMessages(userId: number, messages: readonly Message[], page?: SavedPage): Promise<void>;
  /** A page of a conversation from what is stored, as getMessageList answers it (oldest first). */
  page(userId: number, key: ContactKey, query: StoredPageQuery): Promise<Message[]>;
  /** Changes a stored message (an edit, a reaction, a withdrawal); nothing when it is not stored. */
  change(userId: number, key: ContactKey, msgId: number, update: (m: Message) => Message): Promise<void>;
  /** A message deleted for everyone. */
  remove(userId: number, key: ContactKey, msgId: number): Promise<void>;
  /** Forgets a conversation's messages up to a msg_id (its history cleared; Infinity: all). */
  dropUpTo(userId: number, key: ContactKey, upTo: number): Promise<void>;
  /** A conversation opened: its messages are among the last to go. */
  touch(userId: number, key: ContactKey): Promise<void>;
  /**
   * Forgets every stored message of a user (the list stays): without a catch-up cursor nothing
   * tells what was missed since they were written.
   */
  dropMessages(userId: number): Promise<void>;
  /** Stored messages whose words match, newest first. */
  search(userId: number, words: string): Promise<Message[]>;
  /** The device's outbox, in the same database. */
  outbox: OutboxStore;
  /**
   * Forgets everything of a user (signed out; `keepOutbox`: their messages on their way wait for
   * them), and refuses their writes from then on, in every tab of this browser, until `resume`.
   */
  clear(userId: number, options?: { keepOutbox?: boolean }): Promise<void>;
  /** The user signed in (again) in this tab: their writes are taken again. */
  resume(userId: number): void;
  /** Forgets the conversations and messages of every user but this one (another account signed in). */
  keepOnly(userId: number): Promise<void>;
  close(): Promise<void>;
}

async function deleteRange(tx: Tx, name: 'conversations' | 'messages' | 'chats', range: IDBKeyRange): Promise<void> {
  await tx.objectStore(name).delete(range);
}

/** Drops the oldest messages of a conversation beyond MESSAGES_PER_CHAT. */
async function trimChat(tx: Tx, userId: number, key: ContactKey): Promise<void> {
  const store = tx.objectStore('messages');
  const extra = (await store.count(ofChat(userId, key))) - MESSAGES_PER_CHAT;
  if (extra <= 0) return;
  const oldest = await store.getAllKeys(ofChat(userId, key), extra + 1);
  const last = oldest[extra - 1];
  if (last) await store.delete(IDBKeyRange.bound([userId, key, 0], last));
  const first = oldest[extra]?.[2];
  const chat = await tx.objectStore('chats').get([userId, key]);
  if (chat?.from !== undefined && first !== undefined && chat.from < first)
    await tx.objectStore('chats').put({ ...chat, from: first });
}

/** Drops the messages of the conversations beyond CHATS_KEPT: never opened or opened longest ago, written to longest ago. */
async function trimChats(tx: Tx, userId: number): Promise<void> {
  const chats = tx.objectStore('chats');
  if ((await chats.count(ofUser(userId))) <= CHATS_KEPT) return;
  const all = await chats.getAll(ofUser(userId));
  all.sort((a, b) => b.opened - a.opened || b.written - a.written);
  for (const c of all.slice(CHATS_KEPT)) {
    await chats.delete([userId, c.key]);
    await deleteRange(tx, 'messages', ofChat(userId, c.key));
  }
}

/** A promise that fails after `ms`, and what to do with its value when it comes too late. */
function withTimeout<T>(promise: Promise<T>, ms: number, late: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error('IndexedDB open timed out'));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (done) late(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });
}

/**
 * The old outbox database if it exists, never creating it: a tab still running the client of
 * before would find an empty one and lose what it queues.
 */
async function openLegacy(name: string): Promise<IDBPDatabase | null> {
  if (typeof indexedDB.databases === 'function') {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    return withTimeout(openDB(name), OPEN_TIMEOUT_MS, (db) => db.close());
  }
  // No list of databases here: an upgrade from version 0 means it did not exist, and is undone.
  const opened = openDB(name, 1, {
    upgrade(_db, oldVersion, _newVersion, tx) {
      if (oldVersion !== 0) return;
      tx.done.catch(() => undefined);
      tx.abort();
    },
  });
  return withTimeout(opened, OPEN_TIMEOUT_MS, (db) => db.close()).catch((error: unknown) => {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  });
}

/** Puts the old outbox's records here, each once: one sent since (and so removed here) does not come back. */
async function copyLegacy(db: IDBPDatabase<LocalSchema>, records: readonly OutboxRecord[]): Promise<void> {
  const tx = db.transaction(['outbox', 'meta'], 'readwrite');
  const copied = new Set((await tx.objectStore('meta').get('legacyOutbox'))?.ids);
  const fresh = records.filter((r) => !copied.has(`${r.user_id}:${r.id}`));
  for (const r of fresh) copied.add(`${r.user_id}:${r.id}`);
  await Promise.all([
    ...fresh.map((r) => tx.objectStore('outbox').put(r)),
    tx.objectStore('meta').put({ key: 'legacyOutbox', ids: [...copied] }),
    tx.done,
  ]);
}

/**
 * Copies the messages of the old outbox database here, then retires it: an upgrade of it, which
 * waits until every tab still running the client of before has closed it (they may queue messages
 * there until then), copies what it holds last and lets it be deleted.
 */
async function moveLegacyOutbox(db: IDBPDatabase<LocalSchema>, legacyName: string): Promise<void> {
  const legacy = await openLegacy(legacyName);
  if (!legacy) return;
  const version = legacy.version;
  let records: OutboxRecord[] = [];
  try {
    if (legacy.objectStoreNames.contains('messages')) records = (await legacy.getAll('messages')) as OutboxRecord[];
  } finally {
    legacy.close();
  }
  await copyLegacy(db, records);
  let last: Promise<OutboxRecord[]> = Promise.resolve([]);
  // Not waited for: it completes once the old tabs are closed.
  openDB(legacyName, version + 1, {
    upgrade(old, _from, _to, tx) {
      if (old.objectStoreNames.contains('messages'))
        last = tx.objectStore('messages' as never).getAll() as Promise<OutboxRecord[]>;
    },
  })
    .then(async (retired) => {
      retired.close();
      await copyLegacy(db, await last);
      await deleteDB(legacyName);
    })
    .catch(() => {
      // Copied again at the next start, while it exists.
    });
}

/** Keys of the messages read by search in one request: thousands at once would be one long task. */
const SEARCH_BATCH = 500;

/**
 * The local store in IndexedDB. Requests are made in the order called, and IndexedDB runs
 * read-write transactions over the same stores in the order they were made: a removal never
 * overtakes the write it follows.
 */
export function idbLocalStore(
  name = LOCAL_DB,
  legacyName = LEGACY_OUTBOX_DB,
  openTimeoutMs = OPEN_TIMEOUT_MS,
): LocalStore {
  let clock = 0;
  /** The clock, never the same twice: of two conversations written in one millisecond, the later stays. */
  const tick = () => (clock = Math.max(clock + 1, Date.now()));
  /** Users signed out here or in another tab: a write of theirs still on its way is dropped. */
  const cleared = new Set<number>();
  const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`${name}-cleared`);
  if (tabs) {
    tabs.onmessage = (e: MessageEvent<{ cleared?: unknown }>) => {
      if (typeof e.data?.cleared === 'number') cleared.add(e.data.cleared);
    };
    // In Node (the tests) an open channel would keep the process alive.
    (tabs as { unref?: () => void }).unref?.();
  }
  let db: Promise<IDBPDatabase<LocalSchema>> | null = null;
  const open = () => {
    if (typeof indexedDB === 'undefined') return Promise.reject(new Error('no IndexedDB'));
    if (db) return db;
    const opening: Promise<IDBPDatabase<LocalSchema>> = openDB<LocalSchema>(name, 1, {
      upgrade(database) {
        database
          .createObjectStore('conversations', { keyPath: ['user_id', 'key'] })
          .createIndex('listed', ['user_id', 'listed', 'key']);
        database.createObjectStore('messages', { keyPath: ['user_id', 'chat', 'msg_id'] });
        database.createObjectStore('chats', { keyPath: ['user_id', 'key'] });
        database.createObjectStore('outbox', { keyPath: ['user_id', 'id'] }).createIndex('user', 'user_id');
        database.createObjectStore('meta', { keyPath: 'key' });
      },
      // A newer client opened in another tab waits for this one: it gives way, and opens again when next used.
      blocking() {
        void opening.then((d) => d.close());
        if (db === current) db = null;
      },
      terminated() {
        if (db === current) db = null;
      },
    });
    const current: Promise<IDBPDatabase<LocalSchema>> = withTimeout(opening, openTimeoutMs, (d) => d.close())
      .then(async (opened) => {
        // An old outbox that cannot be read stays for the next start; the store works meanwhile.
        await moveLegacyOutbox(opened, legacyName).catch(() => undefined);
        return opened;
      })
      .catch((error: unknown) => {
        if (db === current) db = null;
        throw error;
      });
    db = current;
    return current;
  };
  const write = async (userId: number, stores: Names[], work: (tx: Tx) => Promise<unknown> | void): Promise<void> => {
    if (cleared.has(userId)) return;
    const database = await open();
    if (cleared.has(userId)) return;
    const tx = database.transaction(stores, 'readwrite');
    await work(tx);
    await tx.done;
  };
  /** The conversation's record, made when it has none. */
  const chatOf = async (tx: Tx, userId: number, key: ContactKey): Promise<ChatRecord> =>
    (await tx.objectStore('chats').get([userId, key])) ?? { user_id: userId, key, opened: 0, written: 0 };

  const outbox: OutboxStore = {
    async list(userId) {
      const records = await (await open()).getAllFromIndex('outbox', 'user', userId);
      return records.sort((a, b) => a.order - b.order);
    },
    put(record) {
      return write(record.user_id, ['outbox'], (tx) => tx.objectStore('outbox').put(record));
    },
    async remove(userId, id) {
      await (await open()).delete('outbox', [userId, id]);
    },
    async clear(userId) {
      await (await open()).delete('outbox', ofUser(userId));
    },
  };

  return {
    outbox,

    async conversations(userId, part) {
      const db = await open();
      if (part === undefined) return (await db.getAll('conversations', ofUser(userId))).map((r) => r.row);
      const listed = part === 'listed' ? 1 : 0;
      const all = IDBKeyRange.bound([userId, listed], [userId, listed, []]);
      if (part === 'listed') return (await db.getAllFromIndex('conversations', 'listed', all)).map((r) => r.row);
      // The other contacts, thousands maybe, in batches: each answer is read apart, none a long task.
      const rows: Contact[] = [];
      for (let range = all; ;) {
        const batch = await db.getAllFromIndex('conversations', 'listed', range, ROWS_BATCH);
        for (const r of batch) rows.push(r.row);
        const last = batch.at(-1);
        if (!last || batch.length < ROWS_BATCH) return rows;
        range = IDBKeyRange.bound([userId, listed, last.key], [userId, listed, []], true);
      }
    },

    saveConversations(userId, changed, gone) {
      return write(userId, ['conversations', 'messages', 'chats'], (tx) => {
        const store = tx.objectStore('conversations');
        return Promise.all([
          ...changed.map((row) =>
            store.put({ user_id: userId, key: contactKey(row.id), listed: isListed(row, undefined) ? 1 : 0, row }),
          ),
          // A group left, a friend deleted: their messages stay no more than their row.
          ...gone.flatMap((key) => [
            store.delete([userId, key]),
            deleteRange(tx, 'messages', ofChat(userId, key)),
            tx.objectStore('chats').delete([userId, key]),
          ]),
        ]);
      });
    },

    saveMessages(userId, messages, page) {
      if (messages.length === 0 && !page) return Promise.resolve();
      return write(userId, ['messages', 'chats'], async (tx) => {
        const store = tx.objectStore('messages');
        const byChat = new Map<ContactKey, Message[]>();
        for (const message of messages) {
          if (message.msg_id <= 0) continue;
          const chat = page?.key ?? conversationKeyOf(message, userId);
          byChat.set(chat, [...(byChat.get(chat) ?? []), message]);
        }
        if (page && !byChat.has(page.key)) byChat.set(page.key, []);
        for (const [chat, list] of byChat) {
          const record = await chatOf(tx, userId, chat);
          const ids = list.map((m) => m.msg_id);
          let { from } = record;
          if (page) {
            // The page is what the server holds from its oldest (the start of the history when not
            // full) to its newest, or to `last_id`: stored messages in that span it lacks are gone.
            const low = page.full && ids.length ? Math.min(...ids) : 0;
            const high = page.last_id === undefined ? (ids.length ? Math.max(...ids) : Infinity) : page.last_id - 1;
            // An older page counts only when it reaches the stretch kept up to the newest.
            if (page.last_id !== undefined && (from === undefined || page.last_id < from)) continue;
            const newestStored = (await store.getAllKeys(ofChat(userId, chat))).at(-1)?.[2];
            const kept = new Set(ids);
            const span = IDBKeyRange.bound([userId, chat, low], [userId, chat, high]);
            for (const key of await store.getAllKeys(span)) if (!kept.has(key[2])) await store.delete(key);
            if (page.last_id === undefined) {
              // A newest page that does not reach the stretch stored leaves a hole: what is older goes.
              if (from !== undefined && newestStored !== undefined && newestStored >= low) from = Math.min(from, low);
              else {
                if (low > 0) await store.delete(IDBKeyRange.bound([userId, chat, 0], [userId, chat, low], false, true));
                from = low;
              }
            } else {
              from = Math.min(from ?? low, low);
            }
          } else {
            // Pushes and `sync` pages come in order from the cursor: from their first, none is missed.
            from ??= Math.min(...ids);
          }
          await Promise.all(
            list.map((message) => store.put({ user_id: userId, chat, msg_id: message.msg_id, message })),
          );
          await tx.objectStore('chats').put({ ...record, written: tick(), ...(from !== undefined && { from }) });
          await trimChat(tx, userId, chat);
        }
        await trimChats(tx, userId);
      });
    },

    async page(userId, key, { limit, last_id, after_id, around_id }) {
      const tx = (await open()).transaction(['messages', 'chats']);
      const from = (await tx.objectStore('chats').get([userId, key]))?.from;
      if (from === undefined) return [];
      const store = tx.objectStore('messages');
      const between = (low: number, high: number, lowOpen = false, highOpen = false) =>
        IDBKeyRange.bound([userId, key, Math.max(low, from)], [userId, key, high], lowOpen && low >= from, highOpen);
      const all = async (range: IDBKeyRange, count?: number) =>
        (await store.getAll(range, count)).map((r) => r.message);
      if (after_id !== undefined) return all(between(after_id, Infinity, true), limit);
      if (around_id !== undefined) {
        if (around_id < from) return [];
        const older = await all(between(from, around_id, false, true));
        const newer = await all(between(around_id, Infinity), limit);
        if (newer[0]?.msg_id !== around_id) return [];
        const half = Math.floor(limit / 2);
        return [...older.slice(-half), ...newer.slice(0, limit - Math.min(half, older.length))];
      }
      const upper = last_id ?? Infinity;
      if (upper <= from) return [];
      return (await all(between(from, upper, false, true))).slice(-limit);
    },

    change(userId, key, msgId, update) {
      return write(userId, ['messages'], async (tx) => {
        const record = await tx.objectStore('messages').get([userId, key, msgId]);
        if (!record) return;
        const next = update(record.message);
        if (next !== record.message) await tx.objectStore('messages').put({ ...record, message: next });
      });
    },

    remove(userId, key, msgId) {
      return write(userId, ['messages'], (tx) => tx.objectStore('messages').delete([userId, key, msgId]));
    },

    dropUpTo(userId, key, upTo) {
      return write(userId, ['messages', 'chats'], async (tx) => {
        await deleteRange(tx, 'messages', IDBKeyRange.bound([userId, key, 0], [userId, key, upTo]));
        const chat = await tx.objectStore('chats').get([userId, key]);
        if (chat?.from === undefined) return;
        // Cleared for good: the next messages stored begin the stretch again.
        if (upTo === Infinity) delete chat.from;
        else chat.from = Math.max(chat.from, upTo + 1);
        await tx.objectStore('chats').put(chat);
      });
    },

    touch(userId, key) {
      return write(userId, ['messages', 'chats'], async (tx) => {
        await tx.objectStore('chats').put({ ...(await chatOf(tx, userId, key)), opened: tick() });
        await trimChats(tx, userId);
      });
    },

    dropMessages(userId) {
      return write(userId, ['messages', 'chats'], async (tx) => {
        await deleteRange(tx, 'messages', ofUser(userId));
        await deleteRange(tx, 'chats', ofUser(userId));
      });
    },

    async search(userId, words) {
      const database = await open();
      const hits: Message[] = [];
      // In batches, each its own request: ten thousand messages at once would be one long task.
      for (let range = ofUser(userId); ;) {
        const batch = await database.getAll('messages', range, SEARCH_BATCH);
        for (const r of batch) if (matchesWords(searchableText(r.message), words)) hits.push(r.message);
        const last = batch.at(-1);
        if (!last || batch.length < SEARCH_BATCH) break;
        range = IDBKeyRange.bound([userId, last.chat, last.msg_id], [userId, []], true);
      }
      return hits.sort((a, b) => b.msg_id - a.msg_id).slice(0, LOCAL_HITS_MAX);
    },

    async clear(userId, options = {}) {
      cleared.add(userId);
      tabs?.postMessage({ cleared: userId });
      const stores = [
        'conversations',
        'messages',
        'chats',
        ...(options.keepOutbox ? [] : ['outbox' as const]),
      ] as const;
      const tx = (await open()).transaction([...stores], 'readwrite');
      for (const store of stores) await tx.objectStore(store).delete(ofUser(userId));
      await tx.done;
    },

    resume(userId) {
      cleared.delete(userId);
    },

    keepOnly(userId) {
      return write(userId, ['conversations', 'messages', 'chats'], async (tx) => {
        for (const store of ['conversations', 'messages', 'chats'] as const) {
          // Every user's keys sort by id: those below and those above this user's.
          await tx.objectStore(store).delete(IDBKeyRange.upperBound([userId], true));
          await tx.objectStore(store).delete(IDBKeyRange.lowerBound([userId, []], true));
        }
      });
    },

    async close() {
      if (db) (await db).close();
      db = null;
    },
  };
}

/** This browser's local store. */
export const localStore = idbLocalStore();
