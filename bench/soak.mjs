// Soak (issue 16): SOAK_SOCKETS (2 000) authenticated, bound sockets held for SOAK_SECONDS (120)
// while senders post SOAK_RATE (100) private messages/s over keep-alive HTTP, open loop. Prints the
// delivery latency (send start → the receiver's `simple` push) p50/p99, the errors (refused or failed
// sends, pushes not delivered within 10 s, sockets the server closed) and the server's RSS at the
// start of the run and at its end. MISS when there was any error or the RSS grew by more than
// RSS_GROWTH_MAX. The run starts once the sockets are bound, the server has gone quiet after their
// sign-ins, and WARMUP_S of sending have passed, so that the start RSS is that of a server at work,
// neither still working through the sign-ins nor still growing its heap into its load.
//
//   npm run bench -- soak                                  # 2 minutes
//   SOAK_SECONDS=1800 npm run bench -- soak                # 30 minutes
//   SOAK_SECONDS=86400 npm run bench -- soak               # 24 hours
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
  rssKb,
  seed,
  sleep,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';

const envNumber = (name, fallback) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const SECONDS = envNumber('SOAK_SECONDS', 120);
const SOCKETS = Math.round(envNumber('SOAK_SOCKETS', 2000));
const RATE = envNumber('SOAK_RATE', 100);
/** RSS at the end may be at most this much above RSS at the start (0.2: 20%). */
const RSS_GROWTH_MAX = 0.2;
const WARMUP_S = 10;
const QUIET_CPU = 0.1;
const QUIET_MAX_S = 60;
/**
 * The start RSS is the median of the once-a-second readings over the run's first tenth (at least
 * 10 s), the end RSS that over its last: RSS rises and falls with the collector by tens of MiB.
 */
const RSS_WINDOW_S = Math.max(10, Math.round(SECONDS / 10));
/** A push not seen this long after its send started counts as not delivered. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** A progress line every this many seconds: a tenth of the run, at least 10 s, at most 15 min. */
const REPORT_EVERY_S = Math.min(900, Math.max(10, Math.round(SECONDS / 10)));

const TEXTS = ['在吗？', 'on my way 🚲', '好的，明天见', 'did you see the draft I sent this morning?', '👍👍', 'ok'];

/**
 * Latencies in buckets 1% wide, from 0.01 ms up: a day at 100 messages/s is 8.6 million samples,
 * which a histogram holds in a few kilobytes and answers percentiles from to within 1%.
 */
class Histogram {
  static STEP = Math.log(1.01);
  static FLOOR_MS = 0.01;
  counts = new Float64Array(2000);
  n = 0;

  add(ms) {
    const i = Math.max(0, Math.floor(Math.log(Math.max(ms, Histogram.FLOOR_MS) / Histogram.FLOOR_MS) / Histogram.STEP));
    this.counts[Math.min(i, this.counts.length - 1)] += 1;
    this.n += 1;
  }

  /** The upper edge of the bucket below which `p` (0–1) of the samples fall. */
  percentile(p) {
    if (this.n === 0) return NaN;
    const rank = Math.max(1, Math.ceil(p * this.n));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i];
      if (seen >= rank) return Histogram.FLOOR_MS * Math.exp((i + 1) * Histogram.STEP);
    }
    return Infinity;
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
};

/**
 * Waits until the server has worked through the sign-ins (in runMode 1 each one is pushed to every
 * socket): less than QUIET_CPU of a core over a second, or QUIET_MAX_S. Answers the seconds waited.
 */
async function quiet(pid) {
  const started = performance.now();
  let before = cpuMs(pid);
  while (performance.now() - started < QUIET_MAX_S * 1000) {
    await sleep(1000);
    const now = cpuMs(pid);
    if (now - before < QUIET_CPU * 1000) break;
    before = now;
  }
  return (performance.now() - started) / 1000;
}

