import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ContactKey } from '../lib/conversation-list';
import type { Outgoing } from './engine';

/** One message of one user on its way, as IndexedDB holds it. */
export interface OutboxRecord extends Outgoing {
  user_id: number;
  /** The conversation it was sent in. */
  key: ContactKey;
}

/**
 * The device's outbox: every message a user sent that the server has not yet acknowledged, files
 * included, kept across reloads and restarts. Each user's messages are apart: another account
 * signing in on the same browser never reads (or sends) them.
 */
export interface OutboxStore {
  /** A user's messages on their way, in the order sent. */
  list(userId: number): Promise<OutboxRecord[]>;
  /** Adds a message, or writes it again when it changed (a refusal, an uploaded poster). */
  put(record: OutboxRecord): Promise<void>;
  remove(userId: number, id: string): Promise<void>;
  /** Forgets every message of a user (signed out on this device). */
  clear(userId: number): Promise<void>;
}

interface OutboxSchema extends DBSchema {
  messages: {
    key: [number, string];
    value: OutboxRecord;
    indexes: { user: number };
  };
}

/**
 * The outbox in IndexedDB (database `sparrow-outbox`), which keeps Blobs as they are, so an upload
 * can be made again after a reload. Requests are made in the order called, and IndexedDB runs
 * read-write transactions on one store in the order they were made: a message's removal never
 * overtakes its writing.
 */
export function idbOutbox(name = 'sparrow-outbox'): OutboxStore {
  let db: Promise<IDBPDatabase<OutboxSchema>> | null = null;
  const open = () => {
    if (typeof indexedDB === 'undefined') return Promise.reject(new Error('no IndexedDB'));
    db ??= openDB<OutboxSchema>(name, 1, {
      upgrade(database) {
        const store = database.createObjectStore('messages', { keyPath: ['user_id', 'id'] });
        store.createIndex('user', 'user_id');
      },
    }).catch((error: unknown) => {
      db = null;
      throw error;
    });
    return db;
  };
  return {
    async list(userId) {
      const records = await (await open()).getAllFromIndex('messages', 'user', userId);
      return records.sort((a, b) => a.order - b.order);
    },
    async put(record) {
      await (await open()).put('messages', record);
    },
    async remove(userId, id) {
      await (await open()).delete('messages', [userId, id]);
    },
    async clear(userId) {
      const tx = (await open()).transaction('messages', 'readwrite');
      let cursor = await tx.store.index('user').openCursor(userId);
      while (cursor) {
        await cursor.delete();
        cursor = await cursor.continue();
      }
      await tx.done;
    },
  };
}
