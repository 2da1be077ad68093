import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Database } from '../src/db';
import { MessageRepo } from '../src/modules/im/repo';

/**
 * The reads that grow with a server's history walk indexes from a bound (a cursor, a chat, a read
 * position) instead of scanning the messages: checked on SQLite's query plans.
 */
describe('query plans', () => {
  let sqlite: SQLite.Database;
  let repo: MessageRepo;
  const ran: CompiledQuery[] = [];

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-plans-'));
    const opened = openDb({ dataDir });
    await migrate(opened);
    await opened.close();
    sqlite = new SQLite(path.join(dataDir, 'sparrow.db'));
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => void ran.push(event.query),
    });
    repo = new MessageRepo(db, 'sqlite');
  });
  afterAll(() => sqlite.close());

  /** The plan lines of every query `fn` runs. */
  async function plans(fn: () => Promise<unknown>): Promise<string[]> {
    ran.length = 0;
    await fn();
    return ran.flatMap((q) =>
      sqlite
        .prepare(`explain query plan ${q.sql}`)
        .all(...(q.parameters as unknown[]))
        .map((r) => (r as { detail: string }).detail),
    );
  }

  const scansMessages = (lines: string[]) => lines.filter((l) => /^SCAN m\b|messages_to \(chat_type=\?\)$/.test(l));

  it('sync reads each of my chats from the cursor on', async () => {
    const lines = await plans(() => repo.since(7, 1000, 50));
    expect(scansMessages(lines)).toEqual([]);
    expect(lines).toContain('SEARCH m USING INDEX messages_to (chat_type=? AND to_id=? AND id>?)');
    expect(lines).toContain('SEARCH m USING INDEX messages_from (from_user=? AND id>?)');
  });

  it('the conversation list reads the newest message and the unread ones of each chat by index', async () => {
    const lines = await plans(() => repo.viewsOf(7));
    expect(scansMessages(lines)).toEqual([]);
    expect(lines.filter((l) => l.includes('messages_chat (chat_key=? AND id>?)'))).toHaveLength(2);
  });

  it('a page of a chat reads that chat only', async () => {
    const lines = await plans(() =>
      repo.list({ userId: 7, chatKey: 'p:7:8', floor: 0 }, { limit: 20, offset: 0, lastId: 500 }),
    );
    expect(scansMessages(lines)).toEqual([]);
    expect(lines.some((l) => l.includes('messages_chat (chat_key=?'))).toBe(true);
  });
});
