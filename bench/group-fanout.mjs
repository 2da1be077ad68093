// Group fan-out (issue 4, "Speed"): a 500-member group, every member's socket bound; messages sent
// to the group with a few in flight at a time; deliveries per second = pushes received by members
// per second of wall time, from the first send of a turn to the last push of it. The baseline is a
// bare `ws` server broadcasting the same payload to the same 500 sockets (no database, no rules).
//
// Both servers hold their sockets for the whole run and take the load in turns, so that whatever
// else the machine is doing meanwhile falls on both alike.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  BENCH_SETTINGS,
  connectAll,
  cpuMs,
  fmt,
  HttpClient,
  main,
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
});
