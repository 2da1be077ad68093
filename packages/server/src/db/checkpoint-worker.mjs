// The SQLite write-ahead log's checkpoints, run on a thread and connection of their own. A
// checkpoint copies the logged pages into the database file and syncs both, a few milliseconds
// that would otherwise fall on whichever write crossed the automatic threshold: every send that
// arrived meanwhile would wait behind it. PASSIVE never waits for the server's connection nor makes
// it wait. Plain JavaScript, because a worker thread is loaded by Node itself, without tsx.
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/** @type {{ file: string, intervalMs: number }} */
const { file, intervalMs } = workerData;
/** Passes of one checkpoint at most, each copying what the server wrote during the one before. */
const CATCH_UP = 4;

const db = new SQLite(file);
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');

function run() {
  // The log starts over from its beginning at the server's first write after it has been copied
  // whole; a pass reports the frames there were when it began, so the log is whole once a pass
  // finds no frame more than the pass before copied.
  let frames = -1;
  for (let i = 0; i < CATCH_UP; i++) {
    const { log, checkpointed } = /** @type {{ log: number, checkpointed: number }} */ (checkpoint.get());
    if (log === frames && checkpointed >= log) return;
    frames = log;
  }
}

const timer = setInterval(run, intervalMs);
// Asked to end (a quiet spell, or the server closing): one last pass first, so that a thread asked
// to end before its first pass still copies what was written.
parentPort?.once('message', () => {
  clearInterval(timer);
  run();
  db.close();
  parentPort?.close();
});
