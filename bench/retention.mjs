// Retention (issue 39): the sweep deleting RETENTION_MESSAGES (1 000 000) old messages, seeded in bulk
// with their search index rows, while a steady stream of private sends runs (SEND_RATE a second) on
// a server process of its own. Printed: the sends' p50/p99 while the sweep runs beside their p50/p99
// before it in the same run, and the rate of deletion (rows/s). On SQLite, and on PostgreSQL when
// reachable (DATABASE_URL or the local default). The sweep is started as an operator starts it from
// the console: `/manage/configSet chatInfo.messageDays 7` (a policy change runs the sweep).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  BENCH_SETTINGS,
  createPgDatabase,
  fmt,
  HttpClient,
  main,
  percentile,
  seed,
  sleep,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';

const MESSAGES = Number(process.env.RETENTION_MESSAGES ?? 1_000_000);
const SEND_RATE = Number(process.env.SEND_RATE ?? 50);
/** The databases to run on (RETENTION_DATABASES, comma-separated): both by default. */
const DATABASES = (process.env.RETENTION_DATABASES ?? 'sqlite,postgres').split(',');
const BASELINE_S = 15;
const USERS = 20;
const DAY = 86_400_000;
/** Rows a bulk statement writes. */
const CHUNK = 5000;

/** The old messages, written straight into the tables (with their search rows), 400 days old. */
async function seedOld(target, where, users) {
  const old = Date.now() - 400 * DAY;
  const pairs = users.slice(0, USERS - 1).map((u, i) => [u, users[i + 1]]);
  const started = Date.now();
  if (target === 'sqlite') {
    const db = new Database(path.join(where, 'sparrow.db'));
    const insert = db.prepare(`insert into messages (client_id, from_user, chat_type, to_id, chat_key, type, content,
      extends, at, pid, file_id, is_undo, is_deleted, create_time, search_text)
      values (?, ?, 0, ?, ?, 'text', ?, '{}', '', 0, 0, 0, 0, ?, ?)`);
    const words = db.prepare('insert into message_words (rowid, words) values (?, ?)');
    for (let done = 0; done < MESSAGES; done += CHUNK) {
      db.transaction(() => {
        for (let i = done; i < Math.min(MESSAGES, done + CHUNK); i++) {
          const [a, b] = pairs[i % pairs.length];
          const key = `p:${Math.min(a.id, b.id)}:${Math.max(a.id, b.id)}`;
          const text = `old message ${i}`;
          const { lastInsertRowid } = insert.run(randomUUID(), a.id, b.id, key, text, old + i, text);
          words.run(lastInsertRowid, `old message ${i} p${Math.min(a.id, b.id)}_${Math.max(a.id, b.id)}`);
        }
      })();
    }
    db.prepare('update search_indexed set through = (select max(id) from messages)').run();
    db.close();
  } else {
    const client = new pg.Client({ connectionString: where });
    await client.connect();
    for (let done = 0; done < MESSAGES; done += CHUNK * 20) {
      const upTo = Math.min(MESSAGES, done + CHUNK * 20);
      const from = pairs.map(([a]) => a.id);
      const to = pairs.map(([, b]) => b.id);
      await client.query(
        `insert into messages (client_id, from_user, chat_type, to_id, chat_key, type, content, extends, at, pid,
           file_id, is_undo, is_deleted, create_time, search_text)
         select gen_random_uuid()::text, f, 0, t, 'p:' || least(f, t) || ':' || greatest(f, t), 'text',
           'old message ' || i, '{}', '', 0, 0, 0, 0, $3::bigint + i, 'old message ' || i
         from generate_series($1::int, $2::int - 1) as i,
           lateral (select ($4::bigint[])[1 + i % $6] as f, ($5::bigint[])[1 + i % $6] as t) p`,
        [done, upTo, old, from, to, pairs.length],
      );
    }
    await client.query(`insert into message_search (msg_id, words)
      select id, array_to_tsvector(string_to_array(search_text, ' ')) from messages where search_text like 'old message %'
      on conflict do nothing`);
    await client.query('update search_indexed set through = (select max(id) from messages)');
    await client.query('vacuum analyze messages');
    await client.end();
  }
  return (Date.now() - started) / 1000;
}

/** The sweep's row (migration 031): when the last sweep started and ended, and what it deleted. */
async function sweepRow(target, where) {
  if (target === 'sqlite') {
    const db = new Database(path.join(where, 'sparrow.db'), { readonly: true });
    try {
      return db.prepare('select * from retention_sweep where id = 1').get();
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  try {
    const { rows } = await client.query('select * from retention_sweep where id = 1');
    return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, k === 'holder' ? v : Number(v)]));
  } finally {
    await client.end();
  }
}

