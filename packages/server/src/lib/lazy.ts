import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type sharp from 'sharp';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on first use instead of at start: a server that has not needed it yet
 * (no upload, no Chinese name, no Redis, no mail) does not hold its code and data in memory. Each
 * of these costs 2–20 MB of resident memory once loaded (`bench/idle-memory.mjs`).
 */
export function onFirstUse<T>(name: string, prepare?: (loaded: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = require(name) as T;
      prepare?.(loaded);
    }
    return loaded;
  };
}

/** An ES-module-only package, imported on first use for the same reason. */
export function importOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

/** sharp (libvips): uploaded pictures, thumbnails, avatars, group avatars. */
export const loadSharp = onFirstUse<typeof sharp>('sharp');

/** ioredis: the bus, presence, limits and calls across nodes, and the readiness probe; with REDIS_URL only. */
export const loadRedis = onFirstUse<typeof IORedis>('ioredis');

/** file-type: what an upload really is, from its first bytes. */
export const loadFileType = importOnFirstUse(() => import('file-type'));
