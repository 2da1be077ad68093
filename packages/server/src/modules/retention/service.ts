import { randomUUID } from 'node:crypto';
import { RETENTION_BATCH } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import type { ConfigService } from '../system';
import type { AgedMessage, RetentionRepo } from './repo';

const DAY_MS = 86_400_000;
/** How long a node's lease on the sweep lasts without being renewed (it is renewed every batch). */
const LEASE_MS = 120_000;
/** The pause between two batches, ms: the sends waiting meanwhile go first. */
const PAUSE_MS = 5;
/**
 * Where a batch runs in the caller's turn (SQLite), the time a batch is sized to take, ms: a send
 * arriving meanwhile waits for it, and a message's cost varies with the table (a million messages'
 * indexes no longer in the page cache), so a fixed count would hold sends longer as the table grows.
 */
const BATCH_BUDGET_MS = 10;
/** The fewest messages a batch sized to the budget holds. */
const MIN_BATCH = 20;
/** How long a sweep asked for by a policy change waits, ms: changes made together start one sweep. */
const KICK_DELAY_MS = 1000;
/** The messages whose file expires with its age (a sticker's file is the sticker collection's). */
const FILE_TYPES = new Set(['image', 'voice', 'video', 'file']);

/** What a sweep did: messages deleted, messages whose file expired, stored files freed. */
export interface SweepReport {
  messages: number;
  expiredFiles: number;
  freedFiles: number;
  /** The batches it took. */
  batches: number;
}

/** How a sweep runs: messages per batch and the pause between batches (the benchmark varies them). */
export interface SweepOptions {
  batch?: number;
  pauseMs?: number;
}

/** What RetentionService is built from. */
export interface RetentionParts {
  repos: Pick<Repos, 'retention'>;
  config: ConfigService;
  now: () => number;
}

/** What the sweep asks of the stored files: freeing those no one uses any more (FileService.releaseAll). */
export interface FileFreeing {
  releaseAll(fileIds: Iterable<number>): Promise<number>;
}

/** The next batch's size: the last one's scaled to the budget by the time it took, within MIN_BATCH and `most`. */
function sized(rows: number, tookMs: number, most: number): number {
  const scaled = Math.round((rows * BATCH_BUDGET_MS) / Math.max(tookMs, 0.1));
  return Math.max(Math.min(MIN_BATCH, most), Math.min(most, scaled));
}

/** The days a group's messages are kept: the stricter of its own policy and the server's (0 keeps them). */
export function effectiveDays(serverDays: number, groupDays: number): number {
  if (serverDays > 0 && groupDays > 0) return Math.min(serverDays, groupDays);
  return serverDays > 0 ? serverDays : groupDays;
}

/**
 * Retention (消息保存时间, docs/product.md): deletes messages older than the server's
 * `chatInfo.messageDays` and each group's own `retention` (the stricter applies), and expires
 * files older than `chatInfo.fileDays` (their messages stay, showing the file as expired; the
 * bytes are freed once nothing uses them). It runs daily, on demand (`npm run admin -- retention
 * --run`) and when a policy changes, a batch of RETENTION_BATCH messages per short transaction with
 * a pause between batches, so that sends are never held for longer than one batch. One node sweeps
 * at a time: the sweep holds a lease (migration 031), renewed every batch.
 */
export class RetentionService {
  private readonly repo: RetentionRepo;
  /** This process's name on the lease. */
  private readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private running: Promise<SweepReport | null> | undefined;
  private again = false;
  private policy = '';

  constructor(
    private readonly ctx: RetentionParts,
    private readonly files: FileFreeing,
  ) {
    this.repo = ctx.repos.retention;
  }

  /** Sweeps every `everyMs` (0: never by itself), and whenever the server's policy changes. */
  start(everyMs: number): void {
    this.policy = this.policyKey();
    this.ctx.config.onChange(() => {
      const next = this.policyKey();
      if (next === this.policy) return;
      this.policy = next;
      this.kick();
    });
    if (everyMs <= 0) return;
    this.timer = setInterval(() => this.kick(), everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.pending);
    this.timer = undefined;
    this.pending = undefined;
    this.again = false;
    await this.running?.catch(() => undefined);
  }

