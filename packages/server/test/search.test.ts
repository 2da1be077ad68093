import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KEYWORDS_MAX, PAGE_LIMIT_MAX } from '@sparrow/protocol';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb } from '../src/db';
import { accounts } from '../src/db/migrations/001-accounts';
import { friends as friendsTables } from '../src/db/migrations/002-friends';
import { chat } from '../src/db/migrations/003-chat';
import { groupAvatar } from '../src/db/migrations/004-group-avatar';
import { files } from '../src/db/migrations/005-files';
import { memberVersion } from '../src/db/migrations/006-member-version';
import { moments } from '../src/db/migrations/007-moments';
import { search as searchMigration } from '../src/db/migrations/008-search';
import { messageOutbox } from '../src/db/migrations/017-message-outbox';
import { searchIndex } from '../src/db/migrations/019-search-index';
import { retention } from '../src/db/migrations/031-retention';
import { SearchRepo } from '../src/modules/im/search-repo';
import { MessageStoreRepo } from '../src/modules/im/store-repo';
import { describeEachDb, expectBadBodies, MISSING, signUp, startServer, type TestServer } from './harness';

type User = Awaited<ReturnType<typeof signUp>>;
type Hit = { msg_id: number; content: string; type: string; highlight: Array<[number, number]>; contactInfo: any };

const DAY = 86_400_000;

/**
 * searchMessage (issue 21): the trigram index finds Chinese inside words, English words and the
 * names in file, place and card messages; a reader never finds what they cannot read; the filters,
 * paging, highlights and short words. Then getMessageList's around_id and time range.
 */
