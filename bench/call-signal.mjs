// Calls (issue 18, "Speed"). Two figures:
//
// 1. Server CPU per signal. 50 calls are placed and answered; then the parties exchange ICE
//    candidates through sendToMsg at 500 signals/s in total (open loop), each relayed to the other
//    party's socket as a `webrtc` push. The baseline is the bare `ws` relay of baseline-server.mjs
//    pushing the same frames (POST /signal), under the same load, in the same run. Reported: CPU ms
//    per signal of each server, their ratio, and the delivery p50/p99.
// 2. Call set-up time over loopback: in one Chromium page, two users of Sparrow each with a socket
//    and an RTCPeerConnection (fake microphone) place a call through the server (calling, acceptRtc,
//    offer, answer, candidates) until both connections are `connected`; the median of 10 calls.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import {
  BENCH_SETTINGS,
  connectAll,
  cpuMs,
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

const PAIRS = 50;
const RATE = 500;
const WARMUP_S = 3;
const COUNTED_S = 4;
const SETUPS = 10;
/** A call over loopback should connect well within a second of `calling`. */
const GOAL_SETUP_MS = 1000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CANDIDATE = JSON.stringify({
  candidate: 'candidate:842163049 1 udp 1677729535 192.0.2.10 46154 typ srflx raddr 10.0.0.2 rport 46154',
  sdpMLineIndex: 0,
  sdpMid: '0',
});

/** How each server takes one ICE candidate from `from` for `to` in call `id`. */
const KINDS = {
  baseline: {
    name: 'baseline (ws relay of the frame)',
    signal: (http, { from, to, id }) => http.post('/signal', { from: from.id, to: to.id, id, iceCandidate: CANDIDATE }),
  },
  sparrow: {
    name: 'sparrow (sendToMsg)',
    signal: (http, { from, to, id }) =>
      http.post(
        '/enterprise/im/sendToMsg',
        { id, toContactId: to.id, type: 0, event: 'iceCandidate', iceCandidate: CANDIDATE },
        { authorization: from.token },
      ),
  },
};

/** Sends signals at RATE for `seconds`; answers the CPU the server spent and the delivery latencies. */
async function load(server, users, calls, seconds, inFlight) {
  const http = new HttpClient(server.url);
  const total = Math.round(RATE * seconds);
  const started = performance.now();
  const cpu0 = cpuMs(server.pid);
  let failures = 0;
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const call = calls[n % calls.length];
    const forward = n % 2 === 0;
    const leg = forward ? { from: call.caller, to: call.callee } : { from: call.callee, to: call.caller };
    const queue = inFlight.get(`${call.id}:${leg.to.id}`) ?? [];
    inFlight.set(`${call.id}:${leg.to.id}`, queue);
    queue.push({ t0: performance.now() });
    KINDS[server.kind].signal(http, { ...leg, id: call.id }).then(
      (res) => res.code === 0 || (failures += 1),
      () => (failures += 1),
    );
  }
  const deadline = performance.now() + 10_000;
  while ([...inFlight.values()].some((q) => q.length) && performance.now() < deadline) await sleep(20);
  return {
    cpu: cpuMs(server.pid) - cpu0,
    total,
    failures,
    lost: [...inFlight.values()].reduce((s, q) => s + q.length, 0),
  };
}

/** A server with PAIRS calls placed and answered (Sparrow) or just named (baseline), and its sockets. */
async function prepare(server, users) {
  const latencies = [];
  const inFlight = new Map();
  await connectAll(server.url, users, {
    onFrame: (socket, data) => {
      const frame = JSON.parse(data);
      if (frame.type !== 'webrtc' || frame.data.extends?.event !== 'iceCandidate') return;
      const queue = inFlight.get(`${frame.data.id}:${socket.user.id}`);
      const sent = queue?.shift();
      if (sent) latencies.push(performance.now() - sent.t0);
    },
  });
  const calls = [];
  const http = new HttpClient(server.url);
  for (let i = 0; i + 1 < users.length; i += 2) {
    const call = { id: randomUUID(), caller: users[i], callee: users[i + 1] };
    if (server.kind === 'sparrow') {
      const rang = await http.post(
        '/enterprise/im/sendToMsg',
        { id: call.id, toContactId: call.callee.id, type: 0, event: 'calling' },
        { authorization: call.caller.token },
      );
      if (rang.code !== 0 || rang.data.extends.code !== 901) throw new Error(`calling: ${JSON.stringify(rang)}`);
      const answered = await http.post(
        '/enterprise/im/sendToMsg',
        { id: call.id, toContactId: call.caller.id, type: 0, event: 'acceptRtc' },
        { authorization: call.callee.token },
      );
      if (answered.code !== 0) throw new Error(`acceptRtc: ${JSON.stringify(answered)}`);
    }
    calls.push(call);
  }
  return { server, calls, latencies, inFlight };
}

