import { Worker } from 'node:worker_threads';

/** How often the log is checkpointed; at 100 sends a second each pass copies about 800 KiB of it. */
const INTERVAL_MS = 250;

/**
 * Runs the write-ahead log's checkpoints of the SQLite file on a thread of its own
 * (checkpoint-worker.mjs) for as long as the server's connection is open.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /** `onError` hears of a worker that failed and ended: the server's connection must checkpoint again. */
  constructor(file: string, onError: (err: Error) => void, intervalMs = INTERVAL_MS) {
    this.worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { file, intervalMs },
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('error', onError);
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
