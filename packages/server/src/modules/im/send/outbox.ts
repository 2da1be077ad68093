import type { FastifyBaseLogger } from 'fastify';
import { atMostEvery } from '../../../lib/at-most';
import type { Repos } from '../../../repos';
import type { MessageRow } from '../repo';

/** How long after it is stored a message's own fan-out has before the sweep may push it, ms. */
export const PUBLISH_GRACE_MS = 10_000;
/** How long a sweep that took a message has to push it before another sweep may, ms. */
const PUBLISH_LEASE_MS = 30_000;
/** Messages a sweep takes at a time. */
const SWEEP_BATCH = 100;

/** What the outbox is built from. */
export interface OutboxParts {
  repos: Pick<Repos, 'messageStore'>;
  log: FastifyBaseLogger;
  now: () => number;
}

/**
 * What keeps "stored" and "pushed" from coming apart: every message is written with a row in
 * `message_outbox` in its own transaction, and that row goes once the message's fan-out has run.
 * A fan-out that threw, or a process that died between commit and fan-out, leaves the row behind:
 * the sender's retry (same client id) pushes the message then, and the sweep, which runs on every
 * node, pushes any that no retry came for. Clients take a message they already hold by its id, so
 * a message pushed twice (a retry racing its own fan-out, a sweep racing a slow one) shows once.
 *
 * Rows are removed in batches, one statement for all the messages pushed in one turn of the event
 * loop, so a burst of sends pays one delete rather than one each.
 */
export class Outbox {
  private pending: number[] = [];
  private readonly flushing = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(private readonly ctx: OutboxParts) {}

  /** When a message stored now may be pushed by the sweep. */
  dueFor(now: number): number {
    return now + PUBLISH_GRACE_MS;
  }

  /** Whether a stored message is still waiting for its push (a retry then pushes it). */
  unpublished(row: MessageRow): Promise<boolean> {
    return this.ctx.repos.messageStore.unpublished(row.id);
  }

  /** The message's frames were handed to the realtime layer: its outbox row goes with the next batch. */
  published(msgId: number): void {
    this.pending.push(msgId);
    if (this.pending.length > 1) return;
    const flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
    this.flushing.add(flushing);
    void flushing.finally(() => this.flushing.delete(flushing));
  }

  private async flush(): Promise<void> {
    const ids = this.pending;
    this.pending = [];
    try {
      await this.ctx.repos.messageStore.published(ids);
    } catch (err) {
      // The rows stay: the sweep pushes those messages again, which clients take once.
      this.ctx.log.warn({ err, count: ids.length }, 'could not clear pushed messages from the outbox');
    }
  }

  /** Waits for the removals already asked for (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.flushing.size) await Promise.all(this.flushing);
  }

  /**
   * Pushes every overdue message in batches through `push`, then takes it off the outbox. A message
   * whose push throws keeps its row and is tried again once its lease runs out.
   */
  sweep(push: (row: MessageRow) => Promise<void>): Promise<number> {
    if (this.sweeping) return Promise.resolve(0);
    const sweeping = this.sweepAll(push).finally(() => (this.sweeping = undefined));
    this.sweeping = sweeping;
    return sweeping;
  }

  private async sweepAll(push: (row: MessageRow) => Promise<void>): Promise<number> {
    let pushed = 0;
    for (;;) {
      const now = this.ctx.now();
      const rows = await this.ctx.repos.messageStore.claimOverdue(now, now + PUBLISH_LEASE_MS, SWEEP_BATCH);
      const done: number[] = [];
      for (const row of rows) {
        try {
          await push(row);
          done.push(row.id);
        } catch (err) {
          this.ctx.log.warn({ err, msgId: row.id }, 'could not push a stored message; the sweep tries again');
        }
      }
      await this.ctx.repos.messageStore.published(done);
      pushed += done.length;
      if (rows.length < SWEEP_BATCH) return pushed;
    }
  }

  /** Sweeps at start (a process that died may have left messages) and every `sweepMs` after; 0: never. */
  start(push: (row: MessageRow) => Promise<void>, sweepMs: number): void {
    if (sweepMs <= 0) return;
    const failed = atMostEvery(60_000, this.ctx.now, (err: unknown) =>
      this.ctx.log.warn({ err }, 'outbox sweep failed; it runs again shortly'),
    );
    const run = () => void this.sweep(push).catch(failed);
    run();
    this.timer = setInterval(run, sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
    await this.settle();
  }
}
