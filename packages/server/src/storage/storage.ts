import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors';
import { stageTo, type StagedFile } from './staging';

export type { StagedFile };

/** Where uploaded bytes live: a folder on this machine (`DiskStorage`) or an S3-compatible bucket (`S3Storage`). */
export interface Storage {
  /**
   * Where uploads are staged while they arrive. For a disk it is on the disk's own file system, so
   * that storing an upload moves its file rather than copying it.
   */
  readonly tempDir: string;
  /**
   * Writes an arriving upload to a temporary file of `tempDir`, hashing it on the way. A disk that
   * cannot take it answers `StorageUnavailable`; the caller removes the file when done.
   */
  stage(source: Readable): Promise<StagedFile>;
  /** Stores bytes under their SHA-256; the same bytes are stored once. Returns the key. */
  put(bytes: Buffer, ext: string): Promise<{ key: string; hash: string }>;
  /**
   * Stores a staged file under its hash, as `put` stores bytes: the file may be moved away; the
   * caller removes whatever is left of it.
   */
  putFile(file: StagedFile, ext: string): Promise<{ key: string; hash: string }>;
  /**
   * Stores a staged file under a key of its own (`privateKey`), which no other object shares, so
   * that removing it never removes bytes an upload stored; such an object is not served under
   * `/storage`. Returns the key.
   */
  putPrivate(file: StagedFile, ext: string): Promise<string>;
  /** Opens a stored object, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

/** The public URL path of a stored object. */
export const storageUrl = (key: string) => `/storage/${key}`;

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{64}\.[a-z0-9]{1,10}$/;
const PRIVATE_KEY = /^private\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,10}$/;

/** Whether `key` is one `contentKey` makes: the objects served under `/storage`. */
export const publicKey = (key: string) => KEY.test(key);

/** Whether `key` is one `privateKey` makes. */
export const isPrivateKey = (key: string) => PRIVATE_KEY.test(key);

/** Whether `key` is one `contentKey` or `privateKey` makes; nothing else is looked up. */
export const validKey = (key: string) => publicKey(key) || isPrivateKey(key);

/** A key of its own for an object no other shares: `private/<uuid>.<ext>`. */
export const privateKey = (ext: string) =>
  `private/${randomUUID()}.${ext.toLowerCase().replace(/[^a-z0-9]/g, '') || 'bin'}`;

/** The key of `bytes`: `ab/<sha256>.<ext>`, so the same bytes are stored once under one name. */
export function contentKey(bytes: Buffer, ext: string): { key: string; hash: string } {
  return hashKey(createHash('sha256').update(bytes).digest('hex'), ext);
}

/** The key of bytes whose SHA-256 is `hash`. */
export function hashKey(hash: string, ext: string): { key: string; hash: string } {
  return { key: `${hash.slice(0, 2)}/${hash}.${ext.toLowerCase().replace(/[^a-z0-9]/g, '') || 'bin'}`, hash };
}

/** A temporary name beside `file`, unique however many processes and uploads write at once. */
const tempName = (file: string) => `${file}.${randomUUID()}.tmp`;

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** Moves a staged file to `to`, not copied: the staging folder is on this disk. Copied only when it is not (EXDEV). */
const moveStaged = (staged: StagedFile, to: string) =>
  fs.rename(staged.path, to).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    return fs.copyFile(staged.path, to);
  });

/** Removes staged files a crashed process left in `dir`: those older than a day, so no live upload's. */
export async function sweepStaged(dir: string, now = Date.now()): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat?.isFile() && now - stat.mtimeMs > 86_400_000) await fs.rm(file, { force: true }).catch(() => undefined);
  }
}

/**
 * Content-addressed files under a directory: `<root>/ab/<sha256>.<ext>`. A disk that cannot take a
 * file answers `StorageUnavailable` (HTTP 503) and tells `onUnavailable`; the next write tries again.
 */
export class DiskStorage implements Storage {
  readonly tempDir: string;

  constructor(
    private readonly root: string,
    private readonly onUnavailable: (err: Error) => void = () => undefined,
  ) {
    this.tempDir = path.join(root, '.staging');
  }

  stage(source: Readable) {
    return stageTo(this.tempDir, source, this.onUnavailable);
  }

  async put(bytes: Buffer, ext: string) {
    const { key, hash } = contentKey(bytes, ext);
    await this.place(key, (tmp) => fs.writeFile(tmp, bytes));
    return { key, hash };
  }

  async putFile(staged: StagedFile, ext: string) {
    const { key, hash } = hashKey(staged.hash, ext);
    await this.place(key, (tmp) => moveStaged(staged, tmp));
    return { key, hash };
  }

  async putPrivate(staged: StagedFile, ext: string) {
    const key = privateKey(ext);
    await this.place(key, (tmp) => moveStaged(staged, tmp));
    return key;
  }

  /**
   * Writes the object at `key` through a temporary name of its own, then renames it into place. The
   * same bytes may be stored by several uploads at once: each writes its own temporary file, and a
   * rename that fails while the object is there is a success, since the object holds those bytes.
   */
  private async place(key: string, write: (tmp: string) => Promise<void>): Promise<void> {
    const file = path.join(this.root, key);
    if (await exists(file)) return;
    const tmp = tempName(file);
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await write(tmp);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      if (await exists(file)) return;
      // Full, over quota, read-only, not ours to write (a recursive mkdir on a read-only disk says
      // ENOENT): whatever the system refused, the disk cannot take the file now.
      if (!(err as NodeJS.ErrnoException).syscall) throw err;
      this.onUnavailable(err as Error);
      throw new AppError('StorageUnavailable');
    }
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
