// Group read receipts on one database (run by read-receipts.mjs under tsx: the server is built in
// this process from its source, timed through app.inject: the route loop, the queries, the JSON).
// 2 000 members in one group and 100 messages from ten senders; half the members have read to
// somewhere among them. Measured:
// - groupReadList of one message (who read it: both lists, named), and groupReadCounts of the
//   sender's 50 newest messages, each alone in alternating rounds;
// - setMsgIsRead of the whole chat by a member who had read nothing, with the group's receipts on
//   (the one query for the senders it passed, one `readReceipt` push to them) and off (the group's
//   `receipt` setting: the read alone), in alternating blocks, each read by a member of its own.
//
//   node --import tsx bench/read-receipts-db.mjs sqlite|postgres
import { randomUUID } from 'node:crypto';
import { BENCH_SETTINGS, cleanup, createPgDatabase, fmt, percentile, seed, table, tmpDir, verdict } from './lib.mjs';
import { inProcessApp } from './in-process.mjs';

const target = process.argv[2];
const MEMBERS = 2000;
const MESSAGES = 100;
const SENDERS = 10;
const PAGE = 50;
const ROUNDS = Number(process.env.RECEIPTS_ROUNDS ?? 200);
const WARMUP = 20;
/** Reads of each kind (on, off): the members who had read nothing, each reading once. */
const READS = 400;
const BLOCK = 20;
/** Goals, server time p50 on this machine's scale: a list of 2 000 people, and counts for a page. */
const LIST_GOAL_MS = 50;
const COUNTS_GOAL_MS = 25;
/** The receipts' work may add this much to a read, at the median. */
const READ_GOAL_RATIO = 1.5;

const dataDir = tmpDir('read-receipts');
const databaseUrl = target === 'postgres' ? await createPgDatabase() : undefined;
if (target === 'postgres' && !databaseUrl) {
  console.log('(PostgreSQL not reachable: skipped)');
  process.exit(0);
}
const users = await seed({ dataDir, databaseUrl, users: MEMBERS, settings: BENCH_SETTINGS, groupSize: MEMBERS });
const { app, call } = await inProcessApp({ dataDir, databaseUrl });

async function timed(path, body, token) {
  const t0 = performance.now();
  const data = await call(path, body, token);
  return { ms: performance.now() - t0, data };
}

const owner = users[0];
const gid = `group-${owner.group}`;
const ids = [];
const mine = [];
for (let i = 0; i < MESSAGES; i++) {
  const from = users[i % SENDERS];
  const sent = await call(
    '/enterprise/im/sendMessage',
    { id: randomUUID(), toContactId: gid, is_group: 1, type: 'text', content: `message ${i} of the busy group` },
    from.token,
  );
  ids.push(sent.msg_id);
  if (from === owner) mine.push(sent.msg_id);
}
// Half the members (past the senders) read to somewhere in the history; the rest read nothing yet.
const readers = users.slice(SENDERS, SENDERS + MEMBERS / 2);
for (const [i, u] of readers.entries())
  await call('/enterprise/im/setMsgIsRead', { toContactId: gid, is_group: 1, msg_id: ids[i % MESSAGES] }, u.token);
const unread = users.slice(SENDERS + MEMBERS / 2);
if (unread.length < 2 * READS) throw new Error(`${unread.length} members left to read`);

const X = mine[mine.length - 5];
const page = mine.slice(-PAGE);
const lists = [];
const counts = [];
let shown;
for (let r = 0; r < WARMUP + ROUNDS; r++) {
  const list = await timed('/enterprise/im/groupReadList', { id: X }, owner.token);
  const count = await timed('/enterprise/im/groupReadCounts', { toContactId: gid, ids: page }, owner.token);
  if (r >= WARMUP) {
    lists.push(list.ms);
    counts.push(count.ms);
  }
  shown = { list: list.data, counts: count.data };
}
if (shown.list.read + shown.list.unread !== MEMBERS - 1 || shown.counts.length !== page.length)
  throw new Error(`answered ${shown.list.read} + ${shown.list.unread} members, ${shown.counts.length} counts`);

const setting = (receipt) => call('/enterprise/group/groupSetting', { id: gid, setting: { receipt } }, owner.token);
const reads = { on: [], off: [] };
let next = 0;
for (let b = 0; next < unread.length && reads.on.length + reads.off.length < 2 * READS; b++) {
  const kind = b % 2 ? 'off' : 'on';
  await setting(kind === 'on' ? 1 : 0);
  for (let i = 0; i < BLOCK && next < unread.length; i++) {
    const u = unread[next++];
    const { ms } = await timed(
      '/enterprise/im/setMsgIsRead',
      { toContactId: gid, is_group: 1, msg_id: ids.at(-1) },
      u.token,
    );
    reads[kind].push(ms);
  }
}
// The first block of each kind warms up.
reads.on = reads.on.slice(BLOCK);
reads.off = reads.off.slice(BLOCK);

const p = (xs, q) => percentile(xs, q / 100);
table([
  [`2 000-member group (${target})`, 'p50 ms', 'p99 ms', 'calls'],
  ['groupReadList: who read message X (1 999 named)', fmt(p(lists, 50)), fmt(p(lists, 99)), lists.length],
  [`groupReadCounts: a page of ${PAGE} of my messages`, fmt(p(counts, 50)), fmt(p(counts, 99)), counts.length],
  [
    'setMsgIsRead, receipts on (senders found, readReceipt pushed)',
    fmt(p(reads.on, 50)),
    fmt(p(reads.on, 99)),
    reads.on.length,
  ],
  ['setMsgIsRead, receipts off: the baseline', fmt(p(reads.off, 50)), fmt(p(reads.off, 99)), reads.off.length],
]);
const ratio = p(reads.on, 50) / p(reads.off, 50);
console.log(`setMsgIsRead with the receipts' work / without: ${fmt(ratio)}× at p50 (${target})`);
verdict(
  p(lists, 50) <= LIST_GOAL_MS,
  `${target}: who read a message of a 2 000-member group within ${LIST_GOAL_MS} ms p50 (${fmt(p(lists, 50))} ms)`,
);
verdict(
  p(counts, 50) <= COUNTS_GOAL_MS,
  `${target}: the counts of a page of ${PAGE} within ${COUNTS_GOAL_MS} ms p50 (${fmt(p(counts, 50))} ms)`,
);
verdict(
  ratio <= READ_GOAL_RATIO,
  `${target}: setMsgIsRead with the receipts' work within ${READ_GOAL_RATIO}× of the read alone (${fmt(ratio)}×)`,
);
await app.close();
await cleanup();
process.exit(0);