/** In-page: one call between two users through the server, until both connections are connected; ms. */
async function setUpCall(page, a, b) {
  return page.evaluate(
    async ({ a, b }) => {
      const post = (path, user, body) =>
        fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: user.token },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      const socket = (user) =>
        new Promise((resolve) => {
          const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/wss`);
          const s = { ws, on: () => undefined };
          ws.onmessage = (e) => {
            const f = JSON.parse(e.data);
            if (f.type === 'init') ws.send(JSON.stringify({ type: 'bindUid', user_id: user.id, token: user.token }));
            else if (f.type === 'pong' && !s.bound) {
              s.bound = true;
              resolve(s);
            } else if (f.type === 'webrtc') s.on(f.data);
          };
        });
      window.__sockets ??= { a: await socket(a), b: await socket(b) };
      const { a: sa, b: sb } = window.__sockets;
      const id = crypto.randomUUID();
      const t0 = performance.now();
      const mic = await navigator.mediaDevices.getUserMedia({ audio: true });
      const pcA = new RTCPeerConnection();
      const pcB = new RTCPeerConnection();
      mic.getTracks().forEach((t) => pcA.addTrack(t, mic));
      const connected = (pc) =>
        new Promise((resolve) => {
          pc.onconnectionstatechange = () => pc.connectionState === 'connected' && resolve();
        });
      const both = Promise.all([connected(pcA), connected(pcB)]);
      const ice = (pc, from, to) => {
        pc.onicecandidate = (e) =>
          e.candidate &&
          void post('/enterprise/im/sendToMsg', from, {
            id,
            toContactId: to.id,
            event: 'iceCandidate',
            iceCandidate: JSON.stringify(e.candidate.toJSON()),
          });
      };
      const take = (pc) => (data) => {
        if (data.id !== id || data.extends.event !== 'iceCandidate') return false;
        void pc.addIceCandidate(JSON.parse(data.extends.iceCandidate)).catch(() => undefined);
        return true;
      };
      sb.on = async (data) => {
        if (data.id !== id) return;
        if (take(pcB)(data)) return;
        if (data.extends.event === 'calling') {
          const micB = await navigator.mediaDevices.getUserMedia({ audio: true });
          micB.getTracks().forEach((t) => pcB.addTrack(t, micB));
          ice(pcB, b, a);
          await post('/enterprise/im/sendToMsg', b, { id, toContactId: a.id, event: 'acceptRtc' });
        } else if (data.extends.event === 'offer') {
          await pcB.setRemoteDescription({ type: 'offer', sdp: data.extends.sdp });
          const answer = await pcB.createAnswer();
          await pcB.setLocalDescription(answer);
          await post('/enterprise/im/sendToMsg', b, { id, toContactId: a.id, event: 'answer', sdp: answer.sdp });
        }
      };
      sa.on = async (data) => {
        if (data.id !== id) return;
        if (take(pcA)(data)) return;
        if (data.extends.event === 'acceptRtc') {
          ice(pcA, a, b);
          const offer = await pcA.createOffer();
          await pcA.setLocalDescription(offer);
          await post('/enterprise/im/sendToMsg', a, { id, toContactId: b.id, event: 'offer', sdp: offer.sdp });
        } else if (data.extends.event === 'answer') {
          await pcA.setRemoteDescription({ type: 'answer', sdp: data.extends.sdp });
        }
      };
      const rang = await post('/enterprise/im/sendToMsg', a, { id, toContactId: b.id, event: 'calling' });
      if (rang.code !== 0 || rang.data.extends.code !== 901) throw new Error(`calling: ${JSON.stringify(rang)}`);
      await both;
      const ms = performance.now() - t0;
      await post('/enterprise/im/sendToMsg', a, { id, toContactId: b.id, event: 'hangup' });
      pcA.close();
      pcB.close();
      mic.getTracks().forEach((t) => t.stop());
      return ms;
    },
    { a, b },
  );
}

await main('call-signal', async () => {
  const dir = tmpDir('call-signal');
  // Two more people than the calls under load: they place the calls whose set-up is timed.
  const everyone = await seed({
    dataDir: dir,
    users: PAIRS * 2 + 2,
    settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'],
  });
  const users = everyone.slice(0, PAIRS * 2);
  const [setUpA, setUpB] = everyone.slice(PAIRS * 2);
  const sparrow = await startSparrow({ dataDir: dir });
  const baseline = await startBaseline(dir);
  const ready = [await prepare(sparrow, users), await prepare(baseline, users)];
  const rows = [['server', 'signals', 'CPU ms/signal', 'p50 ms', 'p99 ms', 'lost', 'failed']];
  const perSignal = {};
  let undelivered = 0;
  for (const t of ready) await load(t.server, users, t.calls, WARMUP_S, t.inFlight);
  for (const t of ready) {
    t.latencies.length = 0;
    const r = await load(t.server, users, t.calls, COUNTED_S, t.inFlight);
    perSignal[t.server.kind] = r.cpu / r.total;
    undelivered += r.lost + r.failures;
    rows.push([
      KINDS[t.server.kind].name,
      r.total,
      fmt(r.cpu / r.total, 3),
      fmt(percentile(t.latencies, 0.5)),
      fmt(percentile(t.latencies, 0.99)),
      r.lost,
      r.failures,
    ]);
  }
  table(rows);
  console.log(`server CPU per signal, sparrow / baseline: ${fmt(perSignal.sparrow / perSignal.baseline)}`);
  verdict(undelivered === 0, `call-signal: every signal answered and relayed (${undelivered} lost or failed)`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  });
  try {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${sparrow.url}/no-such-page`);
    const times = [];
    for (let i = 0; i < SETUPS; i++) times.push(await setUpCall(page, setUpA, setUpB));
    const median = percentile(times, 0.5);
    verdict(median < GOAL_SETUP_MS, `call-signal: median call set-up ${fmt(median, 1)} ms < ${GOAL_SETUP_MS} ms`);
    console.log(
      `call set-up over loopback (calling → both connected), ${SETUPS} calls: median ${fmt(percentile(times, 0.5), 1)} ms, ` +
        `min ${fmt(Math.min(...times), 1)}, max ${fmt(Math.max(...times), 1)}`,
    );
  } finally {
    await browser.close();
  }
});
