import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type OpenedDb } from '../src/db';
import { pairKey, type NewMessage } from '../src/modules/im/repo';
import { SearchRepo } from '../src/modules/im/search-repo';
import { MessageStoreRepo } from '../src/modules/im/store-repo';
import { termQuery, whoTokens, wordTokens } from '../src/modules/im/search-text';
import { SEARCH_BATCH } from '../src/modules/im/search-index';
import { createPgDatabase, describeEachDb, signUp, startServer, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;

/**
 * Search is indexed after the commit (issue 34, migration 019): a send writes nothing to the
 * index; the background indexer has a message within a second, and a search has every message
 * stored before it; withdrawals and deletions leave the index whether they come before the
 * indexer or after it; a process that stops before indexing loses nothing.
 */
describeEachDb('search index', (target) => {
  let server: TestServer;
  let n = 0;
  let amy: User;
  let ben: User;

  beforeAll(async () => {
    server = await startServer(target);
    await server.ctx.config.set('chatInfo.sendInterval', '0');
    amy = await signUp(server, `amy${++n}i`, 'secret123');
    ben = await signUp(server, `ben${++n}i`, 'secret123');
    await server.call('friendAdd', { user_id: ben.userId }, { token: amy.token });
    await server.call('friendAdd', { user_id: amy.userId }, { token: ben.token });
  });
  afterAll(async () => {
    await server.close();
  });

  async function send(content: string): Promise<number> {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: ben.userId, type: 'text', content },
      { token: amy.token },
    );
    expect(res.code, res.msg).toBe(0);
    return res.data.msg_id as number;
  }
  const found = async (keywords: string) => {
    const res = await server.call('searchMessage', { keywords }, { token: amy.token });
    expect(res.code, res.msg).toBe(0);
    return (res.data as Array<{ msg_id: number }>).map((h) => h.msg_id);
  };
  /** Whether the index holds a message, asked of the index itself (on SQLite by one of its tokens) and not through a search. */
  const inIndex = async (id: number, word: string) => {
    const { db, dialect } = server.ctx;
    const { rows } =
      dialect === 'postgres'
        ? await sql<{ id: number }>`select msg_id as id from message_search where msg_id = ${id}`.execute(db)
        : await sql<{
            id: number;
          }>`select rowid as id from message_words where message_words match ${`"${word}"`}`.execute(db);
    // Not `rowid = ?` beside MATCH: a contentless FTS5 table answers a rowid lookup for any rowid.
    return rows.some((r) => Number(r.id) === id);
  };
  const backlog = () => server.ctx.repos.search.searchBacklog();

  it('a send writes nothing to the index, and the background indexer has the message within a second', async () => {
    const id = await send('周末去爬山吗');
    // This server indexes only before searches until the background run is started below.
    expect(await inIndex(id, '爬山')).toBe(false);
    expect((await backlog()).through).toBeLessThan(id);
    const t0 = Date.now();
    server.services.search.start(100);
    while (!(await inIndex(id, '爬山')) && Date.now() - t0 < 2000) await new Promise((r) => setTimeout(r, 20));
    const took = Date.now() - t0;
    expect(await inIndex(id, '爬山')).toBe(true);
    expect(took).toBeLessThan(1000);
    expect(await backlog()).toEqual({ through: id, newest: id });
    await server.services.search.stop();
  });

  it('a search finds every message stored before it, indexed or not', async () => {
    const first = await send('今晚的音乐会');
    expect(await found('音乐会')).toEqual([first]);
    const second = await send('明晚的音乐会');
    expect(await inIndex(second, '音乐')).toBe(false);
    expect(await found('音乐会')).toEqual([second, first]);
    expect(await inIndex(second, '音乐')).toBe(true);
  });

  it('a message withdrawn or deleted before the indexer comes is never indexed, and one after it leaves the index', async () => {
    const early = await send('早到的火锅店');
    expect(await found('火锅店')).toEqual([early]);
    const late = await send('晚到的火锅店');
    const gone = await send('删掉的火锅店');
    // `early` is in the index; `late` and `gone` are not yet.
    expect((await server.call('undoMessage', { id: early }, { token: amy.token })).code).toBe(0);
    expect((await server.call('undoMessage', { id: late }, { token: amy.token })).code).toBe(0);
    expect((await server.call('delMessage', { id: gone }, { token: amy.token })).code).toBe(0);
    expect(await inIndex(early, '火锅')).toBe(false);
    expect(await found('火锅店')).toEqual([]);
    expect((await backlog()).through).toBeGreaterThanOrEqual(gone);
    for (const id of [early, late, gone]) expect(await inIndex(id, '火锅')).toBe(false);
  });

  it('indexes a backlog larger than one batch before the search that needs it', async () => {
    const { messageStore } = server.ctx.repos;
    const pair = pairKey(amy.userId, ben.userId);
    const count = SEARCH_BATCH * 2 + 17;
    for (let i = 0; i < count; i++)
      await messageStore.store(textRow(amy.userId, ben.userId, pair, `批量消息之${i}`), [], 0);
    expect((await backlog()).newest - (await backlog()).through).toBe(count);
    const res = await server.call('searchMessage', { keywords: '批量消息', limit: 1 }, { token: amy.token });
    expect(res.count).toBe(count);
    expect(await backlog()).toMatchObject({ through: (await backlog()).newest });
  });
});

