// Cross-node hop (issue 4, "Speed"): two Sparrow processes on one database (PostgreSQL when it answers,
// else one shared SQLite file) with the Redis bus. Senders are bound on node A and send through A;
// each message goes to a receiver bound on A or to one bound on B, alternately, so both kinds see the
// same moment of the run; p50(B) − p50(A) is printed. Group messages to one member on each node give
// the hop paired, message by message: the goal is judged on the median of those differences, since
// two medians of different messages on a busy machine differ by more than a millisecond by chance.
// For reference, the same load on a single node with the in-process bus shows what Redis costs.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  BENCH_SETTINGS,
  connectAll,
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

const PAIRS = 10;
const RATE = 25;
const WARMUP_S = 1;
const MEASURE_S = 12;
const GOAL_HOP_MS = 1;

await main('cross-node', async () => {
  const load = os.loadavg()[0];
  const dir = tmpDir('cross');
  const databaseUrl = await createPgDatabase();
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redisPrefix = `sparrow-bench-${randomUUID()}:`;
  // senders, receivers on A, receivers on B
  const users = await seed({
    dataDir: dir,
    databaseUrl,
    users: PAIRS * 3,
    settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'],
  });
  const senders = users.slice(0, PAIRS);
  const onA = users.slice(PAIRS, PAIRS * 2);
  const onB = users.slice(PAIRS * 2);

  const [a, b] = await Promise.all([
    startSparrow({ dataDir: dir, databaseUrl, redisUrl, redisPrefix, label: 'node A' }),
    startSparrow({ dataDir: dir, databaseUrl, redisUrl, redisPrefix, label: 'node B' }),
  ]);

  /**
   * The same hop, paired: one group message per send, with one member bound on A and one on B;
   * per message, the B push's arrival minus the A push's. Whatever delays a send delays both.
   */
  const pairedHop = async (nodeA, nodeB) => {
    const arrivals = new Map();
    const seen = (side) => (_socket, data) => {
      const frame = JSON.parse(data);
      if (frame.type !== 'group') return;
      let at = arrivals.get(frame.data.id);
      if (!at) arrivals.set(frame.data.id, (at = {}));
      at[side] = performance.now();
    };
    const opened = [
      await connectAll(nodeA.url, senders),
      await connectAll(nodeA.url, onA, { onFrame: seen('a') }),
      await connectAll(nodeB.url, onB, { onFrame: seen('b') }),
    ];
    const clientIds = new Map(opened[0].sockets.map((s) => [s.user.id, s.clientId]));
    const http = new HttpClient(nodeA.url);
    const groups = [];
    for (let i = 0; i < PAIRS; i++) {
      const res = await http.post(
        '/enterprise/group/add',
        { user_ids: [onA[i].id, onB[i].id] },
        { authorization: senders[i].token },
      );
      if (res.code !== 0) throw new Error(`group not created: ${res.code} ${res.msg}`);
      groups.push(res.data.id);
    }
    await sleep(500);
    arrivals.clear();
    const ids = [];
    const total = RATE * MEASURE_S;
    for (let n = 0; n < total; n++) {
      const i = n % PAIRS;
      const id = randomUUID();
      ids.push(id);
      void http
        .post(
          '/enterprise/im/sendMessage',
          { id, toContactId: groups[i], type: 'text', content: `pair ${n}` },
          { authorization: senders[i].token, clientid: clientIds.get(senders[i].id) },
        )
        .catch(() => undefined);
      await sleep(1000 / RATE);
    }
    const until = Date.now() + 10_000;
    while (ids.some((id) => !arrivals.get(id)?.a || !arrivals.get(id)?.b) && Date.now() < until) await sleep(20);
    for (const o of opened) await o.close();
    const diffs = ids.flatMap((id) => {
      const at = arrivals.get(id);
      return at?.a && at?.b ? [at.b - at.a] : [];
    });
    return { n: diffs.length, missing: total - diffs.length, p50: percentile(diffs, 0.5), p90: percentile(diffs, 0.9) };
  };

  /** Sends to `receivers` (alternately `kinds`) through `server`, with every sender bound to `server`. */
  const measure = async (server, receiversByKind) => {
    const pending = new Map();
    const latencies = Object.fromEntries(Object.keys(receiversByKind).map((k) => [k, []]));
    const onFrame = (_socket, data) => {
      const frame = JSON.parse(data);
      if (frame.type !== 'simple') return;
      const sent = pending.get(frame.data.id);
      if (!sent) return;
      pending.delete(frame.data.id);
      if (sent.counted) latencies[sent.kind].push(performance.now() - sent.t0);
    };
    const opened = [await connectAll(server.url, senders, { onFrame })];
    for (const { node, users: rs } of Object.values(receiversByKind))
      opened.push(await connectAll(node.url, rs, { onFrame }));
    const clientIds = new Map(opened[0].sockets.map((s) => [s.user.id, s.clientId]));
    await sleep(500);
    const http = new HttpClient(server.url);
    const kinds = Object.keys(receiversByKind);
    let failures = 0;
    let firstFailure = '';
    const total = RATE * (WARMUP_S + MEASURE_S);
    let n = 0;
    const start = performance.now();
    await new Promise((resolve) => {
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE));
        for (; n < due; n++) {
          const kind = kinds[n % kinds.length];
          const i = Math.floor(n / kinds.length) % PAIRS;
          const sender = senders[i];
          const receiver = receiversByKind[kind].users[i];
          const id = randomUUID();
          pending.set(id, { t0: performance.now(), kind, counted: n >= RATE * WARMUP_S });
          http
            .post(
              '/enterprise/im/sendMessage',
              { id, toContactId: receiver.id, type: 'text', content: `hop ${n}` },
              { authorization: sender.token, clientid: clientIds.get(sender.id) },
            )
            .then(
              (res) => res.code === 0 || Promise.reject(new Error(`${res.code} ${res.msg}`)),
              (err) => Promise.reject(err),
            )
            .catch((err) => {
              failures += 1;
              firstFailure ||= String(err);
              pending.delete(id);
            });
        }
        if (n < total) setTimeout(tick, 1);
        else resolve();
      };
      tick();
    });
    const until = Date.now() + 10_000;
    while (pending.size > 0 && Date.now() < until) await sleep(10);
    const lost = pending.size;
    for (const o of opened) await o.close();
    return { latencies, failures, firstFailure, lost };
  };

  const cluster = await measure(a, {
    'receiver on A': { node: a, users: onA },
    'receiver on B': { node: b, users: onB },
  });
  const paired = await pairedHop(a, b);
  await Promise.all([a.stop(), b.stop()]);

  // Reference: the same database, one node, no Redis.
  const single = await startSparrow({ dataDir: dir, databaseUrl, label: 'single node' });
  const local = await measure(single, { 'one node, in-process bus': { node: single, users: onA } });
  await single.stop();

  const stats = (xs) => ({
    n: xs.length,
    p50: percentile(xs, 0.5),
    p90: percentile(xs, 0.9),
    p99: percentile(xs, 0.99),
  });
  const rows = [
    ...Object.entries(cluster.latencies).map(([k, xs]) => [k, stats(xs)]),
    ...Object.entries(local.latencies).map(([k, xs]) => [`${k} (reference)`, stats(xs)]),
  ];
  console.log(
    `${databaseUrl ? 'PostgreSQL' : 'shared SQLite file'} + Redis; ${PAIRS} senders on node A; ${RATE} messages/s for ${MEASURE_S} s ` +
      `after ${WARMUP_S} s of warm-up; latency send → push in ms; load average ${fmt(load)} → ${fmt(os.loadavg()[0])} on ${os.cpus().length} cores\n`,
  );
  table([
    ['receiver', 'messages', 'p50', 'p90', 'p99'],
    ...rows.map(([k, s]) => [k, s.n, fmt(s.p50), fmt(s.p90), fmt(s.p99)]),
  ]);
  for (const r of [cluster, local])
    if (r.failures || r.lost)
      console.log(`${r.failures} sends failed (first: ${r.firstFailure}), ${r.lost} pushes missing`);
  const pa = percentile(cluster.latencies['receiver on A'], 0.5);
  const pb = percentile(cluster.latencies['receiver on B'], 0.5);
  const hop = pb - pa;
  console.log(`\nunpaired: p50(B) - p50(A) = ${fmt(pb)} - ${fmt(pa)} = ${fmt(hop)} ms`);
  console.log(
    `paired (one group push to a member on A and one on B, ${paired.n} messages${paired.missing ? `, ${paired.missing} incomplete` : ''}): ` +
      `arrival on B minus arrival on A: p50 ${fmt(paired.p50)} ms, p90 ${fmt(paired.p90)} ms`,
  );
  const complete = cluster.failures === 0 && cluster.lost === 0 && paired.missing === 0;
  verdict(
    paired.p50 <= GOAL_HOP_MS && complete,
    `cross-node: added hop ${fmt(paired.p50)} ms at p50, paired (goal <= ${GOAL_HOP_MS} ms); ` +
      `unpaired p50(B) - p50(A) = ${fmt(pb)} - ${fmt(pa)} = ${fmt(hop)} ms` +
      (complete ? '' : `; ${cluster.failures} refused, ${cluster.lost + paired.missing} not delivered`),
  );
});
