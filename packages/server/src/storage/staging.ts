import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors';

/** An upload as it arrived, in a temporary file of `Storage.tempDir`, hashed on the way. */
export interface StagedFile {
  path: string;
  size: number;
  /** SHA-256 of the bytes, hex. */
  hash: string;
}

/**
 * Writes `source` to a new file in `dir`, hashing it on the way, so that an upload never sits whole
 * in memory. A disk that refuses the file answers `StorageUnavailable` (HTTP 503) and tells
 * `onUnavailable`; an error of the source (a body cut short) is passed on as it is, for the caller
 * to name. Nothing is left in `dir` when it fails.
 */
export async function stageTo(dir: string, source: Readable, onUnavailable: (err: Error) => void): Promise<StagedFile> {
  const file = path.join(dir, `${randomUUID()}.upload`);
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  let diskFailed = false;
  try {
    await fs.mkdir(dir, { recursive: true }).catch((err: unknown) => {
      diskFailed = true;
      throw err;
    });
    // A stream destroyed while nothing read it (a body cut short) would never end a pipeline.
    if (source.destroyed) throw new Error('the upload ended before it was read');
    const sink = createWriteStream(file);
    sink.once('error', () => (diskFailed = true));
    await pipeline(source, tap, sink);
  } catch (err) {
    await fs.rm(file, { force: true }).catch(() => undefined);
    if (diskFailed && (err as NodeJS.ErrnoException).syscall) {
      onUnavailable(err as Error);
      throw new AppError('StorageUnavailable');
    }
    throw err;
  }
  return { path: file, size, hash: hash.digest('hex') };
}