describeEachDb('search', (target) => {
  let server: TestServer;
  let n = 0;
  const fresh = (name: string, realname = `${name}${n + 1}`) => signUp(server, `${name}${++n}s`, 'secret123', realname);

  beforeAll(async () => {
    server = await startServer(target);
    for (const [k, v] of [
      ['sysInfo.runMode', '2'],
      ['chatInfo.simpleChat', '1'],
      ['chatInfo.redoTime', '86400'],
      ['chatInfo.dbDelMsg', '1'],
      ['chatInfo.sendInterval', '0'],
    ] as const) {
      await server.ctx.config.set(k, v);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  async function friends(a: User, b: User) {
    await server.call('friendAdd', { user_id: b.userId }, { token: a.token });
    await server.call('friendAdd', { user_id: a.userId }, { token: b.token });
  }
  async function send(from: User, to: number | string, content: string, extra: Record<string, unknown> = {}) {
    const res = await server.call(
      'sendMessage',
      { id: randomUUID(), toContactId: to, is_group: typeof to === 'string' ? 1 : 0, type: 'text', content, ...extra },
      { token: from.token },
    );
    expect(res.code, res.msg).toBe(0);
    return res.data.msg_id as number;
  }
  async function sendFile(from: User, to: number | string, name: string) {
    const res = await server.upload(
      'uploadFile',
      { name, bytes: Buffer.from(`the contents of ${name}\n`) },
      {
        token: from.token,
        fields: { message: JSON.stringify({ id: randomUUID(), toContactId: to, type: 'file', content: '' }) },
      },
    );
    expect(res.json.code, res.json.msg).toBe(0);
    return res.json.data.msg_id as number;
  }
  async function group(owner: User, members: User[], history = 1) {
    for (const m of members) await friends(owner, m);
    const res = await server.call('groupAdd', { user_ids: members.map((m) => m.userId) }, { token: owner.token });
    expect(res.code).toBe(0);
    const gid = res.data.id as string;
    await server.call('groupSetting', { id: gid, setting: { history } }, { token: owner.token });
    return gid;
  }
  async function search(u: User, keywords: string, extra: Record<string, unknown> = {}) {
    const res = await server.call('searchMessage', { keywords, ...extra }, { token: u.token });
    expect(res.code, res.msg).toBe(0);
    return { hits: res.data as Hit[], count: res.count as number };
  }
  const ids = async (u: User, keywords: string, extra: Record<string, unknown> = {}) =>
    (await search(u, keywords, extra)).hits.map((h) => h.msg_id);

  it('finds Chinese inside words, English words and the names in file, place and card messages, newest first', async () => {
    const amy = await fresh('amy');
    const ben = await fresh('ben');
    const cat = await fresh('cat', 'Coffee Catherine');
    await friends(amy, ben);
    await friends(amy, cat);
    const thirsty = await send(amy, ben.userId, '我想喝咖啡了');
    const place = await send(amy, ben.userId, '', {
      type: 'location',
      extends: { name: '外滩咖啡馆', address: '上海市黄浦区中山东一路18号', latitude: 31.24, longitude: 121.49 },
    });
    const notes = await send(ben, amy.userId, 'Meeting notes for the QUARTERLY review');
    const file = await sendFile(amy, ben.userId, 'quarterly-budget.txt');
    const card = await send(amy, ben.userId, '', { type: 'contact', extends: { id: cat.userId } });

    // Two characters: below a trigram, found by the bounded scan.
    const coffee = await search(amy, '咖啡');
    expect(coffee.hits.map((h) => h.msg_id)).toEqual([place, thirsty]);
    expect(coffee.count).toBe(2);
    const byId = new Map(coffee.hits.map((h) => [h.msg_id, h]));
    expect(byId.get(thirsty)).toMatchObject({ content: '我想喝咖啡了', highlight: [[3, 5]] });
    expect(byId.get(place)).toMatchObject({ content: '[位置] 外滩咖啡馆', highlight: [[7, 9]] });
    expect(byId.get(thirsty)!.contactInfo).toMatchObject({ id: ben.userId, is_group: 0 });
    // Ben reads the same messages under amy's conversation.
    expect((await search(ben, '咖啡')).hits.map((h) => [h.msg_id, h.contactInfo.id])).toEqual([
      [place, amy.userId],
      [thirsty, amy.userId],
    ]);

    // Three characters and more: through the trigram index.
    expect(await ids(amy, '咖啡馆')).toEqual([place]);
    expect(await ids(amy, '中山东一路')).toEqual([place]);
    const quarterly = await search(amy, 'quarterly');
    expect(quarterly.hits.map((h) => h.msg_id)).toEqual([file, notes]);
    expect(quarterly.hits[1]!.highlight).toEqual([[22, 31]]);
    expect(quarterly.hits[0]).toMatchObject({ type: 'file', extends: { name: 'quarterly-budget.txt' } });
    expect(await ids(amy, 'budget.txt')).toEqual([file]);
    const named = await search(amy, 'catherine');
    expect(named.hits.map((h) => [h.msg_id, h.content, h.highlight])).toEqual([
      [card, '[个人名片] Coffee Catherine', [[14, 23]]],
    ]);
    // Every word must be there, in any order; a word of a label finds nothing.
    expect(await ids(amy, 'review meeting')).toEqual([notes]);
    expect(await ids(amy, 'review coffee')).toEqual([]);
    expect(await ids(amy, '个人名片')).toEqual([]);
    // One character, and the highlight of each occurrence.
    const one = await search(amy, '喝');
    expect(one.hits.map((h) => [h.msg_id, h.highlight])).toEqual([[thirsty, [[2, 3]]]]);
    // LIKE's own wildcards are taken as they are.
    expect(await ids(amy, '%')).toEqual([]);
    expect(await ids(amy, '_')).toEqual([]);
  });

  it('finds a word from its start, folding case, accents and width; Chinese by its pairs; what has no letters as it is', async () => {
    const dan = await fresh('dan');
    const eve = await fresh('eve');
    await friends(dan, eve);
    const cafe = await send(dan, eve.userId, 'Meet me at the Café Crème on Friday');
    const wide = await send(eve, dan.userId, 'ＣＡＦＥ ＯＰＥＮ 全角文字');
    const phone = await send(dan, eve.userId, '新买的iPhone15手机壳到了');
    const kana = await send(eve, dan.userId, 'コーヒーを飲みましょう');
    const korean = await send(dan, eve.userId, '커피 한잔 할래요');
    const thumbs = await send(eve, dan.userId, '好的 👍👍');
    // Latin words: whole or from their start, case, accents and width aside; never from inside.
    expect(await ids(dan, 'cafe')).toEqual([wide, cafe]);
    expect(await ids(dan, 'CRÈME')).toEqual([cafe]);
    expect(await ids(dan, 'fri')).toEqual([cafe]);
    expect(await ids(dan, 'riday')).toEqual([]);
    expect(await ids(dan, 'open caf')).toEqual([wide]);
    // Chinese, Japanese and Korean by their pairs of characters, anywhere in a run.
    expect(await ids(dan, '全角')).toEqual([wide]);
    expect(await ids(dan, '角')).toEqual([wide]);
    expect(await ids(dan, '手机壳')).toEqual([phone]);
    expect(await ids(dan, '壳手机')).toEqual([]);
    expect(await ids(dan, 'iphone15手机')).toEqual([phone]);
    expect(await ids(dan, 'iphone15')).toEqual([phone]);
    expect(await ids(dan, 'ヒーを')).toEqual([kana]);
    expect(await ids(dan, '한잔')).toEqual([korean]);
    // No letters or digits: looked for as typed among the reader's own messages.
    expect(await ids(dan, '👍')).toEqual([thumbs]);
    expect(await ids(dan, '好的 👍')).toEqual([thumbs]);
  });

  it('never finds what the reader cannot see', async () => {
    const [own, mate, filler, stranger, newcomer, oldcomer, leaver] = [
      await fresh('own'),
      await fresh('filler'),
      await fresh('mate'),
      await fresh('stranger'),
      await fresh('newcomer'),
      await fresh('oldcomer'),
      await fresh('leaver'),
    ];
    await friends(own, mate);
    const withdrawn = await send(own, mate.userId, '撤回的秘密口令');
    expect((await server.call('undoMessage', { id: withdrawn }, { token: own.token })).code).toBe(0);
    const deleted = await send(own, mate.userId, '删除的秘密口令');
    expect((await server.call('delMessage', { id: deleted }, { token: own.token })).code).toBe(0);
    const hidden = await send(own, mate.userId, '隐藏的秘密口令');
    expect((await server.call('removeMessage', { id: hidden }, { token: mate.token })).code).toBe(0);

    const closed = await group(own, [mate, leaver], 0);
    const open = await group(own, [mate, filler], 1);
    const before = await send(own, closed, '入群前的秘密口令');
    const openBefore = await send(own, open, '公开群的秘密口令');
    const whileIn = await send(leaver, closed, '退群者的秘密口令');
    await friends(own, newcomer);
    await friends(own, oldcomer);
    await server.call('addGroupUser', { id: closed, user_ids: [newcomer.userId] }, { token: own.token });
    await server.call('addGroupUser', { id: open, user_ids: [oldcomer.userId] }, { token: own.token });
    expect(
      (await server.call('removeUser', { id: closed, user_id: leaver.userId }, { token: leaver.token })).code,
    ).toBe(0);
    const after = await send(own, closed, '入群后的秘密口令');

    const cleared = await group(own, [mate, filler], 1);
    await send(own, cleared, '清空前的秘密口令');
    expect((await server.call('clearMessage', { id: cleared }, { token: own.token })).code).toBe(0);

    for (const words of ['秘密口令', '口令']) {
      // The sender sees what is not withdrawn, deleted or cleared, hidden by the other side included.
      expect(await ids(own, words)).toEqual([after, whileIn, openBefore, before, hidden]);
      expect(await ids(mate, words)).toEqual([after, whileIn, openBefore, before]);
      // History hidden from new members: only from the join on; a group showing it: all of it.
      expect(await ids(newcomer, words)).toEqual([after]);
      expect(await ids(oldcomer, words)).toEqual([openBefore]);
      // A group left: nothing of it, not even one's own messages there.
      expect(await ids(leaver, words)).toEqual([]);
      expect(await ids(stranger, words)).toEqual([]);
      // A conversation named by a stranger is refused as a missing one.
      const refused = await server.call(
        'searchMessage',
        { keywords: words, toContactId: closed },
        { token: stranger.token },
      );
      const missing = await server.call(
        'searchMessage',
        { keywords: words, toContactId: 'group-999999999' },
        { token: stranger.token },
      );
      expect(refused.code).not.toBe(0);
      expect([refused.code, refused.msg]).toEqual([missing.code, missing.msg]);
    }
    // A withdrawn message's event line says who withdrew it; it is not found by that either.
    expect(await ids(own, '撤回')).toEqual([]);
  });

  it('filters by conversation, sender, kind and time, and pages with the count of all matches', async () => {
    const ann = await fresh('ann');
    const bob = await fresh('bob');
    const cid = await fresh('cid');
    await friends(ann, bob);
    const gid = await group(ann, [bob, cid]);
    const start = server.clock.now();
    const toBob: number[] = [];
    for (let i = 0; i < 5; i++) toBob.push(await send(ann, bob.userId, `weekly sync ${i}`));
    server.clock.advance(2 * DAY);
    const inGroup = [await send(bob, gid, 'weekly sync in the group'), await send(cid, gid, 'weekly sync, by cid')];
    const place = await send(ann, gid, '', {
      type: 'location',
      extends: { name: 'Weekly Sync Room', address: '', latitude: 1, longitude: 2 },
    });

    expect(await ids(ann, 'weekly sync', { toContactId: bob.userId })).toEqual(toBob.toReversed());
    expect(await ids(ann, 'weekly sync', { toContactId: gid, is_group: 1 })).toEqual([place, ...inGroup.toReversed()]);
    expect(await ids(ann, 'weekly sync', { from_user: cid.userId })).toEqual([inGroup[1]]);
    expect(await ids(ann, 'weekly sync', { type: 'location' })).toEqual([place]);
    expect(await ids(ann, 'weekly sync', { start_time: start, end_time: start + DAY })).toEqual(toBob.toReversed());
    expect(await ids(ann, 'weekly sync', { start_time: start + DAY })).toEqual([place, ...inGroup.toReversed()]);

    const all = [place, ...inGroup.toReversed(), ...toBob.toReversed()];
    const pages: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const { hits, count } = await search(ann, 'weekly', { page, limit: 3 });
      expect(count).toBe(all.length);
      pages.push(...hits.map((h) => h.msg_id));
    }
    expect(pages).toEqual(all);
    // Past the last page: nothing, and still the count of all.
    expect(await search(ann, 'weekly', { page: 4, limit: 3 })).toEqual({ hits: [], count: all.length });
    // A word is found from its start, as it is being typed, and not from inside it.
    expect((await search(ann, 'wee', { limit: 3, page: 2 })).hits.map((h) => h.msg_id)).toEqual(all.slice(3, 6));
    expect(await ids(ann, 'ly')).toEqual([]);
    // A group's hit carries the group as the reader's list shows it.
    const [groupHit] = (await search(ann, 'weekly', { toContactId: gid, is_group: 1, limit: 1 })).hits;
    expect(groupHit!.contactInfo).toMatchObject({ id: gid, is_group: 1 });
  });

  it('refuses bad input with the envelope, in the caller’s language', async () => {
    const eve = await fresh('eve');
    await expectBadBodies(
      server,
      'searchMessage',
      { keywords: 'coffee' },
      [
        { field: 'keywords', value: MISSING, key: 'validation.required' },
        { field: 'keywords', value: '   ', key: 'validation.required' },
        {
          field: 'keywords',
          value: 'x'.repeat(KEYWORDS_MAX + 1),
          key: 'validation.tooLong',
          params: { max: KEYWORDS_MAX },
        },
        { field: 'type', value: 'image', key: 'validation.invalid' },
        { field: 'type', value: ['text'], key: 'validation.invalid' },
        { field: 'toContactId', value: 'group-x', key: 'validation.invalid' },
      ],
      { token: eve.token },
    );
    // Fields without a label of their own: the same envelope, naming the field.
    for (const [field, value] of [
      ['limit', PAGE_LIMIT_MAX + 1],
      ['page', 'first'],
      ['from_user', 'bob'],
      ['start_time', -1],
    ] as const) {
      const res = await server.call(
        'searchMessage',
        { keywords: 'coffee', [field]: value },
        { token: eve.token, lang: 'en' },
      );
      expect([res.code, res.data.fields, typeof res.msg], field).toEqual([400, [field], 'string']);
    }
    const reversed = await server.call(
      'searchMessage',
      { keywords: 'a', start_time: 10, end_time: 5 },
      { token: eve.token },
    );
    expect([reversed.code, reversed.data.fields]).toEqual([400, ['end_time']]);
    const signedOut = await server.call('searchMessage', { keywords: 'coffee' });
    expect(signedOut.code).toBe(-1);
  });

  it('opens a chat around a message, refusing one the reader cannot see as a missing one', async () => {
    const ida = await fresh('ida');
    const jon = await fresh('jon');
    const kim = await fresh('kim');
    await friends(ida, jon);
    await friends(ida, kim);
    await friends(jon, kim);
    const sent: number[] = [];
    for (let i = 0; i < 30; i++) sent.push(await send(i % 2 ? jon : ida, i % 2 ? ida.userId : jon.userId, `line ${i}`));
    const page = async (u: User, body: Record<string, unknown>) =>
      server.call('getMessageList', { toContactId: jon.userId, is_group: 0, ...body }, { token: u.token });

    const around = await page(ida, { around_id: sent[15], limit: 10 });
    expect(around.code).toBe(0);
    expect(around.data.map((m: any) => m.msg_id)).toEqual(sent.slice(11, 21));
    expect(around.count).toBe(30);
    // Near the start there is less before it.
    expect((await page(ida, { around_id: sent[1], limit: 10 })).data.map((m: any) => m.msg_id)).toEqual(
      sent.slice(0, 7),
    );
    // From there the client loads both ways with the cursors.
    expect((await page(ida, { after_id: sent[20], limit: 3 })).data.map((m: any) => m.msg_id)).toEqual(
      sent.slice(21, 24),
    );

    const missing = await page(ida, { around_id: 999_999_999 });
    expect(missing.code).not.toBe(0);
    const hidden = sent[3]!;
    await server.call('removeMessage', { id: hidden }, { token: ida.token });
    const elsewhere = await send(ida, kim.userId, 'another chat');
    const strangers = await send(jon, kim.userId, 'not ida’s');
    for (const around_id of [hidden, elsewhere, strangers]) {
      const res = await page(ida, { around_id });
      expect([res.code, res.msg], `around ${around_id}`).toEqual([missing.code, missing.msg]);
    }
  });

  it('picks a day of a chat by time, from its first message on', async () => {
    const lia = await fresh('lia');
    const max = await fresh('max');
    await friends(lia, max);
    const dayOne = server.clock.now();
    const first = [await send(lia, max.userId, 'monday a'), await send(max, lia.userId, 'monday b')];
    server.clock.advance(DAY);
    const dayTwo = server.clock.now();
    const second = [];
    for (let i = 0; i < 4; i++) second.push(await send(lia, max.userId, `tuesday ${i}`));
    server.clock.advance(DAY);
    const third = await send(lia, max.userId, 'wednesday');
    const page = (body: Record<string, unknown>) =>
      server.call('getMessageList', { toContactId: max.userId, is_group: 0, ...body }, { token: lia.token });

    const tuesday = await page({ start_time: dayTwo, end_time: dayTwo + DAY - 1, limit: 3 });
    expect(tuesday.data.map((m: any) => m.msg_id)).toEqual(second.slice(0, 3));
    expect(tuesday.count).toBe(4);
    // A start alone: the first messages from that day on, oldest first.
    expect((await page({ start_time: dayTwo, limit: 5 })).data.map((m: any) => m.msg_id)).toEqual([...second, third]);
    // An end alone: the newest messages up to it.
    expect((await page({ end_time: dayOne + DAY - 1, limit: 5 })).data.map((m: any) => m.msg_id)).toEqual(first);
    expect((await page({ start_time: dayTwo + 3 * DAY })).data).toEqual([]);
  });

  it('finds the messages stored before the index was made, once migration 008 has filled it and 019 has moved it off the send', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-backfill-'));
    let databaseUrl: string | undefined;
    const name = `sparrow_backfill_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = () => new pg.Client({ connectionString: process.env.DATABASE_URL });
    if (target === 'postgres') {
      const c = admin();
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    const opened = openDb({ dataDir, databaseUrl });
    const { db, dialect } = opened;
    // Migrations take a database of any schema.
    const schema = db as unknown as Kysely<unknown>;
    try {
      for (const m of [
        accounts(dialect),
        friendsTables(dialect),
        chat(dialect),
        groupAvatar(),
        files(dialect),
        memberVersion(),
        moments(dialect),
      ])
        await m.up(schema);
      const row = (i: number, type: string, content: string, ext = '{}', undo = 0) => ({
        client_id: `c${i}`,
        from_user: 1,
        chat_type: 0,
        to_id: 2,
        chat_key: 'p:1:2',
        type,
        content,
        extends: ext,
        create_time: i,
        is_undo: undo,
        is_deleted: 0,
        at: '[]',
        pid: 0,
        file_id: 0,
      });
      await db
        .insertInto('messages')
        .values([
          row(1, 'text', '我想喝咖啡了'),
          row(2, 'location', '[位置] 外滩咖啡馆', JSON.stringify({ name: '外滩咖啡馆', address: '中山东一路18号' })),
          row(3, 'file', '/storage/x', JSON.stringify({ name: 'quarterly-budget.txt' })),
          row(4, 'contact', '[个人名片] Coffee Cat', JSON.stringify({ id: 3, displayName: 'Coffee Cat' })),
          row(5, 'text', '撤回的咖啡馆', '{}', 1),
          row(6, 'location', '[位置] 旧咖啡馆', 'not json'),
        ])
        .execute();
      await searchMigration(dialect).up(schema);
      // Migration 019 takes the index off the send; what 008 indexed stays found.
      await messageOutbox().up(schema);
      await searchIndex(dialect).up(schema);
      // A send reads whether its file was freed (migration 031).
      await retention().up(schema);
      const repo = new SearchRepo(db, dialect);
      const store = new MessageStoreRepo(db, dialect);
      const found = async (word: string) => {
        const { rows } = await repo.search(1, { ids: [], hidingHistory: [] }, [word], {}, { limit: 20, offset: 0 });
        return rows.map((r) => r.id);
      };
      expect(await found('咖啡馆')).toEqual([2]);
      expect(await found('咖啡')).toEqual([2, 1]);
      expect(await found('中山东一路')).toEqual([2]);
      expect(await found('budget')).toEqual([3]);
      expect(await found('Coffee')).toEqual([4]);
      // What the migration stores is what a send stores from now on, found once the indexer has passed it.
      const { row: stored } = await store.store(row(7, 'text', '新的咖啡馆消息'), [], 0);
      expect(await found('咖啡馆')).toEqual([2]);
      expect(await repo.indexForSearch(100, true)).toBe(1);
      expect(await found('咖啡馆')).toEqual([stored.id, 2]);
    } finally {
      await opened.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (databaseUrl) {
        const c = admin();
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      }
    }
  });
});
