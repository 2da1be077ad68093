import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type OpenedDb } from '../src/db';
import { Checkpointer } from '../src/db/checkpointer';

/** Rows of 2 KiB, one transaction each, as sends commit: about one log page apiece. */
async function write(opened: OpenedDb, rows: number): Promise<void> {
  for (let i = 0; i < rows; i++) {
    await sql`insert into filler (body) values (${'x'.repeat(2048)})`.execute(opened.db);
  }
}

const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/** How many times a SQLite log has started over: its header's checkpoint sequence number. */
function restarts(wal: string): number {
  const header = Buffer.alloc(16);
  const fd = fs.openSync(wal, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  return header.readUInt32BE(12);
}

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('SQLite log checkpoints', () => {
  let opened: OpenedDb | undefined;
  let dir = '';
  const file = () => path.join(dir, 'sparrow.db');

  async function open(): Promise<OpenedDb> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-checkpoint-'));
    opened = openDb({ dataDir: dir });
    await sql`create table filler (id integer primary key, body text not null)`.execute(opened.db);
    return opened;
  }

  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies the log into the database file without the server connection reaching its threshold', async () => {
    const db = await open();
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.db);
    const threshold = rows[0]!.wal_autocheckpoint;
    expect(threshold).toBeGreaterThan(10_000);

    const before = size(file());
    await write(db, 300);
    // 300 pages of rows: far below the server connection's own threshold, so only the
    // checkpoint thread can have moved them into the file.
    await until('the rows reach the database file', () => size(file()) > before + 300 * 2048);
  });

  it('lets the log start over once it has been copied, so that it does not grow with every write', async () => {
    const db = await open();
    await write(db, 400);
    await until('the first rows reach the database file', () => size(file()) > 400 * 2048);
    const logAfterFirst = size(`${file()}-wal`);
    // A quiet moment: the thread's next pass finds nothing new, and the next write starts over.
    await new Promise((r) => setTimeout(r, 600));
    await write(db, 400);
    await until('the second rows reach the database file', () => size(file()) > 800 * 2048);
    // Without starting over the log would hold both batches, about twice its first size.
    expect(size(`${file()}-wal`)).toBeLessThan(logAfterFirst * 1.5);
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(db.db);
    expect(rows[0]!.n).toBe(800);
  });

  it('starts the log over while writes never pause', async () => {
    const db = await open();
    // The thread starts at the first write: the measure begins once it runs (it has copied that write).
    const before = size(file());
    await write(db, 1);
    await until('the thread copies the first write', () => size(file()) > before);
    const wal = `${file()}-wal`;
    const startedOver = restarts(wal);
    // About 500 commits a second, as a busy server sends, with no quiet moment between them, until
    // the log starts over (SQLite counts each start in the log's header). Without that, a log that
    // never pauses would grow by three frames per row for as long as the writes go on. How soon it
    // starts over depends on when the thread gets the CPU and the disk: within a few hundred rows
    // on a quiet machine, near the end of 2 s with a full test run beside it.
    const deadline = Date.now() + 15_000;
    while (restarts(wal) === startedOver && Date.now() < deadline) {
      await write(db, 1);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(restarts(wal)).toBeGreaterThan(startedOver);
  });

  it('closes the checkpoint thread first, so the server connection removes the log on close', async () => {
    const db = await open();
    await write(db, 50);
    expect(size(`${file()}-wal`)).toBeGreaterThan(0);
    await db.close();
    opened = undefined;
    expect(fs.existsSync(`${file()}-wal`)).toBe(false);

    // Everything written is in the file itself.
    const again = openDb({ dataDir: dir });
    opened = again;
    const { rows } = await sql<{ n: number }>`select count(*) as n from filler`.execute(again.db);
    expect(rows[0]!.n).toBe(50);
  });

  it('tells of a checkpoint thread that failed, and gives checkpoints back to the connection', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-checkpoint-'));
    const connection = new SQLite(file());
    connection.pragma('journal_mode = WAL');
    let told: (err: Error) => void = () => {};
    const failed = new Promise<Error>((resolve) => (told = resolve));
    const checkpointer = new Checkpointer(connection, (err) => told(err), 20);
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBeGreaterThan(10_000);
    // A write starts the thread at the next look; the file is gone from where it will look for it.
    connection.exec('create table filler (id integer primary key); insert into filler default values');
    const moved = `${dir}-moved`;
    fs.renameSync(dir, moved);
    expect((await failed).message).toMatch(/directory does not exist|unable to open/i);
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.stop();
    connection.close();
    fs.renameSync(moved, dir);
  });

  it('runs no thread while nothing is written, and ends it after a quiet spell', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-checkpoint-'));
    const connection = new SQLite(file());
    connection.pragma('journal_mode = WAL');
    connection.exec('create table filler (id integer primary key, body text not null)');
    const checkpointer = new Checkpointer(connection, () => undefined, 20, 500);
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(checkpointer.running).toBe(false);

      const before = size(file());
      const insert = connection.prepare('insert into filler (body) values (?)');
      for (let i = 0; i < 200; i++) insert.run('x'.repeat(2048));
      await until('a write starts the thread', () => checkpointer.running);
      await until('a quiet spell ends it', () => !checkpointer.running);
      // Copied before it ended, however late the thread started.
      expect(size(file())).toBeGreaterThan(before + 200 * 2048);

      // The next write starts it again.
      insert.run('y');
      await until('a later write starts it again', () => checkpointer.running);
    } finally {
      await checkpointer.stop();
      connection.close();
    }
    expect(checkpointer.running).toBe(false);
    expect(fs.existsSync(`${file()}-wal`)).toBe(false);
  });
});
