// Group fan-out (issue 4, "Speed"): a 500-member group, every member's socket bound; messages sent
// to the group with a few in flight at a time; deliveries per second = pushes received by members
// per second of wall time, from the first send of a turn to the last push of it. The baseline is a
// bare `ws` server broadcasting the same payload to the same 500 sockets (no database, no rules).
//
// Both servers hold their sockets for the whole run and take the load in turns, so that whatever
// else the machine is doing meanwhile falls on both alike.
//
// Then (issue 25, benchmark 3) the rate a group's deliveries reach while the p99 of send → push stays
// within 100 ms, for groups of 500 and 2 000 members: on one SQLite process, and on two processes
// over PostgreSQL + Redis with the members' sockets split between them (the sender bound on the
// first). Messages are sent open loop at a rate raised step by step until the p99 passes 100 ms
// twice in a row at one rate or a push is missing; the fastest step that held gives the figure.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  BENCH_SETTINGS,
  connectAll,
  cpuMs,
  createPgDatabase,
  fmt,
  HttpClient,
  main,
  percentile,
  seed,
  sleep,
  startBaseline,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';

const MEMBERS = 500;
/** Sends in flight at once, as several members typing at the same time. */
const WINDOW = 4;
const TURNS = 3;
const TURN_S = 3;
const WARMUP_S = 1.5;
const GOAL_RATIO = 0.7;
const GROUP_PREFIX = Buffer.from('{"type":"group"');
/** Group sizes of the p99 ramp; GROUP_SIZES=500,2000,5000 measures others. */
const SIZES = (process.env.GROUP_SIZES ?? '500,2000').split(',').map(Number);
const P99_GOAL_MS = 100;
/** Seconds each rate of the ramp is held. */
const STEP_S = Number(process.env.GROUP_STEP_S ?? 3);
/** Each step sends this many times the messages per second of the one before. */
const STEP_FACTOR = 1.5;
/** Where the ramp stops raising the rate however well it goes. */
const MAX_RATE = Number(process.env.GROUP_MAX_RATE ?? 400);
/** Group creation takes this many members; the rest join ADD_GROUP_USER_MAX at a time. */
const CREATE_MAX = 499;
const ADD_MAX = 20;
const FAN_MARKER = Buffer.from('"content":"fan ');

/**
 * Members of a new group of `members` users, bound alternately to each of `servers` (the owner on
 * the first, where the messages are sent); raises the send rate until p99 passes P99_GOAL_MS.
 */
