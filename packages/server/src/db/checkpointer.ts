import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the log is checkpointed; at 100 sends a second each pass copies about 800 KiB of it. */
const INTERVAL_MS = 250;
/**
 * A quiet spell after which the thread ends, started again by the next write: it is a V8 isolate of
 * its own, about 4 MB of resident memory that an idle server need not hold (bench/idle-memory.mjs).
 */
const IDLE_MS = 30_000;
/** Log pages (of 4 KiB) after which the server's own connection checkpoints: 64 MiB. */
const BACKSTOP_PAGES = 16384;
/** SQLite's own threshold, for a connection whose checkpoint thread has failed. */
const SQLITE_DEFAULT_PAGES = 1000;

/**
 * Takes the write-ahead log's checkpoints off a connection: a thread of its own
 * (checkpoint-worker.mjs) runs them while the connection writes, from its first change after a
 * quiet spell of `idleMs` (or the start) until the next such spell.
 */
export class Checkpointer {
  private worker: Worker | undefined;
  private exited: Promise<void> = Promise.resolve();
  private failed = false;
  /** The connection's count of changed rows when last looked at, and when it last moved. */
  private changes: number;
  private changedAt = -Infinity;
  private readonly changeCount: SQLite.Statement<[], number>;
  private readonly watch: NodeJS.Timeout;

  /**
   * `onError` hears of a worker that failed and ended; the connection then checkpoints at
   * SQLite's own threshold again.
   */
  constructor(
    private readonly connection: SQLite.Database,
    private readonly onError: (err: Error) => void,
    private readonly intervalMs = INTERVAL_MS,
    private readonly idleMs = IDLE_MS,
  ) {
    // The connection checkpoints only if the log outgrows the backstop (a reader holding an old
    // snapshot for long), and a log that did is cut back to it when it starts over.
    connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    connection.pragma(`journal_size_limit = ${BACKSTOP_PAGES * 4096}`);
    // Every write of the server goes through this connection; total_changes() reads a counter of it.
    this.changeCount = connection.prepare<[], number>('select total_changes()').pluck();
    this.changes = this.changeCount.get() ?? 0;
    this.watch = setInterval(() => this.look(), intervalMs).unref();
  }

  /** Whether the checkpoint thread is there now (started by a write, not yet ended by a quiet spell). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private look(): void {
    if (!this.connection.open) return;
    const changes = this.changeCount.get() ?? 0;
    const now = performance.now();
    if (changes !== this.changes) {
      this.changes = changes;
      this.changedAt = now;
    }
    const writing = now - this.changedAt < this.idleMs;
    if (writing && !this.worker && !this.failed) this.start();
    else if (!writing && this.worker) void this.end();
  }

  private start(): void {
    const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { file: this.connection.name, intervalMs: this.intervalMs },
    });
    this.worker = worker;
    // A worker still ending after the last quiet spell counts too: the server's connection must
    // close after every other, or it leaves the log behind.
    const before = this.exited;
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        if (this.worker === worker) this.worker = undefined;
        resolve();
      }),
    );
    this.exited = Promise.all([before, exited]).then(() => undefined);
    worker.on('error', (err) => {
      this.failed = true;
      if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      this.onError(err);
    });
    worker.unref();
  }

  /** Asks the worker to end after its current checkpoint; `exited` settles when it has. */
  private end(): Promise<void> {
    const { worker } = this;
    if (!worker) return this.exited;
    this.worker = undefined;
    // Held open until the worker is gone, or a process with nothing else to do would end first.
    worker.ref();
    worker.postMessage('stop');
    return this.exited;
  }

  /** Ends the worker after its current checkpoint; its connection closes before the server's. */
  async stop(): Promise<void> {
    clearInterval(this.watch);
    await this.end();
  }
}
