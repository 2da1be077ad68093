// Message search on one database (run by search.mjs under tsx: it uses the server's own
// repository). Seeds MESSAGES messages between USERS users, in private chats and in GROUPS groups,
// with a mix of Chinese and English text, file names, places and cards; then times
// SearchRepo.search (the query searchMessage runs) for random readers and words, beside LIKE over
// the same words and data with no index, and measures what the index costs a send: CPU per
// message stored through MessageStoreRepo.store and then indexed by the indexer's batches, beside
// CPU per message stored with no indexing, in alternating rounds.
//
// Seeding is bulk (the index is built once after the rows are in).
//
//   node --import tsx bench/search-db.mjs sqlite|postgres
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrate, openDb } from '../packages/server/src/db/index.ts';
import { SearchRepo } from '../packages/server/src/modules/im/search-repo.ts';
import { MessageStoreRepo } from '../packages/server/src/modules/im/store-repo.ts';
import { indexRows, insertIndexRows } from '../packages/server/src/db/search-index.ts';
import { SEARCH_BATCH } from '../packages/server/src/modules/im/search-index.ts';
import { queryTerms, searchText } from '../packages/server/src/modules/im/search-text.ts';
import { cleanup, cpuMs, createPgDatabase, fmt, percentile, table, verdict } from './lib.mjs';

const target = process.argv[2];
const MESSAGES = Number(process.env.SEARCH_MESSAGES ?? 1_000_000);
const USERS = 5000;
const GROUPS = 500;
const GROUP_SIZE = 40;
const ROUNDS = 200;
const PAGE = 20;
const SENDS = 1000;
const ROUNDS_OF_SENDS = 5;
const BATCH = 20_000;

