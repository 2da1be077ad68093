import type { FastifyBaseLogger } from 'fastify';
import type { Repos } from '../../repos';
import { atMostEvery } from '../../lib/at-most';

/**
 * Messages indexed in one transaction. On SQLite the event loop waits for each batch: 200 take one
 * to two milliseconds at 500 messages a second, within the private-message p99 goal, where 32 at a
 * time made FTS5 write and merge six times as many segments (+35 % CPU per send at 1 000 000
 * messages, bench/search-db.mjs, against +14 % with 200).
 */
export const SEARCH_BATCH = 200;

/** What SearchIndexer is built from. */
export interface SearchIndexParts {
  repos: Pick<Repos, 'search'>;
  log: FastifyBaseLogger;
  now: () => number;
}

/**
 * Indexes stored messages for search after their commit (migration 019), so that a send does no
 * index work: in the background on each node every `searchIndexMs`, and before a search, so that
 * a search finds every message stored before it was asked. The index's position is in the
 * database (`search_indexed`), so a process that stops anywhere leaves nothing unindexed: the
 * next run, on any node, goes on from there.
 */
export class SearchIndexer {
  /** The run under way, and the one that starts after it for searches that came meanwhile. */
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: SearchIndexParts) {}

  /** Indexes in the background every `everyMs`; 0: only before searches. */
  start(everyMs: number): void {
    if (everyMs <= 0) return;
    const failed = atMostEvery(60_000, this.ctx.now, (err: unknown) =>
      this.ctx.log.warn({ err }, 'search indexing failed; it runs again shortly'),
    );
    this.timer = setInterval(() => {
      if (!this.current) void this.whenBehind().catch(failed);
    }, everyMs);
    this.timer.unref();
  }

  /**
   * Answers once every message stored before the call is in the index (on PostgreSQL waiting for
   * another node's batch). A failure is logged, not thrown: the search then reads the index as it is.
   */
  async catchUp(): Promise<void> {
    try {
      const { through, newest } = await this.ctx.repos.search.searchBacklog();
      if (through >= newest) return;
      for (;;) {
        await this.queued();
        if ((await this.ctx.repos.search.searchBacklog()).through >= newest) return;
      }
    } catch (err) {
      this.ctx.log.warn({ err }, 'could not bring the search index up to date before a search');
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([this.current, this.next].map((p) => p?.catch(() => undefined)));
  }

  /** A background run: only when messages wait, and on PostgreSQL only when no other node is indexing. */
  private async whenBehind(): Promise<void> {
    const { through, newest } = await this.ctx.repos.search.searchBacklog();
    if (through < newest && !this.current) await this.begin(false);
  }

  /** A run that waits for other nodes, started now or after the one under way (shared by the searches meanwhile). */
  private queued(): Promise<void> {
    if (!this.current) return this.begin(true);
    this.next ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.begin(true);
      });
    return this.next;
  }

  private begin(wait: boolean): Promise<void> {
    const run = this.indexAll(wait).finally(() => {
      if (this.current === run) this.current = undefined;
    });
    this.current = run;
    return run;
  }

  private async indexAll(wait: boolean): Promise<void> {
    while ((await this.ctx.repos.search.indexForSearch(SEARCH_BATCH, wait)) === SEARCH_BATCH) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