  /**
   * Starts a sweep in the background shortly (changes made together start one), or one more after
   * the sweep under way (a policy changed meanwhile); a sweep asked for directly meanwhile stands for it.
   */
  kick(): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.pending = undefined;
      if (this.running) this.again = true;
      else void this.background();
    }, KICK_DELAY_MS);
    this.pending.unref();
  }

  private async background(): Promise<void> {
    do {
      this.again = false;
      await this.sweep().catch(() => undefined);
    } while (this.again);
  }

  /** When the last sweep (on any node) started and ended, and what it did. */
  lastSweep() {
    return this.repo.lastSweep();
  }

  /**
   * Runs one sweep now (after the one under way on this process, if any) and answers what it did;
   * null when another node holds the lease (it is sweeping).
   */
  sweep(opts: SweepOptions = {}): Promise<SweepReport | null> {
    clearTimeout(this.pending);
    this.pending = undefined;
    const before = this.running?.catch(() => null) ?? Promise.resolve(null);
    const run: Promise<SweepReport | null> = before
      .then(() => this.run(opts))
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  private policyKey(): string {
    const { messageDays, fileDays } = this.ctx.config.get().chatInfo;
    return `${messageDays}:${fileDays}`;
  }

  private async run(opts: SweepOptions): Promise<SweepReport | null> {
    const batch = opts.batch ?? RETENTION_BATCH;
    const pauseMs = opts.pauseMs ?? PAUSE_MS;
    const { now } = this.ctx;
    if (!(await this.repo.takeLease(this.holder, now(), now() + LEASE_MS))) return null;
    const report: SweepReport = { messages: 0, expiredFiles: 0, freedFiles: 0, batches: 0 };
    try {
      const { messageDays, fileDays } = this.ctx.config.get().chatInfo;
      const started = now();
      let rows = batch;
      const step = async (work: (rows: number) => Promise<boolean>): Promise<boolean> => {
        if (!(await this.repo.renewLease(this.holder, now() + LEASE_MS))) return false;
        const began = performance.now();
        const more = await work(rows);
        if (this.repo.inCallersTurn) rows = sized(rows, performance.now() - began, batch);
        report.batches++;
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        return more;
      };
      if (messageDays > 0) await this.walk(started - messageDays * DAY_MS, step, (old) => this.delete(old, report));
      for (const { groupId, days } of await this.repo.groupPolicies()) {
        const keep = effectiveDays(messageDays, days);
        if (messageDays > 0 && keep >= messageDays) continue;
        const cutoff = started - keep * DAY_MS;
        while (
          await step(async (limit) => {
            const old = await this.repo.olderIn(`g:${groupId}`, cutoff, limit);
            await this.delete(old, report);
            return old.length === limit;
          })
        );
      }
      if (fileDays > 0) await this.walk(started - fileDays * DAY_MS, step, (old) => this.expire(old, report));
      return report;
    } finally {
      await this.repo.endLease(this.holder, now(), { messages: report.messages, files: report.expiredFiles });
    }
  }

  /**
   * The walk through every chat's messages older than `cutoff`, by id, a page a step, handing
   * `act` the page's messages older than `cutoff`: messages are sent in the order of their ids, so
   * the walk stops at the first page that holds none older.
   */
  private async walk(
    cutoff: number,
    step: (work: (rows: number) => Promise<boolean>) => Promise<boolean>,
    act: (old: readonly AgedMessage[]) => Promise<void>,
  ): Promise<void> {
    let after = 0;
    while (
      await step(async (rows) => {
        const page = await this.repo.page(after, rows);
        if (!page.length) return false;
        after = page.at(-1)!.id;
        const old = page.filter((m) => m.create_time < cutoff);
        await act(old);
        return old.length > 0;
      })
    );
  }

  /** These messages' files expired (their messages stay, marked), then freed where nothing else uses them. */
  private async expire(old: readonly AgedMessage[], report: SweepReport): Promise<void> {
    const withFile = old.filter((m) => m.file_id !== 0 && FILE_TYPES.has(m.type)).map((m) => m.id);
    const fileIds = await this.repo.expireFiles(withFile);
    report.expiredFiles += fileIds.length;
    report.freedFiles += await this.files.releaseAll(fileIds);
  }

  private async delete(old: readonly AgedMessage[], report: SweepReport): Promise<void> {
    if (!old.length) return;
    report.messages += await this.repo.deleteMessages(old);
    report.freedFiles += await this.files.releaseAll(old.filter((m) => m.file_id !== 0).map((m) => m.file_id));
  }
}
