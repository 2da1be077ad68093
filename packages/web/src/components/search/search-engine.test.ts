import type { SearchHit } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api';
import { msg } from '../../chat/test-messages';
import { conversations, HITS_PAGE, HitSearch, PAGES_PER_MORE, readAll, type ReadHits } from './search-engine';

/** A hit in the private chat with user `from` (me = user 1). */
function hit(msgId: number, from: number): SearchHit {
  const m = msg(msgId, { from });
  return { ...m, contactInfo: { id: String(from) } as SearchHit['contactInfo'], highlight: [] };
}

type Asked = { body: Parameters<ReadHits>[0]; resolve(r: { data: SearchHit[]; count?: number }): void; reject(): void };

/** An engine whose searchMessage answers are given by hand. */
function harness() {
  const asked: Asked[] = [];
  const engine = new HitSearch(
    (body) =>
      new Promise((resolve, reject) => asked.push({ body, resolve, reject: () => reject(new Error('offline')) })),
    1,
  );
  return { engine, asked };
}

/** `n` hits from `chats` different people, newest first, ids from `top` down. */
const hits = (top: number, n: number, chats: number) =>
  Array.from({ length: n }, (_, i) => hit(top - i, 2 + (i % chats)));

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('HitSearch', () => {
  it('searches the words, and nothing for none', async () => {
    const { engine, asked } = harness();
    const done = engine.search('coffee');
    expect(engine.getState()).toEqual({ words: 'coffee', status: 'loading' });
    expect(asked[0]!.body).toEqual({ keywords: 'coffee', limit: HITS_PAGE });
    asked[0]!.resolve({ data: hits(10, 3, 2), count: 3 });
    await done;
    const s = engine.getState();
    expect(s).toMatchObject({ status: 'ready', total: 3, pages: 1, more: 'idle' });
    expect(readAll(s)).toBe(true);
    expect(conversations(s, 1).map((c) => [c.key, c.count])).toEqual([
      ['2', 2],
      ['3', 1],
    ]);
    await engine.search('');
    expect(engine.getState()).toEqual({ words: '', status: 'idle' });
  });

  it('drops the answer of a search no longer current, and fails the current one', async () => {
    const { engine, asked } = harness();
    const first = engine.search('tea');
    const second = engine.search('coffee');
    asked[1]!.reject();
    await second;
    asked[0]!.resolve({ data: hits(5, 1, 1) });
    await first;
    expect(engine.getState()).toEqual({ words: 'coffee', status: 'failed' });
  });

  it('reads on until enough conversations are found, a short page being the last', async () => {
    const { engine, asked } = harness();
    const first = engine.search('x');
    asked[0]!.resolve({ data: hits(1000, HITS_PAGE, 1), count: 250 });
    await first;
    expect(conversations(engine.getState(), 1)).toHaveLength(1);
    const more = engine.readUntil(3);
    expect(asked[1]!.body).toEqual({ keywords: 'x', limit: HITS_PAGE, page: 2 });
    asked[1]!.resolve({ data: hits(900, HITS_PAGE, 2), count: 250 });
    await tick();
    expect(asked[2]!.body.page).toBe(3);
    asked[2]!.resolve({ data: hits(800, 50, 3) });
    await more;
    const s = engine.getState();
    expect(s).toMatchObject({ status: 'ready', pages: 3, total: 250, more: 'idle' });
    expect(readAll(s)).toBe(true);
    expect(conversations(s, 1)).toHaveLength(3);
  });

  it('spends at most PAGES_PER_MORE pages on one "more", and stops at a failed page until asked again', async () => {
    const { engine, asked } = harness();
    const first = engine.search('x');
    asked[0]!.resolve({ data: hits(100_000, HITS_PAGE, 1), count: 100_000 });
    await first;
    const more = engine.readUntil(2);
    for (let i = 1; i <= PAGES_PER_MORE; i++) {
      await tick();
      asked[i]!.resolve({ data: hits(100_000 - i * HITS_PAGE, HITS_PAGE, 1), count: 100_000 });
    }
    await more;
    expect(asked).toHaveLength(1 + PAGES_PER_MORE);

    const failing = engine.readUntil(2);
    asked[1 + PAGES_PER_MORE]!.reject();
    await failing;
    expect(engine.getState()).toMatchObject({ more: 'failed' });
    void engine.readUntil(2);
    expect(engine.getState()).toMatchObject({ more: 'loading' });
  });

  it('asks each conversation count once a search, PARALLEL at a time, keeping "at least" on failure', async () => {
    const { engine, asked } = harness();
    const first = engine.search('x');
    asked[0]!.resolve({ data: hits(500, HITS_PAGE, 5), count: 300 });
    await first;
    const chats = conversations(engine.getState(), 1);
    expect(chats.every((c) => c.count === null)).toBe(true);
    const counting = engine.count(chats);
    void engine.count(chats);
    expect(asked).toHaveLength(1 + 4);
    expect(asked[1]!.body).toEqual({ keywords: 'x', toContactId: 2, is_group: 0, limit: 1 });
    for (const a of asked.slice(1, 4)) a.resolve({ data: [], count: 60 });
    asked[4]!.reject();
    await tick();
    asked[5]!.resolve({ data: [], count: 60 });
    await counting;
    expect(asked).toHaveLength(6);
    expect(conversations(engine.getState(), 1).map((c) => c.count)).toEqual([60, 60, 60, 20, 60]);
  });

  it('searches the messages stored on this device when the server cannot be reached, and says so', async () => {
    const stored: string[] = [];
    const engine = new HitSearch(
      () => Promise.reject(new ApiError('network', '')),
      1,
      (words) => {
        stored.push(words);
        return Promise.resolve([hit(9, 2), hit(7, 3), hit(5, 2)]);
      },
    );
    await engine.search('午开');
    const s = engine.getState();
    expect(stored).toEqual(['午开']);
    expect(s).toMatchObject({ status: 'ready', local: true, total: 3 });
    expect(readAll(s)).toBe(true);
    expect(conversations(s, 1).map((c) => [c.key, c.count, c.newest.msg_id])).toEqual([
      ['2', 2, 9],
      ['3', 1, 7],
    ]);
  });

  it('a refusal of the server is not answered from the device', async () => {
    let asked = 0;
    const engine = new HitSearch(
      () => Promise.reject(new ApiError('server', 'too many', 429)),
      1,
      () => {
        asked++;
        return Promise.resolve([]);
      },
    );
    await engine.search('x');
    expect(engine.getState()).toEqual({ words: 'x', status: 'failed' });
    expect(asked).toBe(0);
  });
});
