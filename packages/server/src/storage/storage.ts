import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';

/** Where uploaded bytes live: a folder on this machine (`DiskStorage`) or an S3-compatible bucket (`S3Storage`). */
export interface Storage {
  /** Stores bytes under their SHA-256; the same bytes are stored once. Returns the key. */
  put(bytes: Buffer, ext: string): Promise<{ key: string; hash: string }>;
  /** Opens a stored object, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

/** The public URL path of a stored object. */
export const storageUrl = (key: string) => `/storage/${key}`;

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{64}\.[a-z0-9]{1,10}$/;

/** Whether `key` is one `contentKey` makes; nothing else is looked up. */
export const validKey = (key: string) => KEY.test(key);

/** The key of `bytes`: `ab/<sha256>.<ext>`, so the same bytes are stored once under one name. */
export function contentKey(bytes: Buffer, ext: string): { key: string; hash: string } {
  const hash = createHash('sha256').update(bytes).digest('hex');
  return { key: `${hash.slice(0, 2)}/${hash}.${ext.toLowerCase().replace(/[^a-z0-9]/g, '') || 'bin'}`, hash };
}

/**
 * Content-addressed files under a directory: `<root>/ab/<sha256>.<ext>`. A disk that cannot take a
 * file answers `StorageUnavailable` (HTTP 503) and tells `onUnavailable`; the next write tries again.
 */
export class DiskStorage implements Storage {
  constructor(
    private readonly root: string,
    private readonly onUnavailable: (err: Error) => void = () => undefined,
  ) {}

  async put(bytes: Buffer, ext: string) {
    const { key, hash } = contentKey(bytes, ext);
    const file = path.join(this.root, key);
    try {
      await fs.access(file);
    } catch {
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(tmp, bytes);
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        // Full, over quota, read-only, not ours to write (a recursive mkdir on a read-only disk says
        // ENOENT): whatever the system refused, the disk cannot take the file now.
        if (!(err as NodeJS.ErrnoException).syscall) throw err;
        this.onUnavailable(err as Error);
        throw new AppError('StorageUnavailable');
      }
    }
    return { key, hash };
  }

  async open(key: string) {
    if (!validKey(key)) return null;
    const file = path.join(this.root, key);
    try {
      const stat = await fs.stat(file);
      return { stream: createReadStream(file), size: stat.size };
    } catch {
      return null;
    }
  }

  async remove(key: string) {
    if (!validKey(key)) return;
    await fs.rm(path.join(this.root, key), { force: true });
  }
}