let rand = 42;
const random = () => (rand = (rand * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = (n) => Math.floor(random() * n);
const one = (list) => list[pick(list.length)];

// Words people write: two-character Chinese words made of common characters, and English words.
const HANZI =
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严龙飞咖啡茶馆饭店';
const ENGLISH =
  'meeting review budget report quarterly invoice contract schedule coffee lunch dinner weekend project deadline release design draft final update launch customer server client browser mobile photo video travel hotel flight ticket office remote holiday birthday party music movie game football weather morning evening tomorrow yesterday please thanks sorry hello today later soon again address station airport market garden school hospital library museum bridge river mountain beach'.split(
    ' ',
  );
const WORDS = [];
for (let i = 0; i < 1500; i++) WORDS.push(HANZI[pick(HANZI.length)] + HANZI[pick(HANZI.length)]);
const PLACES = ['咖啡馆', '火锅店', '图书馆', '体育馆', '购物中心', 'Coffee House', 'Central Station', 'City Museum'];
const STREETS = ['中山东一路', '南京西路', '人民大道', '长安街', 'Market Street', 'Baker Street', 'Main Road'];
const EXTS = ['pdf', 'docx', 'xlsx', 'pptx', 'zip', 'txt'];

function chinese() {
  let s = '';
  for (let i = 3 + pick(8); i > 0; i--) s += one(WORDS) + (random() < 0.15 ? '，' : '');
  return s + (random() < 0.5 ? '。' : '');
}
function english() {
  const words = [];
  for (let i = 4 + pick(8); i > 0; i--) words.push(one(ENGLISH));
  return words.join(' ');
}

/** One message as a client of this kind would have sent it: type, content and extends. */
function message() {
  const r = random();
  if (r < 0.55) return { type: 'text', content: chinese(), extends: '{}' };
  if (r < 0.8) return { type: 'text', content: english(), extends: '{}' };
  if (r < 0.85) {
    const name = `${random() < 0.5 ? one(WORDS) + one(WORDS) : `${one(ENGLISH)}-${one(ENGLISH)}`}.${one(EXTS)}`;
    return { type: 'file', content: '/storage/ab/cd/ef.bin', extends: JSON.stringify({ name, ext: 'pdf', size: 1 }) };
  }
  if (r < 0.9) {
    const name = `${one(WORDS)}${one(PLACES)}`;
    const address = `${one(STREETS)}${1 + pick(300)}号`;
    return {
      type: 'location',
      content: `[位置] ${name}`,
      extends: JSON.stringify({ name, address, latitude: 31.2, longitude: 121.5 }),
    };
  }
  if (r < 0.92) {
    const displayName = `${one(WORDS)}${one(ENGLISH)}`;
    return { type: 'contact', content: `[个人名片] ${displayName}`, extends: JSON.stringify({ id: 1, displayName }) };
  }
  return { type: 'image', content: '/storage/ab/cd/img.jpg', extends: '{}' };
}

/** Who sends to whom: a friend among one's 20 neighbours, or one of one's groups. */
function route(groupsOf, membersOf) {
  const from = 1 + pick(USERS);
  if (random() < 0.6) {
    const to = 1 + ((from - 1 + 1 + pick(20)) % USERS);
    return { from, chatType: 0, to, key: `p:${Math.min(from, to)}:${Math.max(from, to)}` };
  }
  const g = one(groupsOf.get(from) ?? [1]);
  return { from: one(membersOf.get(g)), chatType: 1, to: g, key: `g:${g}` };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-'));
const databaseUrl = target === 'postgres' ? await createPgDatabase() : undefined;
if (target === 'postgres' && !databaseUrl) {
  console.log('(PostgreSQL not reachable: skipped)');
  process.exit(0);
}
const opened = openDb({ databaseUrl, dataDir });
const { db } = opened;
const pg = opened.dialect === 'postgres';

/**
 * p50 and p99 of `fn`'s wall time and, on SQLite (whose work is all in this process), of its CPU
 * time: on a machine shared with other work the two part where the process waits for a core.
 */
async function time(fn, rounds = ROUNDS) {
  const samples = [];
  const cpu = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const used = process.cpuUsage();
    await fn(i);
    const { user, system } = process.cpuUsage(used);
    samples.push(performance.now() - started);
    cpu.push((user + system) / 1000);
  }
  return {
    p50: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    cpu50: pg ? NaN : percentile(cpu, 0.5),
    cpu99: pg ? NaN : percentile(cpu, 0.99),
  };
}

/** CPU spent by this process and, on PostgreSQL, by this database's server processes, ms. */
async function cpuNow() {
  const own = process.cpuUsage();
  let total = (own.user + own.system) / 1000;
  if (pg) {
    const { rows } = await sql`select pid from pg_stat_activity where datname = current_database()`.execute(db);
    for (const { pid } of rows) {
      try {
        total += cpuMs(pid);
      } catch {
        // A server process in another namespace (PostgreSQL on another machine) is not counted.
      }
    }
  }
  return total;
}

let ok = true;
try {
  await migrate(opened);
  const now = Date.now();
  const seedStarted = performance.now();
  await sql`insert into users (account, password_hash, realname, email, phone, avatar, sex, motto, is_auth, role,
      status, language, create_time, update_time)
    select 'sb' || n, '', 'SB ' || n, '', '', '', 2, '', 0, 0, 1, '', ${now}, ${now}
    from ${sql.raw(pg ? `generate_series(1, ${USERS}) as n` : `(with recursive s(n) as (select 1 union all select n + 1 from s where n < ${USERS}) select n from s)`)}`.execute(
    db,
  );
  const groupsOf = new Map();
  const membersOf = new Map();
  const memberRows = [];
  for (let g = 1; g <= GROUPS; g++) {
    const members = new Set();
    while (members.size < GROUP_SIZE) members.add(1 + pick(USERS));
    membersOf.set(g, [...members]);
    for (const u of members) {
      groupsOf.set(u, [...(groupsOf.get(u) ?? []), g]);
      memberRows.push({ group_id: g, user_id: u, role: 3, join_time: now });
    }
  }
  for (let i = 0; i < memberRows.length; i += 2000)
    await db
      .insertInto('group_members')
      .values(memberRows.slice(i, i + 2000))
      .execute();

  // Bulk: the index is built once after the rows are in.
  if (pg) await sql`drop index message_search_words`.execute(db);
  const columns = [
    'client_id',
    'from_user',
    'chat_type',
    'to_id',
    'chat_key',
    'type',
    'content',
    'extends',
    'create_time',
    'search_text',
  ];
  for (let done = 0; done < MESSAGES; done += BATCH) {
    const rows = [];
    for (let i = done; i < Math.min(MESSAGES, done + BATCH); i++) {
      const m = message();
      const r = route(groupsOf, membersOf);
      rows.push([
        `c${i}`,
        r.from,
        r.chatType,
        r.to,
        r.key,
        m.type,
        m.content,
        m.extends,
        now - (MESSAGES - i) * 1000,
        searchText(m.type, m.content, m.extends),
      ]);
    }
    if (pg) {
      const cols = columns.map((_, c) => rows.map((r) => r[c]));
      const types = ['text', 'bigint', 'int', 'bigint', 'text', 'text', 'text', 'text', 'bigint', 'text'];
      await sql`insert into messages (${sql.raw(columns.join(', '))})
        select * from unnest(${sql.join(cols.map((c, i) => sql`${c}::${sql.raw(types[i])}[]`))})`.execute(db);
    } else {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 2000)
          await trx
            .insertInto('messages')
            .values(rows.slice(i, i + 2000).map((r) => Object.fromEntries(columns.map((c, j) => [c, r[j]]))))
            .execute();
      });
    }
  }
  const seeded = performance.now();
  // The index as the migration fills it: the rows' tokens, made here, written in batches.
  for (let after = 0; ;) {
    const { rows } = await sql`select id, chat_type, from_user, to_id, search_text from messages
      where id > ${after} and search_text <> '' order by id limit 5000`.execute(db);
    if (!rows.length) break;
    await insertIndexRows(opened.dialect, indexRows(rows)).execute(db);
    after = Number(rows.at(-1).id);
  }
  if (pg) await sql`create index message_search_words on message_search using gin (words)`.execute(db);
  await sql`update search_indexed set through = (select max(id) from messages)`.execute(db);
  await sql`analyze`.execute(db);
  const indexed = performance.now();
  console.log(
    `seeded ${MESSAGES} messages in ${fmt((seeded - seedStarted) / 1000, 1)} s; index built in ${fmt((indexed - seeded) / 1000, 1)} s`,
  );

  const repo = new SearchRepo(db, opened.dialect);
  const store = new MessageStoreRepo(db, opened.dialect);
  const readers = Array.from({ length: ROUNDS }, () => 1 + pick(USERS));
  // Words a person would type: a Chinese word of two characters (below a trigram), three or four
  // characters, an English word, a place, a street.
  const kinds = {
    'Chinese, 3–4 chars': () => one(WORDS) + one(WORDS).slice(0, 1 + pick(2)),
    'English word': () => one(ENGLISH),
    'place or street': () => (random() < 0.5 ? one(PLACES) : one(STREETS)),
    'Chinese, 2 chars': () => one(WORDS),
    'Chinese, 1 char': () => one(WORDS).slice(0, 1),
    'English, word being typed': () => one(ENGLISH).slice(0, 2 + pick(3)),
    'two words': () => (random() < 0.5 ? `${one(ENGLISH)} ${one(ENGLISH)}` : `${one(WORDS)} ${one(WORDS)}`),
  };
  const rows = [['query', 'search p50 ms', 'search p99 ms', 'CPU p50 ms', 'CPU p99 ms', 'LIKE p50 ms', 'LIKE p99 ms']];
  for (const [kind, word] of Object.entries(kinds)) {
    const words = readers.map(() => word());
    const search = (i) =>
      repo.search(
        readers[i],
        { ids: groupsOf.get(readers[i]) ?? [], hidingHistory: [] },
        queryTerms(words[i]),
        {},
        { limit: PAGE, offset: 0 },
      );
    await time(search, 10);
    const found = await time(search);
    // The same words by LIKE over every message, with nothing to narrow it (what no index costs).
    const like = await time(
      (i) =>
        sql`select id, (select count(*) from messages where search_text ${sql.raw(pg ? 'ilike' : 'like')} ${`%${words[i]}%`}) as n
          from messages where search_text ${sql.raw(pg ? 'ilike' : 'like')} ${`%${words[i]}%`}
          order by id desc limit ${PAGE}`.execute(db),
      20,
    );
    rows.push([
      kind,
      fmt(found.p50, 2),
      fmt(found.p99, 2),
      pg ? '—' : fmt(found.cpu50, 2),
      pg ? '—' : fmt(found.cpu99, 2),
      fmt(like.p50, 1),
      fmt(like.p99, 1),
    ]);
    ok =
      verdict(
        found.p99 <= 50,
        `search ${target} ${MESSAGES} messages, ${kind}: p99 ${fmt(found.p99, 2)} ms (goal ≤ 50 ms)`,
      ) && ok;
  }
  table(rows);

  // A send's cost: stored through the repository as the send pipeline stores it, into private
  // chats, CPU of every process taking part. With the index: each round's messages are then
  // indexed by the indexer's batches, as the background run does after the sends, and that CPU is
  // counted; without: they are left out of the index. Rounds alternate, the median is judged.
  // The longest indexer batch is printed: on SQLite the event loop waits for it.
  const send = async (label, i) => {
    const m = message();
    const from = 1 + pick(USERS);
    const to = 1 + ((from + pick(20)) % USERS);
    await store.store(
      {
        client_id: `send-${label}-${i}`,
        from_user: from,
        chat_type: 0,
        to_id: to,
        chat_key: `p:${Math.min(from, to)}:${Math.max(from, to)}`,
        type: m.type,
        content: m.content,
        extends: m.extends,
        at: '[]',
        pid: 0,
        file_id: 0,
        is_undo: 0,
        is_deleted: 0,
        create_time: Date.now(),
      },
      [],
      Date.now(),
    );
  };
  const batches = [];
  const indexAll = async () => {
    for (;;) {
      const started = performance.now();
      const n = await repo.indexForSearch(SEARCH_BATCH, true);
      if (n) batches.push(performance.now() - started);
      if (n < SEARCH_BATCH) return;
    }
  };
  const skipIndex = () => sql`update search_indexed set through = (select max(id) from messages)`.execute(db);
  const cpu = { with: [], without: [] };
  for (let round = 0; round < ROUNDS_OF_SENDS; round++) {
    for (const label of ['without', 'with']) {
      for (let i = 0; i < 50; i++) await send(`${label}-warm-${round}`, i);
      await (label === 'with' ? indexAll() : skipIndex());
      const before = await cpuNow();
      for (let i = 0; i < SENDS; i++) await send(`${label}-${round}`, i);
      if (label === 'with') await indexAll();
      cpu[label].push(((await cpuNow()) - before) / SENDS);
      if (label === 'without') await skipIndex();
    }
  }
  const withIndex = percentile(cpu.with, 0.5);
  const without = percentile(cpu.without, 0.5);
  table([
    ['send', `CPU ms per message (median of ${ROUNDS_OF_SENDS} × ${SENDS})`],
    ['stored, not indexed', fmt(without, 3)],
    ['stored, then indexed in batches of ' + SEARCH_BATCH, fmt(withIndex, 3)],
    ['more', `${fmt((withIndex / without - 1) * 100, 1)} %`],
    [
      'indexer batch p50 / p99 / longest, ms',
      `${fmt(percentile(batches, 0.5))} / ${fmt(percentile(batches, 0.99))} / ${fmt(percentile(batches, 1))}`,
    ],
  ]);
  console.log(
    `rounds, CPU ms per message: without ${cpu.without.map((c) => fmt(c, 3)).join(' ')}; with ${cpu.with.map((c) => fmt(c, 3)).join(' ')}`,
  );
  ok =
    verdict(
      withIndex <= without * 1.15,
      `search ${target}: a send and its indexing cost ${fmt((withIndex / without - 1) * 100, 1)} % more CPU than a send alone (goal ≤ 15 %)`,
    ) && ok;
} finally {
  await opened.close();
  await cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
