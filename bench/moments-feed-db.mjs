// The moments feed on one database (run by moments-feed.mjs under tsx: it uses the server's own
// repository). Seeds USERS users with FRIENDS friends each, then posts with their timeline rows
// (what publishing writes), and times a feed page (MomentRepo.feed, the query the server runs)
// beside a baseline in the same run: one author's newest page over the posts' (user_id, id) index,
// the cheapest indexed page there is. Beside them, in the same rounds, the design it replaced
// (fan-out on read: the posts walked newest first, each asked whether the reader may see it), for
// the same readers and for a reader with SPARSE friends, whose page that walk finds only far back.
// Also times publishing: the post with its timeline rows and the friend lookup for its push,
// beside the post alone (what publishing cost before the timeline).
//
//   node --import tsx bench/moments-feed-db.mjs sqlite|postgres
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrate, openDb } from '../packages/server/src/db/index.ts';
import { FriendRepo } from '../packages/server/src/modules/friend/repo.ts';
import { MomentRepo } from '../packages/server/src/modules/moments/repo.ts';
import { createPgDatabase, cleanup, fmt, percentile, table, verdict } from './lib.mjs';

const target = process.argv[2];
const USERS = 1000;
const FRIENDS = 200;
/** Friends of the sparse reader, an extra user outside the ring. */
const SPARSE = 5;
const SIZES = [10_000, 100_000];
const ROUNDS = 600;
const REPEATS = 3;
const WARMUP = 30;
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;
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

/** CPU seconds the database's own processes have used: none apart on SQLite, which runs in this one. */
async function databaseCpu() {
  if (opened.dialect !== 'postgres') return 0;
  const { rows } = await sql`select pid from pg_stat_activity where datname = current_database()`.execute(db);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      // utime and stime, fields 14 and 15, after the command name in parentheses.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Not on this machine, or the connection has ended since.
    }
  }
  return ticks / CLOCK_TICKS;
}

/**
 * Each measure's median wall time and CPU time per call (this process and, on PostgreSQL, its
 * server connections), over REPEATS blocks of `rounds` calls taken in turn, so that whatever else
 * the machine does weighs on each alike. CPU time is what the goal compares: on a shared machine
 * the wall time of a call under a millisecond is mostly the wait for a core.
 */
async function measure(rounds, fns) {
  const wall = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  const cpu = Object.fromEntries(Object.keys(fns).map((k) => [k, 0]));
  for (const fn of Object.values(fns)) for (let i = 0; i < WARMUP; i++) await fn(i % rounds, `w${i}`);
  for (let r = 0; r < REPEATS; r++)
    for (const [name, fn] of Object.entries(fns)) {
      const ownBefore = process.cpuUsage();
      const dbBefore = await databaseCpu();
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        await fn(i, `${r}-${i}`);
        wall[name].push(performance.now() - started);
      }
      const own = process.cpuUsage(ownBefore);
      cpu[name] += (own.user + own.system) / 1000 + ((await databaseCpu()) - dbBefore) * 1000;
    }
  return Object.fromEntries(
    Object.keys(fns).map((k) => [k, { wall: percentile(wall[k], 50), cpu: cpu[k] / (REPEATS * rounds) }]),
  );
}

const DAY_MS = 86_400_000;

/** The former feed page, fan-out on read: the posts newest first, each asked whether the reader may see it. */
function fanOutOnRead(viewerId, limit, now) {
  return db
    .selectFrom('moment_posts as p')
    .leftJoin('moment_settings as s', 's.user_id', 'p.user_id')
    .selectAll('p')
    .where((eb) =>
      eb.or([
        eb('p.user_id', '=', viewerId),
        eb.and([
          eb.exists(
            eb
              .selectFrom('friends as f')
              .select('f.friend_user_id')
              .where('f.user_id', '=', viewerId)
              .whereRef('f.friend_user_id', '=', 'p.user_id'),
          ),
          eb(
            'p.user_id',
            'not in',
            eb
              .selectFrom('moment_hides as mine')
              .select('mine.other_id')
              .where('mine.owner_id', '=', viewerId)
              .where('mine.kind', '=', 2),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('moment_hides as h')
                .select('h.other_id')
                .whereRef('h.owner_id', '=', 'p.user_id')
                .where('h.kind', '=', 1)
                .where('h.other_id', '=', viewerId),
            ),
          ),
          eb.or([
            eb('p.visibility', '=', 1),
            eb.and([
              eb('p.visibility', '=', 3),
              eb.exists(
                eb
                  .selectFrom('moment_targets as t')
                  .select('t.user_id')
                  .whereRef('t.post_id', '=', 'p.id')
                  .where('t.user_id', '=', viewerId),
              ),
            ]),
            eb.and([
              eb('p.visibility', '=', 4),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('moment_targets as t')
                    .select('t.user_id')
                    .whereRef('t.post_id', '=', 'p.id')
                    .where('t.user_id', '=', viewerId),
                ),
              ),
            ]),
          ]),
          eb.or([
            eb('s.range_days', 'is', null),
            eb('s.range_days', '=', 0),
            sql`p.create_time >= cast(${now} as bigint) - s.range_days * cast(${DAY_MS} as bigint)`,
          ]),
        ]),
      ]),
    )
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Timeline rows of the posts above `afterId`, as publishing writes them: the author's, and each
 * friend's whose visibility admits them. Read friend by friend so that each reader's rows are
 * written together; on PostgreSQL the key is dropped during the load and built once after it.
 */
