// A page of a busy group on one database (run by reactions-page.mjs under tsx: the server is built
// in this process from its source). 2 000 members in one group, 120 messages; the server time of
// getMessageList for the newest 50 (app.inject: the route loop, the queries, hydration, the JSON),
// beside the 50 before them in the same rounds. Measured twice: before and after one message of the
// newest page gets 500 reactions (from 500 members, through reactMessage) and 20 edits (through
// editMessage). The ratio of the two pages before is the noise of the pair; after, what the
// reactions and edits cost the page they are on.
//
//   node --import tsx bench/reactions-page-db.mjs sqlite|postgres
import { randomUUID } from 'node:crypto';
import { BENCH_SETTINGS, cleanup, createPgDatabase, fmt, percentile, seed, table, tmpDir, verdict } from './lib.mjs';
import { inProcessApp } from './in-process.mjs';

const target = process.argv[2];
const MEMBERS = 2000;
const MESSAGES = 120;
const PAGE = 50;
const REACTIONS = 500;
const EDITS = 20;
const ROUNDS = Number(process.env.REACTIONS_ROUNDS ?? 300);
const WARMUP = 30;
/** The reacted and edited message: the 20th newest, inside the newest page. */
const HEAVY_FROM_END = 20;
const EMOJI = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

const dataDir = tmpDir('reactions-page');
const databaseUrl = target === 'postgres' ? await createPgDatabase() : undefined;
if (target === 'postgres' && !databaseUrl) {
  console.log('(PostgreSQL not reachable: skipped)');
  process.exit(0);
}
const users = await seed({ dataDir, databaseUrl, users: MEMBERS, settings: BENCH_SETTINGS, groupSize: MEMBERS });
const { app, call } = await inProcessApp({ dataDir, databaseUrl });

const owner = users[0];
const gid = `group-${owner.group}`;
const ids = [];
for (let i = 0; i < MESSAGES; i++) {
  const from = users[i % 10];
  const sent = await call(
    '/enterprise/im/sendMessage',
    { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content: `message ${i} of the busy group` },
    from.token,
  );
  ids.push(sent.msg_id);
}
const heavy = ids[ids.length - HEAVY_FROM_END];
const heavySender = users[(ids.length - HEAVY_FROM_END) % 10];
const newest = { toContactId: gid, is_group: 1, limit: PAGE };
const older = { ...newest, last_id: ids[ids.length - PAGE] };

/** Server time of each page, ms, in alternating rounds after a warm-up. */
async function measure() {
  const times = { newest: [], older: [] };
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    for (const [name, body] of r % 2
      ? [
          ['older', older],
          ['newest', newest],
        ]
      : [
          ['newest', newest],
          ['older', older],
        ]) {
      const t0 = performance.now();
      const page = await call('/enterprise/im/getMessageList', body, owner.token);
      const ms = performance.now() - t0;
      if (page.length !== PAGE) throw new Error(`a page of ${page.length}`);
      if (r >= WARMUP) times[name].push(ms);
    }
  }
  return times;
}

const before = await measure();
for (let i = 0; i < REACTIONS; i++)
  await call('/enterprise/im/reactMessage', { id: heavy, emoji: EMOJI[i % EMOJI.length], on: 1 }, users[1 + i].token);
for (let i = 0; i < EDITS; i++)
  await call('/enterprise/im/editMessage', { id: heavy, content: `message edited ${i + 1} times` }, heavySender.token);
const after = await measure();
const shown = (await call('/enterprise/im/getMessageList', newest, owner.token)).find((m) => m.msg_id === heavy);
const counted = (shown.reactions ?? []).reduce((n, r) => n + r.count, 0);
if (counted !== REACTIONS || !shown.edited)
  throw new Error(`the page shows ${counted} reactions, edited ${shown.edited}`);

const p = (xs, q) => percentile(xs, q / 100);
const rows = [['page of 50', 'p50 ms', 'p99 ms']];
for (const [label, t] of [
  ['newest, before', before.newest],
  ['older, before', before.older],
  ['newest, 500 reactions + 20 edits on one', after.newest],
  ['older, same rounds', after.older],
])
  rows.push([label, fmt(p(t, 50)), fmt(p(t, 99))]);
table(rows);
const noise = p(before.newest, 50) / p(before.older, 50);
const ratio = p(after.newest, 50) / p(after.older, 50);
const growth = p(after.newest, 50) / p(before.newest, 50);
console.log(
  `newest/older p50: before ${fmt(noise)}×, after ${fmt(ratio)}×; the newest page after/before: ${fmt(growth)}× (${target})`,
);
verdict(
  ratio <= noise * 1.25,
  `${target}: a page of 50 with one message of 500 reactions and 20 edits within 1.25× of the page beside it (${fmt(ratio)}× against ${fmt(noise)}× before)`,
);
await app.close();
await cleanup();
process.exit(0);
