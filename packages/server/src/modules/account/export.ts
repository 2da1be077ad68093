import type { Readable } from 'node:stream';
import type { DataExport } from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { isPrivateKey, type Storage } from '../../storage/storage';
import type { Session } from '../auth';
import type { ConfigService } from '../system';
import { writeArchive } from './archive';
import type { ExportRepo, ExportRow } from './export-repo';
import { toDataExport } from './presenter';

/** What ExportService is built from. */
export interface ExportParts {
  repos: Pick<Repos, 'exports' | 'users'>;
  config: ConfigService;
  realtime: Realtime;
  storage: Storage;
  log: FastifyBaseLogger;
  now: () => number;
}

/**
 * Removes an export's archive from the store: only one stored under a key of its own, never bytes
 * under a content key, which an upload of the same bytes shares.
 */
export async function removeArchive(storage: Storage, key: string): Promise<void> {
  if (isPrivateKey(key)) await storage.remove(key).catch(() => undefined);
}

/** How long a node holds an export it builds without reporting progress; another may take it over after. */
export const EXPORT_LEASE_MS = 60_000;
/** Builds that failed this many times are given up. */
const ATTEMPTS_MAX = 3;
const DAY_MS = 86_400_000;

/**
 * Exports of a user's own data (下载我的数据, docs/product.md): asked for over HTTP, built in the
 * background by whichever node claims the row (ExportRepo.claim, a compare-and-set with a lease,
 * so that two nodes never build the same one and a node that stopped leaves it to the next),
 * progress pushed to the owner's devices as `dataExport`, the archive kept in the uploads store
 * (every node reads the same one) until `account.exportDays` have passed, then deleted by the sweep.
 */
export class ExportService {
  private readonly exports: ExportRepo;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly ctx: ExportParts) {
    this.exports = ctx.repos.exports;
  }

  /** Starts an export of the caller's data, or answers the one already on its way. */
  async request(session: Session): Promise<DataExport> {
    const row = await this.exports.queue(session.userId, this.ctx.now());
    await this.tell(row);
    this.wake();
    return toDataExport(row);
  }

  /** The caller's newest export, or the one named; null when there is none. */
  async status(session: Session, id?: number): Promise<DataExport | null> {
    const row = await this.exports.mine(session.userId, id);
    if (!row && id) throw new AppError('NotFound', {}, { fields: ['id'] });
    return row ? toDataExport(row) : null;
  }

  /** The archive of the caller's finished export: another user's, one not done or past its time are not found alike. */
  async archive(userId: number, id: number): Promise<{ stream: Readable; size: number } | null> {
    const row = id > 0 ? await this.exports.mine(userId, id) : undefined;
    if (!row || row.state !== 'done' || row.expires_at <= this.ctx.now()) return null;
    return this.ctx.storage.open(row.storage_key);
  }

  /** Looks for work now and every `ms` (0: only when woken, as tests do). */
  start(ms: number): void {
    if (ms > 0) {
      this.timer = setInterval(() => this.wake(), ms);
      this.timer.unref();
    }
    this.wake();
  }

  /** Runs a round soon: one at a time on this node, another after it when woken meanwhile. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((err: unknown) => this.ctx.log.error({ err }, 'data export round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Waits for the round in progress, if any (tests, and closing). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.idle();
  }

  /** One round: delete archives whose time is up, then build every export no node is building. */
  async round(): Promise<void> {
    await this.sweep();
    for (;;) {
      if (this.stopped) return;
      const ids = await this.exports.claimable(this.ctx.now(), 10);
      let built = 0;
      for (const id of ids) {
        const row = await this.exports.claim(id, this.ctx.now(), this.ctx.now() + EXPORT_LEASE_MS);
        if (!row) continue;
        built++;
        await this.build(row);
      }
      if (built === 0) return;
    }
  }

  /** Deletes the archives of finished exports past their time; their owners are told they expired. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (const row of await this.exports.expired(this.ctx.now(), 100)) {
      if (!(await this.exports.expire(row.id))) continue;
      await removeArchive(this.ctx.storage, row.storage_key);
      await this.tell({ ...row, state: 'expired', storage_key: '' });
      removed++;
    }
    return removed;
  }

  private async build(row: ExportRow): Promise<void> {
    const attempt = row.attempts;
    const user = await this.ctx.repos.users.byId(row.user_id);
    if (!user || row.attempts > ATTEMPTS_MAX) {
      await this.exports.fail(row.id, attempt, this.ctx.now());
      await this.tell({ ...row, state: 'failed' });
      return;
    }
    await this.tell(row);
    let shown = 0;
    try {
      const now = this.ctx.now();
      const { key, size } = await writeArchive(this.exports, this.ctx.storage, user, now, async (share) => {
        const progress = Math.min(99, Math.floor(share * 100));
        if (progress === shown) return;
        shown = progress;
        if (!(await this.exports.progress(row.id, attempt, progress, this.ctx.now() + EXPORT_LEASE_MS)))
          throw new Error('another node took over this export');
        await this.tell({ ...row, progress });
      });
      const done = {
        storageKey: key,
        size,
        now: this.ctx.now(),
        expiresAt: this.ctx.now() + this.ctx.config.get().account.exportDays * DAY_MS,
      };
      if (!(await this.exports.finish(row.id, attempt, done))) {
        await removeArchive(this.ctx.storage, key);
        return;
      }
      await this.tell({
        ...row,
        state: 'done',
        size,
        storage_key: key,
        finish_time: done.now,
        expires_at: done.expiresAt,
      });
    } catch (err) {
      this.ctx.log.warn({ err, exportId: row.id }, 'data export failed');
      await this.exports.fail(row.id, attempt, this.ctx.now());
      const now = await this.exports.mine(row.user_id, row.id);
      if (now) await this.tell(now);
    }
  }

  private async tell(row: ExportRow): Promise<void> {
    await this.ctx.realtime.publish([row.user_id], { type: 'dataExport', data: toDataExport(row) });
  }
}