async function fillTimelines(afterId) {
  if (opened.dialect === 'postgres')
    await sql`alter table moment_timeline drop constraint moment_timeline_pk`.execute(db);
  await sql`
    insert into moment_timeline (user_id, post_id, author_id)
    select p.user_id, p.id, p.user_id from moment_posts p where p.id > ${afterId}
  `.execute(db);
  await sql`
    insert into moment_timeline (user_id, post_id, author_id)
    select f.user_id, p.id, p.user_id
    from friends f
    join moment_posts p on p.user_id = f.friend_user_id and p.id > ${afterId}
    where p.visibility = 1
      or (p.visibility = 3 and exists (
        select 1 from moment_targets t where t.post_id = p.id and t.user_id = f.user_id))
      or (p.visibility = 4 and not exists (
        select 1 from moment_targets t where t.post_id = p.id and t.user_id = f.user_id))
  `.execute(db);
  if (opened.dialect === 'postgres') {
    await sql`alter table moment_timeline add constraint moment_timeline_pk primary key (user_id, post_id)`.execute(db);
    await sql`vacuum analyze`.execute(db);
  }
}

let ok = true;
try {
  await migrate(opened);
  const now = Date.now();
  const users = [];
  for (let i = 0; i <= USERS; i++)
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
  // The sparse reader (the last user) and SPARSE friends spread around the ring.
  const sparse = ids[USERS];
  for (let d = 0; d < SPARSE; d++) {
    const b = ids[Math.floor((d * USERS) / SPARSE)];
    friendRows.push({ user_id: sparse, friend_user_id: b, nickname: '', create_time: now });
    friendRows.push({ user_id: b, friend_user_id: sparse, nickname: '', create_time: now });
  }
  await insertChunked('friends', friendRows);

  const moments = new MomentRepo(db);
  const friends = new FriendRepo(db);
  let posted = 0;
  // Each time: CPU ms per call (wall-clock median ms).
  const rows = [['posts', 'feed page', 'baseline', 'ratio', 'fan-out on read', 'ratio', 'timeline rows']];
  const sparseRows = [['posts', `reader with ${SPARSE} friends: feed page`, 'fan-out on read']];
  const publishRows = [['posts', 'publish', 'publish without timeline', 'seeding s']];
  for (const size of SIZES) {
    const seeding = performance.now();
    const filled =
      (
        await db
          .selectFrom('moment_posts')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0;
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
    const excepts = await db
      .selectFrom('moment_posts')
      .select(['id', 'user_id'])
      .where('visibility', '=', 4)
      .where('id', '>', filled)
      .execute();
    await insertChunked(
      'moment_targets',
      excepts.map((p) => ({ post_id: p.id, user_id: ids[(ids.indexOf(p.user_id) + 1) % USERS] })),
    );
    await fillTimelines(filled);
    // Timed in a steady state: the statistics taken, and on SQLite the load's log folded into the file.
    if (opened.dialect === 'postgres') await sql`analyze`.execute(db);
    else await sql`pragma wal_checkpoint(truncate)`.execute(db);
    const seeded = (performance.now() - seeding) / 1000;
    const timelineRows = (
      await db
        .selectFrom('moment_timeline')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

    const viewers = Array.from({ length: ROUNDS }, () => ids[pick(USERS)]);
    const page = await measure(ROUNDS, {
      baseline: (i) =>
        db
          .selectFrom('moment_posts')
          .selectAll()
          .where('user_id', '=', viewers[i])
          .orderBy('id', 'desc')
          .limit(PAGE)
          .execute(),
      feed: (i) => moments.feed(viewers[i], { beforeId: 0, limit: PAGE, now: Date.now() }),
      fanOut: (i) => fanOutOnRead(viewers[i], PAGE, Date.now()),
    });
    const sparsePage = await measure(ROUNDS / 3, {
      feed: () => moments.feed(sparse, { beforeId: 0, limit: PAGE, now: Date.now() }),
      fanOut: () => fanOutOnRead(sparse, PAGE, Date.now()),
    });
    const publish = await measure(ROUNDS / 3, {
      timeline: async (i, round) => {
        const author = viewers[i];
        await moments.insert(
          {
            user_id: author,
            client_id: `bench-${size}-${round}`,
            content: 'new',
            visibility: 1,
            create_time: Date.now(),
          },
          [],
          [],
        );
        await friends.friendIds(author);
      },
      bare: async (i, round) => {
        const author = viewers[i];
        await db
          .insertInto('moment_posts')
          .values({
            user_id: author,
            client_id: `bare-${size}-${round}`,
            content: 'new',
            visibility: 1,
            create_time: Date.now(),
          })
          .execute();
        await friends.friendIds(author);
      },
    });
    // The posts published without their timeline rows are not part of the next size.
    await db.deleteFrom('moment_posts').where('client_id', 'like', 'bare-%').execute();

    const ms = (m) => `${fmt(m.cpu, 3)} (${fmt(m.wall, 3)})`;
    rows.push([
      String(size),
      ms(page.feed),
      ms(page.baseline),
      fmt(page.feed.cpu / page.baseline.cpu),
      ms(page.fanOut),
      fmt(page.fanOut.cpu / page.baseline.cpu),
      String(timelineRows),
    ]);
    sparseRows.push([String(size), ms(sparsePage.feed), ms(sparsePage.fanOut)]);
    publishRows.push([String(size), ms(publish.timeline), ms(publish.bare), fmt(seeded, 1)]);
    ok =
      verdict(
        page.feed.cpu <= 2 * page.baseline.cpu,
        `moments-feed ${target} ${size} posts: feed page ${fmt(page.feed.cpu, 3)} ms CPU, ${fmt(page.feed.cpu / page.baseline.cpu)}× the one-author page (goal ≤ 2×)`,
      ) && ok;
  }
  console.log('CPU ms per call, this process and the database (wall-clock median ms)');
  table(rows);
  console.log('');
  table(sparseRows);
  console.log('');
  table(publishRows);
} finally {
  await opened.close();
  await cleanup();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