async function rampAtP99(servers, users, members) {
  const group = users.slice(0, members);
  const owner = group[0];
  const sentAt = new Map();
  let latencies = [];
  let lastAt = 0;
  const onFrame = (_socket, data) => {
    const i = data.indexOf(FAN_MARKER);
    if (i < 0 || data.subarray(0, GROUP_PREFIX.length).compare(GROUP_PREFIX) !== 0) return;
    const n = Number.parseInt(data.toString('latin1', i + FAN_MARKER.length, i + FAN_MARKER.length + 12), 10);
    const t0 = sentAt.get(n);
    if (t0 === undefined) return;
    lastAt = performance.now();
    latencies.push(lastAt - t0);
  };
  const opened = [];
  for (let s = 0; s < servers.length; s++)
    opened.push(
      await connectAll(
        servers[s].url,
        group.filter((_, i) => i % servers.length === s),
        { onFrame, timeoutMs: 120_000 },
      ),
    );
  const ownerClientId = opened[0].sockets[0].clientId;
  const http = new HttpClient(servers[0].url);
  const auth = { authorization: owner.token };
  const created = await http.post(
    '/enterprise/group/add',
    { user_ids: group.slice(1, CREATE_MAX + 1).map((u) => u.id), name: `Bench group ${members}` },
    auth,
  );
  if (created.code !== 0) throw new Error(`group not created: ${created.code} ${created.msg}`);
  const groupId = created.data.id;
  for (let i = CREATE_MAX + 1; i < members; i += ADD_MAX) {
    const res = await http.post(
      '/enterprise/group/addGroupUser',
      { id: groupId, user_ids: group.slice(i, i + ADD_MAX).map((u) => u.id) },
      auth,
    );
    if (res.code !== 0) throw new Error(`members not added: ${res.code} ${res.msg}`);
  }
  // The joins' own pushes settle first.
  await sleep(3000);

  const steps = [];
  let n = 0;
  let retried = false;
  for (let rate = 2; rate <= MAX_RATE; rate *= STEP_FACTOR) {
    latencies = [];
    sentAt.clear();
    let failures = 0;
    const load = os.loadavg()[0];
    const total = Math.max(1, Math.round(rate * STEP_S));
    const start = performance.now();
    let sent = 0;
    await new Promise((resolve) => {
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
        for (; sent < due; sent++, n++) {
          sentAt.set(n, performance.now());
          http
            .post(
              '/enterprise/im/sendMessage',
              { id: randomUUID(), toContactId: groupId, type: 'text', content: `fan ${n}` },
              { ...auth, clientid: ownerClientId },
            )
            .then((res) => {
              if (res.code !== 0) failures += 1;
            })
            .catch(() => {
              failures += 1;
            });
        }
        if (sent < total) setTimeout(tick, 1);
        else resolve();
      };
      tick();
    });
    const expected = total * (members - 1);
    const until = Date.now() + 10_000;
    while (latencies.length < expected && Date.now() < until) await sleep(5);
    const missing = expected - latencies.length;
    const step = {
      rate,
      load,
      p50: percentile(latencies, 0.5),
      p99: missing > 0 ? Infinity : percentile(latencies, 0.99),
      deliveriesPerS: latencies.length / ((lastAt - start) / 1000),
      missing,
      failures,
    };
    steps.push(step);
    const held = step.p99 <= P99_GOAL_MS && failures === 0;
    // On a shared machine one step can miss by chance: a rate is given up after two misses in a row.
    if (!held && (retried || missing > 0)) break;
    retried = !held;
    if (!held) rate /= STEP_FACTOR;
  }
  for (const o of opened) await o.close();
  const held = steps.filter((s) => s.p99 <= P99_GOAL_MS && s.failures === 0);
  const best = held.reduce((a, b) => (a && a.deliveriesPerS >= b.deliveriesPerS ? a : b), undefined);
  return { steps, best };
}