await main('soak', async () => {
  const load = os.loadavg()[0];
  const dir = tmpDir('soak');
  const users = await seed({ dataDir: dir, users: SOCKETS, settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'] });
  const server = await startSparrow({ dataDir: dir });
  const pairs = [];
  for (let i = 0; i + 1 < users.length; i += 2) pairs.push({ sender: users[i], receiver: users[i + 1] });

  /** message id → when its send started, and whether the run counts it (not the warm-up) */
  const pending = new Map();
  const all = new Histogram();
  let interval = new Histogram();
  /** Whether sends now count: the run, not the warm-up. */
  let measuring = false;
  const errors = { refused: 0, failed: 0, undelivered: 0, closed: 0 };
  let firstError = '';
  const error = (kind, why) => {
    errors[kind] += 1;
    firstError ||= `${kind}: ${why}`;
  };

  const boundStart = performance.now();
  const { sockets } = await connectAll(server.url, users, {
    width: 100,
    timeoutMs: 180_000,
    onFrame: (_socket, data) => {
      const frame = JSON.parse(data);
      if (frame.type !== 'simple') return;
      const sent = pending.get(frame.data.id);
      if (sent === undefined) return;
      pending.delete(frame.data.id);
      if (!sent.counted) return;
      const ms = performance.now() - sent.t0;
      all.add(ms);
      interval.add(ms);
    },
  });
  const boundS = (performance.now() - boundStart) / 1000;
  let ending = false;
  for (const s of sockets) s.ws.on('close', (code) => ending || error('closed', `socket closed with ${code}`));
  const clientIds = new Map(sockets.map((s) => [s.user.id, s.clientId]));
  const http = new HttpClient(server.url, 128);
  const quietS = await quiet(server.pid);
  const rssBound = rssKb(server.pid);

  let sent = 0;
  const send = () => {
    const { sender, receiver } = pairs[sent % pairs.length];
    const id = randomUUID();
    const content = `${TEXTS[sent % TEXTS.length]} #${sent}`;
    sent += 1;
    pending.set(id, { t0: performance.now(), counted: measuring });
    http
      .post(
        '/enterprise/im/sendMessage',
        { id, toContactId: receiver.id, type: 'text', content },
        { authorization: sender.token, clientid: clientIds.get(sender.id) },
      )
      .then(
        (res) => {
          if (res.code === 0) return;
          pending.delete(id);
          error('refused', `${res.code} ${res.msg}`);
        },
        (err) => {
          pending.delete(id);
          error('failed', String(err));
        },
      );
  };
  /** Pushes overdue: counted once, then forgotten. */
  const sweep = () => {
    const overdue = performance.now() - DELIVERY_TIMEOUT_MS;
    for (const [id, { t0 }] of pending) {
      if (t0 > overdue) break;
      pending.delete(id);
      error('undelivered', `no push for message ${id} within ${DELIVERY_TIMEOUT_MS} ms`);
    }
  };

  /** Sends at RATE on schedule for `seconds`; `each(s)` is called once a second with the elapsed seconds. */
  const sendFor = (seconds, each) =>
    new Promise((resolve) => {
      const total = Math.round(RATE * seconds);
      const start = performance.now();
      let n = 0;
      let second = 0;
      const tick = () => {
        const elapsed = (performance.now() - start) / 1000;
        const due = Math.min(total, Math.floor(elapsed * RATE));
        while (n < due) {
          send();
          n += 1;
        }
        while (second < Math.floor(elapsed)) each(++second);
        if (n < total) setTimeout(tick, 5);
        else resolve();
      };
      tick();
    });

  console.log(
    `${SOCKETS} sockets bound in ${fmt(boundS, 1)} s (runMode 1: each sign-in announced to everyone), ` +
      `the server quiet ${fmt(quietS, 0)} s later; RSS ${fmt(rssBound / 1024, 1)} MiB. ` +
      `Warm-up ${WARMUP_S} s, then ${SECONDS} s at ${RATE} msg/s; load average ${fmt(load)} on ${os.cpus().length} cores\n`,
  );
  await sendFor(WARMUP_S, sweep);

  measuring = true;
  const rss = [];
  const cpu0 = cpuMs(server.pid);
  // Printed as it goes, so that a run of hours shows how it is doing.
  const line = (cells) => console.log(cells.map((c) => String(c).padStart(10)).join(''));
  console.log(`every ${REPORT_EVERY_S} s, the latencies of that stretch:`);
  line(['elapsed s', 'sent', 'delivered', 'p50 ms', 'p99 ms', 'RSS MiB', 'errors']);
  const errorCount = () => Object.values(errors).reduce((a, b) => a + b, 0);
  const sentAtStart = sent;
  await sendFor(SECONDS, (s) => {
    sweep();
    rss.push(rssKb(server.pid));
    if (s % REPORT_EVERY_S !== 0) return;
    line([
      s,
      sent - sentAtStart,
      all.n,
      fmt(interval.percentile(0.5)),
      fmt(interval.percentile(0.99)),
      fmt(rss.at(-1) / 1024, 1),
      errorCount(),
    ]);
    interval = new Histogram();
  });
  const counted = sent - sentAtStart;
  const cpu = cpuMs(server.pid) - cpu0;
  const until = performance.now() + DELIVERY_TIMEOUT_MS;
  while (pending.size > 0 && performance.now() < until) await sleep(20);
  sweep();
  for (const id of pending.keys()) error('undelivered', `no push for message ${id}`);
  ending = true;

  const window = Math.min(RSS_WINDOW_S, Math.floor(rss.length / 2));
  const rssStart = median(rss.slice(0, window));
  const rssEnd = median(rss.slice(-window));
  const growth = rssEnd / rssStart - 1;
  console.log('');
  table([
    [
      'sent',
      'delivered',
      'p50 ms',
      'p99 ms',
      'max ms',
      'server CPU ms/msg',
      'RSS start MiB',
      'RSS end MiB',
      'RSS max MiB',
    ],
    [
      counted,
      all.n,
      fmt(all.percentile(0.5)),
      fmt(all.percentile(0.99)),
      fmt(all.percentile(1)),
      fmt(cpu / counted, 3),
      fmt(rssStart / 1024, 1),
      fmt(rssEnd / 1024, 1),
      fmt(Math.max(...rss) / 1024, 1),
    ],
  ]);
  console.log(
    `\nerrors: ${errors.refused} refused, ${errors.failed} failed, ${errors.undelivered} not delivered, ` +
      `${errors.closed} sockets closed${firstError ? `; first: ${firstError}` : ''}`,
  );
  const total = errorCount();
  verdict(
    total === 0 && growth <= RSS_GROWTH_MAX,
    `soak: ${SOCKETS} sockets, ${RATE} msg/s for ${SECONDS} s: p50 ${fmt(all.percentile(0.5))} ms, p99 ${fmt(all.percentile(0.99))} ms; ` +
      `RSS ${fmt(rssStart / 1024, 1)} → ${fmt(rssEnd / 1024, 1)} MiB (${growth >= 0 ? '+' : ''}${fmt(growth * 100, 1)}%, ` +
      `goal <= +${RSS_GROWTH_MAX * 100}%); ${total} errors (goal 0)`,
  );
  await server.stop();
});