describeEachDb('search index across a restart', (target) => {
  let opened: OpenedDb;
  let reopen: () => OpenedDb;
  let dropDb: (() => Promise<void>) | undefined;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-index-'));
    const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
    dropDb = pgDb?.drop;
    reopen = () => openDb({ dataDir, databaseUrl: pgDb?.url });
    opened = reopen();
    await migrate(opened);
  });
  afterAll(async () => {
    await opened.close();
    await dropDb?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a process that stops before indexing loses no entry: the next one goes on from where the index stopped', async () => {
    const store = new MessageStoreRepo(opened.db, opened.dialect);
    const repo = new SearchRepo(opened.db, opened.dialect);
    const first = await store.store(textRow(1, 2, pairKey(1, 2), '山顶的日出很美'), [], 0);
    expect(await repo.indexForSearch(SEARCH_BATCH, true)).toBe(1);
    const second = await store.store(textRow(1, 2, pairKey(1, 2), '山顶的日落也美'), [], 0);
    await opened.close();

    opened = reopen();
    const again = new SearchRepo(opened.db, opened.dialect);
    expect(await again.searchBacklog()).toEqual({ through: first.row.id, newest: second.row.id });
    expect(await again.indexForSearch(SEARCH_BATCH, true)).toBe(1);
    expect(await again.indexForSearch(SEARCH_BATCH, true)).toBe(0);
    const { rows } = await again.search(1, { ids: [], hidingHistory: [] }, ['山顶的'], {}, { limit: 10, offset: 0 });
    expect(rows.map((r) => r.id)).toEqual([second.row.id, first.row.id]);
  });
});

function textRow(from: number, to: number, chatKey: string, content: string): NewMessage {
  return {
    client_id: randomUUID(),
    from_user: from,
    chat_type: 0,
    to_id: to,
    chat_key: chatKey,
    type: 'text',
    content,
    extends: '{}',
    at: '[]',
    pid: 0,
    file_id: 0,
    is_undo: 0,
    is_deleted: 0,
    create_time: Date.now(),
  };
}

describe('search tokens', () => {
  it('cuts words, and runs of Chinese into their pairs with the last character alone', () => {
    expect(wordTokens('Meet me at the Café, OK?')).toEqual(['meet', 'me', 'at', 'the', 'cafe', 'ok']);
    expect(wordTokens('我想喝咖啡了')).toEqual(['我想', '想喝', '喝咖', '咖啡', '啡了', '了']);
    expect(wordTokens('新买的iPhone15手机壳')).toEqual(['新买', '买的', '的', 'iphone15', '手机', '机壳', '壳']);
    expect(wordTokens('ＣＡＦＥ 咖')).toEqual(['cafe', '咖']);
    expect(wordTokens('好的 好的 👍')).toEqual(['好的', '的']);
    expect(wordTokens('')).toEqual([]);
  });

  it('names who may find a message: both sides of a private chat, one side of my own, the group', () => {
    expect(whoTokens(0, 3, 9)).toEqual(['_u3', '_u9']);
    expect(whoTokens(3, 3, 3)).toEqual(['_u3']);
    expect(whoTokens(1, 3, 42)).toEqual(['_g42']);
  });

  it('asks for a word as a prefix, two characters as a pair, more by all their pairs, checked as typed', () => {
    expect(termQuery('Caf')).toEqual({ tokens: [{ token: 'caf', prefix: true }], recheck: false });
    expect(termQuery('咖')).toEqual({ tokens: [{ token: '咖', prefix: true }], recheck: false });
    expect(termQuery('咖啡')).toEqual({ tokens: [{ token: '咖啡', prefix: false }], recheck: false });
    expect(termQuery('咖啡馆')).toEqual({
      tokens: [
        { token: '咖啡', prefix: false },
        { token: '啡馆', prefix: false },
      ],
      recheck: true,
    });
    expect(termQuery('budget.txt')).toEqual({
      tokens: [
        { token: 'budget', prefix: true },
        { token: 'txt', prefix: true },
      ],
      recheck: true,
    });
    expect(termQuery('👍')).toBeUndefined();
    expect(termQuery('%_"\'')).toBeUndefined();
  });
});