await main('group-fanout', async () => {
  const load = os.loadavg()[0];
  const dir = tmpDir('group');
  const users = await seed({ dataDir: dir, users: MEMBERS, settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'] });
  const owner = users[0];
  const [baselineServer, sparrowServer] = await Promise.all([startBaseline(dir), startSparrow({ dataDir: dir })]);

  /** Counts group pushes per server without parsing them, so the client costs both servers alike. */
  const counter = () => {
    const c = { pushes: 0, lastAt: 0 };
    c.onFrame = (_socket, data) => {
      if (data.length >= GROUP_PREFIX.length && data.subarray(0, GROUP_PREFIX.length).equals(GROUP_PREFIX)) {
        c.pushes += 1;
        c.lastAt = performance.now();
      }
    };
    return c;
  };

  const sparrowPushes = counter();
  const sparrowSockets = await connectAll(sparrowServer.url, users, { onFrame: sparrowPushes.onFrame });
  const sparrowHttp = new HttpClient(sparrowServer.url);
  const created = await sparrowHttp.post(
    '/enterprise/group/add',
    { user_ids: users.slice(1).map((u) => u.id), name: 'Bench group' },
    { authorization: owner.token },
  );
  if (created.code !== 0) throw new Error(`group not created: ${created.code} ${created.msg}`);
  const groupId = created.data.id;
  const ownerClientId = sparrowSockets.sockets[0].clientId;
  // The creation's own pushes (addGroup, two event lines to every member) settle first.
  await sleep(2000);

  // The baseline broadcasts what Sparrow pushes: one real group push, captured.
  const probeId = randomUUID();
  const member = sparrowSockets.sockets[1];
  const captured = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no group push arrived')), 10_000);
    const onMessage = (data) => {
      const frame = JSON.parse(String(data));
      if (frame.type === 'group' && frame.data.id === probeId) {
        clearTimeout(timer);
        member.ws.off('message', onMessage);
        resolve(frame.data);
      }
    };
    member.ws.on('message', onMessage);
  });
  const probe = await sparrowHttp.post(
    '/enterprise/im/sendMessage',
    { id: probeId, toContactId: groupId, type: 'text', content: 'probe' },
    { authorization: owner.token, clientid: ownerClientId },
  );
  if (probe.code !== 0) throw new Error(`group send refused: ${probe.code} ${probe.msg}`);
  const payload = await captured;

  const baselinePushes = counter();
  await connectAll(baselineServer.url, users, { onFrame: baselinePushes.onFrame });
  const baselineHttp = new HttpClient(baselineServer.url);

  const TEXT = '大家好，今晚 8 点在三楼会议室开会，记得带上周报 📋 see you there!';
  const targets = [
    {
      name: 'baseline (bare ws broadcast)',
      pid: baselineServer.pid,
      counter: baselinePushes,
      send: (n) =>
        baselineHttp.post('/broadcast', {
          from: owner.id,
          data: { ...payload, id: randomUUID(), msg_id: n, content: TEXT },
        }),
    },
    {
      name: 'sparrow',
      pid: sparrowServer.pid,
      counter: sparrowPushes,
      send: () =>
        sparrowHttp.post(
          '/enterprise/im/sendMessage',
          { id: randomUUID(), toContactId: groupId, type: 'text', content: TEXT },
          { authorization: owner.token, clientid: ownerClientId },
        ),
    },
  ];
  for (const t of targets)
    Object.assign(t, { sent: 0, delivered: 0, seconds: 0, cpu: 0, failures: 0, firstFailure: '' });

  /** Sends for `seconds` with WINDOW in flight, then waits (up to 10 s) for every push of the turn. */
  const turn = async (t, seconds, counted) => {
    const c = t.counter;
    const before = c.pushes;
    const cpu0 = cpuMs(t.pid);
    const start = performance.now();
    const stopAt = start + seconds * 1000;
    let sent = 0;
    const lane = async () => {
      while (performance.now() < stopAt) {
        const res = await t.send(t.sent + sent++).catch((err) => ({ code: -1, msg: String(err) }));
        if (res.code !== 0) {
          t.failures += 1;
          t.firstFailure ||= `${res.code} ${res.msg}`;
        }
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, lane));
    const expected = sent * (MEMBERS - 1);
    const until = Date.now() + 10_000;
    while (c.pushes - before < expected && Date.now() < until) await sleep(5);
    if (counted) {
      t.cpu += cpuMs(t.pid) - cpu0;
      t.delivered += c.pushes - before;
      t.expected = (t.expected ?? 0) + expected;
      t.seconds += (c.lastAt - start) / 1000;
      t.messages = (t.messages ?? 0) + sent;
    }
    t.sent += sent;
  };

  for (const t of targets) await turn(t, WARMUP_S, false);
  for (let i = 0; i < TURNS; i++) for (const t of targets) await turn(t, TURN_S, true);

  console.log(
    `${MEMBERS} members, all bound; ${WINDOW} sends in flight; ${TURNS} turns of ${TURN_S} s each; ` +
      `push of ${Buffer.byteLength(JSON.stringify({ type: 'group', data: payload }))} bytes; load average ${fmt(load)} → ${fmt(os.loadavg()[0])} on ${os.cpus().length} cores\n`,
  );
  const rate = (t) => t.delivered / t.seconds;
  table([
    ['server', 'server CPU ms/msg', 'messages', 'deliveries', 'missing', 'messages/s', 'deliveries/s'],
    ...targets.map((t) => [
      t.name,
      fmt(t.cpu / t.messages, 2),
      t.messages,
      t.delivered,
      t.expected - t.delivered,
      fmt(t.messages / t.seconds, 1),
      fmt(rate(t), 0),
    ]),
  ]);
  for (const t of targets)
    if (t.failures) console.log(`${t.name}: ${t.failures} sends failed, first: ${t.firstFailure}`);
  const [b, s] = targets;
  const ratio = rate(s) / rate(b);
  console.log(`\nserver CPU per message ratio = sparrow/baseline = ${fmt(s.cpu / s.messages / (b.cpu / b.messages))}`);
  console.log(`deliveries/s ratio = sparrow/baseline = ${fmt(ratio)}`);
  const complete = s.failures === 0 && s.delivered === s.expected;
  verdict(
    ratio >= GOAL_RATIO && complete,
    `group-fanout: ${fmt(rate(s), 0)} deliveries/s vs baseline ${fmt(rate(b), 0)} = ${fmt(ratio)}x (goal >= ${GOAL_RATIO}x)` +
      (complete ? '' : `; ${s.failures} refused, ${s.expected - s.delivered} pushes missing`),
  );
  await Promise.all([baselineServer.stop(), sparrowServer.stop()]);

  // Deliveries per second at p99 <= 100 ms: one SQLite process, then two over PostgreSQL + Redis.
  const most = Math.max(...SIZES);
  const settings = [...BENCH_SETTINGS, 'sysInfo.runMode=1', 'chatInfo.groupUserMax=0'];
  const modes = [];
  const sqliteDir = tmpDir('group-p99');
  const sqliteUsers = await seed({ dataDir: sqliteDir, users: most, settings });
  const single = await startSparrow({ dataDir: sqliteDir, label: 'sparrow (SQLite)', compiled: true });
  modes.push({ name: 'SQLite, one process', servers: [single], users: sqliteUsers });
  const databaseUrl = await createPgDatabase();
  const redisUrl = process.env.REDIS_URL;
  if (databaseUrl && redisUrl) {
    const pgDir = tmpDir('group-p99-pg');
    const pgUsers = await seed({ dataDir: pgDir, databaseUrl, users: most, settings });
    const redisPrefix = `sparrow-bench-${randomUUID()}:`;
    const nodes = [];
    for (const label of ['node A', 'node B'])
      nodes.push(await startSparrow({ dataDir: pgDir, databaseUrl, redisUrl, redisPrefix, label, compiled: true }));
    modes.push({ name: 'PostgreSQL + Redis, two processes', servers: nodes, users: pgUsers });
  } else {
    console.log('\n(PostgreSQL + Redis, two processes: skipped, PostgreSQL or REDIS_URL is not reachable)');
  }
  const results = [];
  for (const members of SIZES)
    for (const mode of modes)
      results.push({ members, mode: mode.name, ...(await rampAtP99(mode.servers, mode.users, members)) });

  console.log(
    `\nGroup deliveries per second at p99 send → push <= ${P99_GOAL_MS} ms; open-loop sends, each rate held ${STEP_S} s, ` +
      `raised ${STEP_FACTOR}x until the p99 passes twice in a row or a push is missing; load average now ${fmt(os.loadavg()[0])}\n`,
  );
  table([
    ['members', 'servers', 'messages/s', 'load avg', 'p50 ms', 'p99 ms', 'deliveries/s', 'missing', 'refused'],
    ...results.flatMap((r) =>
      r.steps.map((s) => [
        r.members,
        r.mode,
        fmt(s.rate, 1),
        fmt(s.load),
        fmt(s.p50),
        fmt(s.p99),
        fmt(s.deliveriesPerS, 0),
        s.missing,
        s.failures,
      ]),
    ),
  ]);
  for (const members of SIZES) {
    const here = results.filter((r) => r.members === members);
    const figure = (r) =>
      r.best ? `${fmt(r.best.deliveriesPerS, 0)} deliveries/s (${fmt(r.best.rate, 1)} messages/s)` : 'none held';
    const [one, two] = here;
    // The two processes over PostgreSQL + Redis are what this figure is for: without them it is a MISS.
    verdict(
      here.length === 2 && here.every((r) => r.best),
      `group-fanout p99 <= ${P99_GOAL_MS} ms, ${members} members: ${one.mode} ${figure(one)}` +
        (two
          ? `; ${two.mode} ${figure(two)}` +
            (one.best && two.best ? ` = ${fmt(two.best.deliveriesPerS / one.best.deliveriesPerS)}x` : '')
          : '; PostgreSQL + Redis, two processes: not measured') +
        ` (reference: the bare ws broadcast above)`,
    );
  }
});
