import { useCallback, useEffect, useState, type CSSProperties } from 'react';
import { sessionStore } from '../stores/session';

/*
 * Chat backgrounds stay on this device (docs/product.md §3, "chat background"), one per conversation and user,
 * in IndexedDB: pictures are too big for localStorage, which the other stored items share.
 */
const DB_NAME = 'sparrow-media';
const STORE = 'chat-backgrounds';
/** Longest edge of a stored background: sharp on a phone, small enough to keep many. */
const MAX_EDGE = 1440;

let db: Promise<IDBDatabase> | null = null;

function openDb(): Promise<IDBDatabase> {
  db ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB unavailable'));
  }).catch((error: unknown) => {
    db = null;
    throw error;
  });
  return db;
}

async function run<T>(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const database = await openDb();
  return new Promise<T>((resolve, reject) => {
    const req = fn(database.transaction(STORE, mode).objectStore(STORE));
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('indexedDB request failed'));
  });
}

function keyOf(contactId: string | number): string | null {
  const user = sessionStore.getState().user?.user_id;
  return user === undefined ? null : `${user}:${String(contactId)}`;
}

const listeners = new Set<(key: string) => void>();
const changed = (key: string) => {
  for (const l of listeners) l(key);
};

/** Scales a picked picture down to MAX_EDGE and re-encodes it as JPEG. */
export async function shrinkImage(file: Blob, maxEdge = MAX_EDGE): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const scale = Math.min(1, maxEdge / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) return file;
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b ?? file), 'image/jpeg', 0.85));
  } finally {
    bitmap.close();
  }
}

export const chatBackgrounds = {
  async get(contactId: string | number): Promise<Blob | null> {
    const key = keyOf(contactId);
    if (!key) return null;
    const value = await run<unknown>('readonly', (s) => s.get(key));
    return value instanceof Blob ? value : null;
  },
  /** Stores a picked picture as this conversation's background. */
  async set(contactId: string | number, picture: Blob): Promise<void> {
    const key = keyOf(contactId);
    if (!key) return;
    const small = await shrinkImage(picture);
    await run('readwrite', (s) => s.put(small, key));
    changed(key);
  },
  /** Back to the default background. */
  async reset(contactId: string | number): Promise<void> {
    const key = keyOf(contactId);
    if (!key) return;
    await run('readwrite', (s) => s.delete(key));
    changed(key);
  },
};

/**
 * A conversation's background on this device: `url` of the picture (null for the default),
 * `pick` to choose one, `reset` to go back. Every open view of the conversation follows a change.
 */
export function useChatBackground(contactId: string | number) {
  const [url, setUrl] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const key = keyOf(contactId);
    if (key === null) return;
    const onChange = (k: string) => {
      if (k === key) setVersion((v) => v + 1);
    };
    listeners.add(onChange);
    return () => {
      listeners.delete(onChange);
    };
  }, [contactId]);

  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    chatBackgrounds.get(contactId).then(
      (blob) => {
        if (!live) return;
        objectUrl = blob ? URL.createObjectURL(blob) : null;
        setUrl(objectUrl);
      },
      () => {
        // Without IndexedDB (some private modes) the default background stays.
        if (live) setUrl(null);
      },
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [contactId, version]);

  const pick = useCallback((file: Blob) => chatBackgrounds.set(contactId, file), [contactId]);
  const reset = useCallback(() => chatBackgrounds.reset(contactId), [contactId]);
  return { url, pick, reset };
}

/** The style that puts a background picture behind a message list (on the list's frame, not its scroller). */
export function chatBackgroundStyle(url: string | null): CSSProperties | undefined {
  return url
    ? {
        backgroundImage: `url("${url}")`,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }
    : undefined;
}