async function runOn(target) {
  const dataDir = tmpDir(`retention-${target}`);
  const databaseUrl = target === 'postgres' ? await createPgDatabase() : undefined;
  if (target === 'postgres' && !databaseUrl) return null;
  const users = await seed({ dataDir, databaseUrl, users: USERS, settings: BENCH_SETTINGS, friends: 2 });
  const where = databaseUrl ?? dataDir;
  // The operator: the first user, an administrator.
  if (target === 'sqlite') {
    const db = new Database(path.join(dataDir, 'sparrow.db'));
    db.prepare('update users set role = 1 where id = ?').run(users[0].id);
    db.close();
  } else {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('update users set role = 1 where id = $1', [users[0].id]);
    await client.end();
  }
  const seedS = await seedOld(target, where, users);
  console.log(`${target}: ${MESSAGES} old messages seeded in ${fmt(seedS, 1)} s`);
  const server = await startSparrow({ dataDir, databaseUrl, env: { RETENTION_SWEEP_MS: '0', SEARCH_INDEX_MS: '250' } });
  const http = new HttpClient(server.url);
  const samples = [];
  let sending = true;
  let failures = 0;
  let k = 0;
  const sender = (async () => {
    const every = 1000 / SEND_RATE;
    let next = Date.now();
    const flying = new Set();
    while (sending) {
      const i = k++;
      const a = users[1 + (i % (USERS - 2))];
      const b = users[2 + (i % (USERS - 2))];
      const at = Date.now();
      const p = http
        .post(
          '/enterprise/im/sendMessage',
          { id: randomUUID(), toContactId: b.id, type: 'text', content: `now ${i}` },
          { authorization: a.token },
        )
        .then((res) => {
          if (res.code !== 0) failures++;
          samples.push({ at, ms: Date.now() - at });
        })
        .catch(() => failures++)
        .finally(() => flying.delete(p));
      flying.add(p);
      next += every;
      await sleep(Math.max(0, next - Date.now()));
    }
    await Promise.all(flying);
  })();
  await sleep(BASELINE_S * 1000);
  const baselineEnd = Date.now();
  const set = await http.post(
    '/manage/configSet',
    { key: 'chatInfo.messageDays', value: 7 },
    { authorization: users[0].token },
  );
  if (set.code !== 0) throw new Error(`configSet: ${set.msg}`);
  let row;
  const deadline = Date.now() + 1_800_000;
  for (;;) {
    await sleep(1000);
    row = await sweepRow(target, where);
    if (row.last_end >= baselineEnd && row.last_end >= row.last_start) break;
    if (Date.now() > deadline) throw new Error('the sweep did not end within 30 minutes');
  }
  sending = false;
  await sender;
  await server.stop();
  const base = samples
    .filter((s) => s.at >= baselineEnd - (BASELINE_S - 3) * 1000 && s.at < baselineEnd)
    .map((s) => s.ms);
  const during = samples.filter((s) => s.at >= row.last_start && s.at < row.last_end).map((s) => s.ms);
  const sweepS = (row.last_end - row.last_start) / 1000;
  return {
    target,
    deleted: row.last_messages,
    sweepS,
    rate: row.last_messages / sweepS,
    base: { n: base.length, p50: percentile(base, 0.5), p99: percentile(base, 0.99) },
    during: { n: during.length, p50: percentile(during, 0.5), p99: percentile(during, 0.99) },
    failures,
  };
}

await main('retention', async () => {
  const results = [];
  for (const target of DATABASES) {
    const r = await runOn(target);
    if (!r) console.log(`${target}: not reachable, skipped`);
    else results.push(r);
  }
  table([
    [
      'database',
      'deleted',
      'sweep s',
      'rows/s',
      'sends',
      'p50 before',
      'p99 before',
      'p50 sweeping',
      'p99 sweeping',
      'p99 ×',
    ],
    ...results.map((r) => [
      r.target,
      r.deleted,
      fmt(r.sweepS, 1),
      fmt(r.rate, 0),
      `${r.base.n}/${r.during.n}`,
      `${fmt(r.base.p50, 1)} ms`,
      `${fmt(r.base.p99, 1)} ms`,
      `${fmt(r.during.p50, 1)} ms`,
      `${fmt(r.during.p99, 1)} ms`,
      fmt(r.during.p99 / r.base.p99, 2),
    ]),
  ]);
  for (const r of results) {
    verdict(
      r.deleted === MESSAGES && r.failures === 0,
      `retention ${r.target}: every old message deleted, no send failed (${r.failures} failed)`,
    );
    verdict(
      r.during.p99 <= Math.max(2 * r.base.p99, r.base.p99 + 20),
      `retention ${r.target}: sends' p99 while sweeping within 2× (or +20 ms) of before`,
    );
  }
});
