// The moments feed on one database (run by moments-feed.mjs under tsx: it uses the server's own
// repository). Seeds USERS users with FRIENDS friends each, then posts, and times a feed page
// (MomentRepo.page, the query the server runs) beside a baseline in the same run: one author's
// newest page over the same (user_id, id) index, the cheapest indexed page there is. Also times
// publishing (the post's insert and the friend lookup for its push).
//
//   node --import tsx bench/moments-feed-db.mjs sqlite|postgres
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openDb } from '../packages/server/src/db/index.ts';
import { FriendRepo } from '../packages/server/src/modules/friend/repo.ts';
import { MomentRepo } from '../packages/server/src/modules/moments/repo.ts';
import { createPgDatabase, cleanup, fmt, percentile, table, verdict } from './lib.mjs';

const target = process.argv[2];
const USERS = 1000;
const FRIENDS = 200;
const SIZES = [10_000, 100_000];
const ROUNDS = 300;
const PAGE = 10;
const CHUNK = 1000;

let rand = 42;
const random = () => (rand = (rand * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = (n) => Math.floor(random() * n);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moments-bench-'));
const databaseUrl = target === 'postgres' ? await createPgDatabase() : undefined;
if (target === 'postgres' && !databaseUrl) {
  console.log('(PostgreSQL not reachable: skipped)');
  process.exit(0);
}
const opened = openDb({ databaseUrl, dataDir });
const { db } = opened;

async function insertChunked(table, rows) {
  for (let i = 0; i < rows.length; i += CHUNK)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK))
      .execute();
}

async function time(fn) {
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await fn(i);
    samples.push(performance.now() - started);
  }
  return percentile(samples, 50);
}

let ok = true;
try {
  await migrate(opened);
  const now = Date.now();
  const users = [];
  for (let i = 0; i < USERS; i++)
    users.push({
      account: `mb${i}`,
      password_hash: '',
      realname: `MB ${i}`,
      email: '',
      phone: '',
      avatar: '',
      sex: 2,
      motto: '',
      is_auth: 0,
      role: 0,
      status: 1,
      language: '',
      create_time: now,
      update_time: now,
    });
  await insertChunked('users', users);
  const ids = (await db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);
  // Each user befriends the next FRIENDS/2 around a ring: FRIENDS friends each, both rows of a pair.
  const friendRows = [];
  for (let i = 0; i < USERS; i++)
    for (let d = 1; d <= FRIENDS / 2; d++) {
      const a = ids[i];
      const b = ids[(i + d) % USERS];
      friendRows.push({ user_id: a, friend_user_id: b, nickname: '', create_time: now });
      friendRows.push({ user_id: b, friend_user_id: a, nickname: '', create_time: now });
    }
  await insertChunked('friends', friendRows);

  const moments = new MomentRepo(db);
  const friends = new FriendRepo(db);
  let posted = 0;
  const rows = [['posts', 'feed page p50 ms', 'baseline p50 ms', 'ratio', 'publish p50 ms']];
  for (const size of SIZES) {
    const posts = [];
    for (; posted < size; posted++) {
      // Most posts are for all friends; one in ten is "all but" someone, one in twenty only me.
      const r = random();
      posts.push({
        user_id: ids[pick(USERS)],
        client_id: `p${posted}`,
        content: 'a post',
        location: '',
        visibility: r < 0.05 ? 2 : r < 0.15 ? 4 : 1,
        create_time: now - (size - posted) * 1000,
      });
    }
    await insertChunked('moment_posts', posts);
    const excepts = await db.selectFrom('moment_posts').select(['id', 'user_id']).where('visibility', '=', 4).execute();
    const have = new Set((await db.selectFrom('moment_targets').select('post_id').execute()).map((r) => r.post_id));
    await insertChunked(
      'moment_targets',
      excepts
        .filter((p) => !have.has(p.id))
        .map((p) => ({ post_id: p.id, user_id: ids[(ids.indexOf(p.user_id) + 1) % USERS] })),
    );
    if (opened.dialect === 'postgres')
      await db.executeQuery({ sql: 'ANALYZE', parameters: [], query: { kind: 'RawNode' } }).catch(() => undefined);

    const viewers = Array.from({ length: ROUNDS }, () => ids[pick(USERS)]);
    const feed = await time((i) => moments.page(viewers[i], { beforeId: 0, limit: PAGE, now: Date.now() }));
    const baseline = await time((i) =>
      db
        .selectFrom('moment_posts')
        .selectAll()
        .where('user_id', '=', viewers[i])
        .orderBy('id', 'desc')
        .limit(PAGE)
        .execute(),
    );
    const publish = await time(async (i) => {
      const author = viewers[i];
      await moments.insert(
        { user_id: author, client_id: `bench-${size}-${i}`, content: 'new', visibility: 1, create_time: Date.now() },
        [],
        [],
      );
      await friends.friendIds(author);
    });
    rows.push([String(size), fmt(feed, 3), fmt(baseline, 3), fmt(feed / baseline), fmt(publish, 3)]);
    ok =
      verdict(
        feed <= 2 * baseline,
        `moments-feed ${target} ${size} posts: feed page ${fmt(feed, 3)} ms, ${fmt(feed / baseline)}× the one-author page (goal ≤ 2×)`,
      ) && ok;
  }
  table(rows);
} finally {
  await opened.close();
  await cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
