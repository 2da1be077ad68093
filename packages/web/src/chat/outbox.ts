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
 * signing in on the same browser never reads (or sends) them. It is a part of the local store
 * (chat/local-store.ts, `localStore.outbox`), which keeps Blobs as they are, so an upload can be
 * made again after a reload.
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
