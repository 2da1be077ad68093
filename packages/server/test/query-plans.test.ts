import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Database } from '../src/db';
import { ConversationRepo } from '../src/modules/im/conversation-repo';
import { HistoryRepo } from '../src/modules/im/history-repo';
import { ReceiptRepo } from '../src/modules/im/receipts-repo';
import { MessageRepo } from '../src/modules/im/repo';
import { SearchRepo } from '../src/modules/im/search-repo';
import { MomentRepo } from '../src/modules/moments/repo';
import { FileRepo } from '../src/modules/upload/repo';
import { DepartmentRepo } from '../src/modules/user';

/**
 * The reads that grow with a server's history walk indexes from a bound (a cursor, a chat, a read
 * position) instead of scanning the messages: checked on SQLite's query plans.
 */
describe('query plans', () => {
  let sqlite: SQLite.Database;
  let history: HistoryRepo;
  let conversations: ConversationRepo;
  let search: SearchRepo;
  let moments: MomentRepo;
  let departments: DepartmentRepo;
  let files: FileRepo;
  let messages: MessageRepo;
  let receipts: ReceiptRepo;
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
    history = new HistoryRepo(db, 'sqlite');
    conversations = new ConversationRepo(db);
    search = new SearchRepo(db, 'sqlite');
    moments = new MomentRepo(db);
    departments = new DepartmentRepo(db);
    files = new FileRepo(db);
    messages = new MessageRepo(db);
    receipts = new ReceiptRepo(db);
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

  it('departments count their people and are deleted only when empty through users_dep, not a scan of users', async () => {
    for (const fn of [() => departments.list(), () => departments.removeIfEmpty(3)]) {
      const lines = await plans(fn);
      expect(lines.filter((l) => /^SCAN u\b/.test(l))).toEqual([]);
      expect(lines.some((l) => l.includes('USING COVERING INDEX users_dep (dep_id=?)'))).toBe(true);
    }
  });

  const scansMessages = (lines: string[]) => lines.filter((l) => /^SCAN m\b|messages_to \(chat_type=\?\)$/.test(l));

  it('sync reads each of my chats from the cursor on', async () => {
    const lines = await plans(() => history.since(7, 1000, 50));
    expect(scansMessages(lines)).toEqual([]);
    expect(lines).toContain('SEARCH m USING INDEX messages_to (chat_type=? AND to_id=? AND id>?)');
    expect(lines).toContain('SEARCH m USING INDEX messages_from (from_user=? AND id>?)');
  });

  it('the conversation list reads the newest message and the unread ones of each chat by index', async () => {
    const lines = await plans(() => conversations.viewsOf(7));
    expect(scansMessages(lines)).toEqual([]);
    expect(lines.filter((l) => l.includes('messages_chat (chat_key=? AND id>?)'))).toHaveLength(2);
  });

  it('a moments feed page reads the reader’s own timeline by key, in order, whatever else is posted', async () => {
    for (const beforeId of [0, 500]) {
      const lines = await plans(() => moments.feed(7, { beforeId, limit: 10, now: Date.now() }));
      expect(lines[0]).toBe(`SEARCH tl USING PRIMARY KEY (user_id=?${beforeId ? ' AND post_id<?' : ''})`);
      expect(lines.filter((l) => /^SCAN |TEMP B-TREE/.test(l))).toEqual([]);
      expect(lines).toContain('SEARCH p USING INTEGER PRIMARY KEY (rowid=?)');
    }
  });

  it('a page of a chat reads that chat only', async () => {
    const lines = await plans(() =>
      history.list({ userId: 7, chatKey: 'p:7:8', floor: 0 }, { limit: 20, offset: 0, lastId: 500 }),
    );
    expect(scansMessages(lines)).toEqual([]);
    expect(lines.some((l) => l.includes('messages_chat (chat_key=?'))).toBe(true);
  });

  it('a page from a day on finds that day in the chat by time, not by reading the chat from its start', async () => {
    const day = 1_700_000_000_000;
    sqlite
      .prepare(
        `insert into messages (client_id, from_user, chat_type, to_id, chat_key, type, content, create_time)
         values ('plan-day', 7, 1, 8, 'p:7:8', 'text', 'hi', ?)`,
      )
      .run(day + 1000);
    const lines = await plans(() =>
      history.list({ userId: 7, chatKey: 'p:7:8', floor: 0 }, { limit: 20, offset: 0, startTime: day }),
    );
    expect(scansMessages(lines)).toEqual([]);
    expect(lines.filter((l) => l.includes('TEMP B-TREE'))).toEqual([]);
    // The count and the day's first message by time, then the page from that message on by id.
    expect(lines).toContain('SEARCH m USING INDEX messages_chat_time (chat_key=? AND create_time>?)');
    expect(lines).toContain('SEARCH messages USING COVERING INDEX messages_chat_time (chat_key=? AND create_time>?)');
    expect(lines).toContain('SEARCH m USING INDEX messages_chat (chat_key=? AND id>?)');
    expect(ran.at(-1)?.sql).toMatch(/"m"\."id" >= \?/);
  });

  it('freeing a file asks which live messages carry it through messages_file, not a scan of the messages', async () => {
    const file = sqlite
      .prepare(
        `insert into files (hash, ext, mime, size, cate, width, height, create_time, storage_key)
         values ('plan-free', 'png', 'image/png', 1, 2, 1, 1, 0, 'ab/plan.png')`,
      )
      .run();
    const fileId = Number(file.lastInsertRowid);
    for (const fn of [
      () => files.freeIfUnused(fileId, '/storage/ab/plan.png', 1),
      () => messages.liveIdsWithFile(fileId, 10),
    ]) {
      const lines = await plans(fn);
      expect(lines.filter((l) => /^SCAN messages\b/.test(l))).toEqual([]);
      expect(lines.some((l) => l.startsWith('SEARCH messages USING INDEX messages_file (file_id=?)'))).toBe(true);
    }
  });

  it('a search asks the word index for its words among my chats, and reads my own chats only for what it cannot index', async () => {
    const page = { limit: 20, offset: 0 };
    for (const terms of [['咖啡馆'], ['meeting'], ['咖啡'], ['咖'], ['budget.txt']]) {
      const lines = await plans(() => search.search(7, { ids: [3], hidingHistory: [3] }, terms, {}, page));
      expect(scansMessages(lines)).toEqual([]);
      expect(lines).toContain('SCAN message_words VIRTUAL TABLE INDEX 0:M1');
    }
    const emoji = await plans(() => search.search(7, { ids: [3], hidingHistory: [3] }, ['👍'], {}, page));
    expect(scansMessages(emoji)).toEqual([]);
    expect(emoji).toContain('SEARCH m USING INDEX messages_to (chat_type=? AND to_id=?)');
    expect(emoji).toContain('SEARCH m USING INDEX messages_from (from_user=?)');
  });

  it('group read receipts read each member’s position by its conversation’s key, and the senders a read passed from the chat’s index', async () => {
    const lines = await plans(() => receipts.positions(3, 'g:3', 7));
    expect(lines.some((l) => /^SEARCH gm USING INDEX \S+ \(group_id=\?/.test(l))).toBe(true);
    expect(lines).toContain('SEARCH c USING INDEX sqlite_autoindex_conversations_1 (user_id=? AND chat_key=?)');
    expect(lines.filter((l) => /^SCAN (c|conversations)\b/.test(l))).toEqual([]);
    const senders = await plans(() =>
      receipts.sendersIn(3, 'g:3', 7, { after: 10, upTo: 90 }, { scan: 500, limit: 50, sharing: true }),
    );
    expect(scansMessages(senders)).toEqual([]);
    expect(senders.some((l) => l.includes('messages_chat (chat_key=? AND id>? AND id<?)'))).toBe(true);
  });
});
