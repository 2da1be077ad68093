import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the log is checkpointed; at 100 sends a second each pass copies about 800 KiB of it. */
const INTERVAL_MS = 250;
/** Log pages (of 4 KiB) after which the server's own connection checkpoints: 64 MiB. */
const BACKSTOP_PAGES = 16384;
/** SQLite's own threshold, for a connection whose checkpoint thread has failed. */
const SQLITE_DEFAULT_PAGES = 1000;

/**
 * Takes the write-ahead log's checkpoints off a connection: a thread of its own
 * (checkpoint-worker.mjs) runs them for as long as the connection is open.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /**
   * `onError` hears of a worker that failed and ended; the connection then checkpoints at
   * SQLite's own threshold again.
   */
  constructor(connection: SQLite.Database, onError: (err: Error) => void, intervalMs = INTERVAL_MS) {
    // The connection checkpoints only if the log outgrows the backstop (a reader holding an old
    // snapshot for long), and a log that did is cut back to it when it starts over.
    connection.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    connection.pragma(`journal_size_limit = ${BACKSTOP_PAGES * 4096}`);
    this.worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { file: connection.name, intervalMs },
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('error', (err) => {
      if (connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
      onError(err);
    });
    this.worker.unref();
  }

  /** Ends the worker after its current checkpoint; its connection closes before the server's. */
  async stop(): Promise<void> {
    // Held open until the worker is gone, or a process with nothing else to do would end first.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
