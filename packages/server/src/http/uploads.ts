import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/** The wait an upload refused as busy is told to retry after, s. */
const BUSY_RETRY_S = 5;

/**
 * Uploads in progress, per user and in all: each holds a connection, a temporary file and, for
 * images and media, decoding work, so one user's burst may not take the process. Past either cap an
 * upload is refused before any byte of it is read (`UploadBusy`, 429 with Retry-After).
 */
export class UploadGate {
  private inFlight = 0;
  private readonly byUser = new Map<number, number>();

  constructor(private readonly caps: { perUser: number; inFlight: number }) {}

  /** Takes a place for `userId`'s upload; answers the function that gives it back (once). */
  enter(userId: number): () => void {
    const mine = this.byUser.get(userId) ?? 0;
    if (mine >= this.caps.perUser || this.inFlight >= this.caps.inFlight)
      throw new AppError('UploadBusy', { seconds: BUSY_RETRY_S });
    this.inFlight += 1;
    this.byUser.set(userId, mine + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
      const now = (this.byUser.get(userId) ?? 1) - 1;
      if (now > 0) this.byUser.set(userId, now);
      else this.byUser.delete(userId);
    };
  }
}

/** Temporary files a request staged its upload in, removed once its answer is decided. */
const staged = new WeakMap<FastifyRequest, string[]>();

/** Notes a temporary file of the request's upload, for `discardStaged`. */
export function noteStaged(req: FastifyRequest, file: string): void {
  const files = staged.get(req);
  if (files) files.push(file);
  else staged.set(req, [file]);
}

/** Removes the request's temporary files (those storage moved away are gone already). */
export async function discardStaged(req: FastifyRequest): Promise<void> {
  const files = staged.get(req);
  if (!files) return;
  staged.delete(req);
  await Promise.all(files.map((f) => fs.rm(f, { force: true }).catch(() => undefined)));
}
