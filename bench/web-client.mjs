// The web client's start (issue 25, benchmark 5): the production build opened cold (a fresh browser
// context, nothing cached) in headless Chromium with the CPU slowed 4× (DevTools throttling), as a
// low-end phone runs it. Times: navigation → login form painted (the frame that shows it, and no
// sooner than the first contentful paint); tap on "Log in" → Messages list painted; tap on the
// Contacts tab → Contacts list painted; for a user with WEB_CONVERSATIONS (500) conversations and
// WEB_CONTACTS (5 000) contacts (runMode 1: everyone in the organisation is a contact). Long tasks
// (over 50 ms) are counted from navigation to the Contacts list, and told apart by step. Medians of
// WEB_RUNS (3) cold starts; WEB_CPU_PROFILE=<file.cpuprofile> writes a DevTools CPU profile of the
// first run, to find what a long task is, and WEB_SCROLL_PROFILE=<file.cpuprofile> one of the long chat's
// scrolling. Then a warm start (issue 40): the page opened again with the
// device's local store filled, navigation → Messages list painted, with the server answering and
// with it out of reach (its HTTP calls and socket refused in the browser), and the longest task
// until then.
import fs from 'node:fs';
import os from 'node:os';
import { ensureWebClient, webDist } from '../scripts/web-client.mjs';
import {
  BENCH_SETTINGS,
  fmt,
  HttpClient,
  launchChromium,
  main,
  seed,
  startSparrow,
  table,
  tmpDir,
  verdict,
} from './lib.mjs';

const CONVERSATIONS = Number(process.env.WEB_CONVERSATIONS ?? 500);
const CONTACTS = Number(process.env.WEB_CONTACTS ?? 5000);
const RUNS = Number(process.env.WEB_RUNS ?? 3);
const CPU_PROFILE = process.env.WEB_CPU_PROFILE ?? '';
/** Messages in the one long chat that is scrolled through, and for how long it is scrolled, s. */
const LONG_CHAT = Number(process.env.WEB_LONG_CHAT ?? 10_000);
const SCROLL_S = Number(process.env.WEB_SCROLL_S ?? 30);
const SCROLL_PROFILE = process.env.WEB_SCROLL_PROFILE ?? '';
const GOAL_SCROLL_TASK_MS = 50;
const THROTTLE = 4;
const GOAL_LOGIN_MS = 1500;
const GOAL_LIST_MS = 1000;
const GOAL_LONG_TASK_MS = 200;
const GOAL_WARM_LIST_MS = 300;
/** The steps of a cold start, in the order the long tasks are told apart by. */
const STEPS = ['while loading', 'on the login page', 'sign-in → Messages list', 'Contacts tab'];

/** One message from each of `senders` to `to`: a conversation each in `to`'s Messages list. */
async function converse(http, senders, to) {
  let next = 0;
  const worker = async () => {
    while (next < senders.length) {
      const from = senders[next++];
      const res = await http.post(
        '/enterprise/im/sendMessage',
        { id: `web-client-${from.id}`, toContactId: to.id, type: 'text', content: `Hello from ${from.account}` },
        { authorization: from.token },
      );
      if (res.code !== 0) throw new Error(`send refused: ${res.code} ${res.msg}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** `count` text messages from `from` to `to`, sent in order: one long chat. */
async function longChat(http, from, to, count) {
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        http.post(
          '/enterprise/im/sendMessage',
          { id: `long-${i + j}`, toContactId: to.id, type: 'text', content: `Line ${i + j} of a long chat` },
          { authorization: from.token },
        ),
      ),
    );
  }
}

/**
 * Signs in as `user`, opens the chat with `peer` and scrolls up through its history for SCROLL_S
 * seconds, the CPU slowed as everywhere here: how many messages the client loaded on the way, and the
 * long tasks while it scrolled.
 */
async function scrollLongChat(browser, url, user, peer) {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-US' });
  try {
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    await context.addInitScript(instrument);
    const page = await context.newPage();
    let loaded = 0;
    page.on('response', async (res) => {
      if (!res.url().endsWith('/enterprise/im/getMessageList')) return;
      const body = await res.json().catch(() => null);
      loaded += Array.isArray(body?.data) ? body.data.length : 0;
    });
    await page.goto(`${url}/#/pages/login/login`);
    await page.getByRole('textbox', { name: 'Account' }).fill(user.account);
    await page.getByRole('textbox', { name: 'Password' }).fill('bench-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('.conv-name').length > 0);
    await page.goto(`${url}/#/pages/message/chat?id=${peer.id}`);
    const scroller = page.locator('[data-virtuoso-scroller]').first();
    await scroller.waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    if (SCROLL_PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const box = await scroller.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const from = await page.evaluate(() => performance.now());
    const until = Date.now() + SCROLL_S * 1000;
    while (Date.now() < until) {
      await page.mouse.wheel(0, -1200);
      await page.waitForTimeout(50);
    }
    const tasks = await page.evaluate((from) => window.__longTasks.filter((t) => t.start >= from), from);
    if (SCROLL_PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(SCROLL_PROFILE, JSON.stringify(profile));
      console.log(`CPU profile of the scrolling: ${SCROLL_PROFILE}`);
    }
    return { loaded, tasks };
  } finally {
    await context.close();
  }
}

/**
 * Runs in the page before any of its scripts: records long tasks, the time of the last tap (the
 * event's own time stamp), and `window.__painted(screen)`, which resolves with the time of the first
 * frame in which that screen's element is there (that frame is the one painted).
 */
function instrument() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  window.__fcp = Number.NaN;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  // When the local store's conversation list has been read (the first getAll of a warm start).
  window.__storeRead = [];
  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    const getAll = proto.getAll;
    proto.getAll = function (...args) {
      const request = getAll.apply(this, args);
      if ((this.objectStore ?? this).name === 'conversations') {
        const start = performance.now();
        request.addEventListener('success', () =>
          window.__storeRead.push({ start, end: performance.now(), rows: request.result.length }),
        );
      }
      return request;
    };
  }
  window.__tap = 0;
  window.__taps = [];
  document.addEventListener(
    'click',
    (e) => {
      window.__tap = e.timeStamp;
      window.__taps.push(e.timeStamp);
    },
    true,
  );
  const shown = {
    login: () => {
      const input = document.querySelector('form input[type="password"]');
      return !!input && input.getBoundingClientRect().height > 0;
    },
    messages: () => document.querySelectorAll('.conv-name').length > 0,
    home: () => document.querySelector('.fill-list') !== null,
    contacts: () => [...document.querySelectorAll('.contact-name')].some((el) => el.textContent.startsWith('Bench ')),
  };
  window.__painted = (screen) =>
    new Promise((resolve) => {
      const frame = () => (shown[screen]() ? resolve(performance.now()) : requestAnimationFrame(frame));
      requestAnimationFrame(frame);
    });
}

/** Waits in the page for `screen` to paint; ms since the last tap, or since navigation when `sinceTap` is false. */
function painted(page, screen, sinceTap) {
  return page.evaluate(
    async ({ screen, sinceTap }) => (await window.__painted(screen)) - (sinceTap ? window.__tap : 0),
    { screen, sinceTap },
  );
}

/**
 * The page opened again once the local store holds the list: ms from navigation to the Messages list
 * painted, and the longest task until then. `offline`: the server's HTTP calls and socket are refused.
 */
async function warmStart(page, url, offline) {
  if (offline) {
    await page.route(/\/(enterprise|common)\//, (route) => route.abort('connectionrefused'));
    await page.routeWebSocket(/\/wss$/, (ws) => ws.close());
  }
  await page.goto(`${url}/?warm=${offline ? 'offline' : 'online'}#/pages/index/index`, { waitUntil: 'commit' });
  const home = painted(page, 'home', false);
  const ms = await painted(page, 'messages', false);
  const homeMs = await home;
  await page.waitForTimeout(200);
  const { longTasks, read } = await page.evaluate(
    (until) => ({
      longTasks: window.__longTasks.filter((t) => t.start <= until),
      read: window.__storeRead[0] ?? null,
    }),
    ms,
  );
  if (offline) await page.unrouteAll();
  return {
    ms,
    homeMs,
    readStart: read?.start ?? Number.NaN,
    readEnd: read?.end ?? Number.NaN,
    rows: read?.rows ?? 0,
    longest: Math.max(0, ...longTasks.map((t) => t.ms)),
  };
}

/** Waits until the local store holds at least `n` conversation rows of the signed-in user. */
async function storeFilled(page, n) {
  await page.waitForFunction(
    async (n) => {
      const user = JSON.parse(localStorage.getItem('userInfo') ?? 'null')?.user_id;
      const db = await new Promise((resolve, reject) => {
        const req = indexedDB.open('sparrow');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      if (!db.objectStoreNames.contains('conversations')) return (db.close(), false);
      const count = await new Promise((resolve) => {
        const req = db
          .transaction('conversations')
          .objectStore('conversations')
          .count(IDBKeyRange.bound([user], [user, []]));
        req.onsuccess = () => resolve(req.result);
      });
      db.close();
      return count >= n;
    },
    n,
    { timeout: 60_000, polling: 500 },
  );
}

/** One cold start: a fresh context, the login page, sign-in, the Contacts tab; then the warm starts. */
async function coldStart(browser, url, user, profileTo) {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-US' });
  try {
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    await context.addInitScript(instrument);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    if (profileTo) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await page.goto(`${url}/#/pages/login/login`, { waitUntil: 'commit' });
    const formMs = await painted(page, 'login', false);
    await page.getByRole('textbox', { name: 'Account' }).fill(user.account);
    await page.getByRole('textbox', { name: 'Password' }).fill('bench-password');
    const messages = painted(page, 'messages', true);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    const messagesMs = await messages;
    await page.waitForTimeout(1000);
    const contacts = painted(page, 'contacts', true);
    await page.getByRole('button', { name: 'Contacts' }).click();
    const contactsMs = await contacts;
    await page.waitForTimeout(500);
    const { longTasks, fcp, taps } = await page.evaluate(() => ({
      longTasks: window.__longTasks,
      fcp: window.__fcp,
      taps: window.__taps,
    }));
    // Which step each long task fell in: loading, the login page, sign-in to Messages, the Contacts tab.
    // The form's frame is painted at the first contentful paint at the earliest.
    const loginMs = Number.isNaN(fcp) ? formMs : Math.max(formMs, fcp);
    const bounds = [loginMs, taps.at(-2) ?? Infinity, taps.at(-1) ?? Infinity];
    for (const t of longTasks) t.step = bounds.filter((b) => t.start >= b).length;
    if (profileTo) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(profileTo, JSON.stringify(profile));
    }
    await storeFilled(page, CONVERSATIONS);
    const warm = await warmStart(page, url, false);
    const warmOffline = await warmStart(page, url, true);
    return { loginMs, fcp, messagesMs, contactsMs, longTasks, warm, warmOffline };
  } finally {
    await context.close();
  }
}

await main('web-client', async () => {
  const load = os.loadavg()[0];
  ensureWebClient();
  const dataDir = tmpDir('web');
  const users = await seed({
    dataDir,
    users: Math.max(CONTACTS, CONVERSATIONS) + 1,
    settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'],
  });
  const [reader, ...others] = users;
  const server = await startSparrow({ dataDir, webDist, compiled: true });
  const http = new HttpClient(server.url, 8);
  await converse(http, others.slice(0, CONVERSATIONS), reader);
  const talker = others[0];
  await longChat(http, talker, reader, LONG_CHAT);

  const browser = await launchChromium();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await coldStart(browser, server.url, reader, i === 0 ? CPU_PROFILE : ''));
  if (CPU_PROFILE) console.log(`CPU profile of the first run: ${CPU_PROFILE}`);
  const scroll = await scrollLongChat(browser, server.url, reader, talker);
  const scrollLongest = Math.max(0, ...scroll.tasks.map((t) => t.ms));

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const loginMs = median(runs.map((r) => r.loginMs));
  const messagesMs = median(runs.map((r) => r.messagesMs));
  const contactsMs = median(runs.map((r) => r.contactsMs));
  const warmMs = median(runs.map((r) => r.warm.ms));
  const warmOfflineMs = median(runs.map((r) => r.warmOffline.ms));
  const tasks = runs.flatMap((r) => r.longTasks.map((t) => t.ms));
  const longest = Math.max(0, ...tasks);
  console.log(
    `${CONVERSATIONS} conversations, ${CONTACTS} contacts; CPU slowed ${THROTTLE}x; 375x812; medians of ${RUNS} cold starts; load average ${fmt(load)} at start, ${fmt(os.loadavg()[0])} now\n`,
  );
  table([
    ['step', 'median', 'runs', 'goal'],
    [
      'navigation → login form painted',
      `${fmt(loginMs, 0)} ms`,
      runs.map((r) => fmt(r.loginMs, 0)).join(' '),
      `<= ${GOAL_LOGIN_MS} ms`,
    ],
    [
      '  first contentful paint',
      `${fmt(median(runs.map((r) => r.fcp)), 0)} ms`,
      runs.map((r) => fmt(r.fcp, 0)).join(' '),
      '',
    ],
    [
      'tap "Log in" → Messages list painted',
      `${fmt(messagesMs, 0)} ms`,
      runs.map((r) => fmt(r.messagesMs, 0)).join(' '),
      `<= ${GOAL_LIST_MS} ms`,
    ],
    [
      'tap Contacts → Contacts list painted',
      `${fmt(contactsMs, 0)} ms`,
      runs.map((r) => fmt(r.contactsMs, 0)).join(' '),
      `<= ${GOAL_LIST_MS} ms`,
    ],
    [
      'long tasks > 50 ms (all runs)',
      String(tasks.length),
      `longest ${fmt(longest, 0)} ms`,
      `none > ${GOAL_LONG_TASK_MS} ms`,
    ],
    ...STEPS.map((name, step) => {
      const inStep = runs.flatMap((r) => r.longTasks.filter((t) => t.step === step).map((t) => t.ms));
      return [`  ${name}`, String(inStep.length), `longest ${fmt(Math.max(0, ...inStep), 0)} ms`, ''];
    }),
    [
      'warm start: navigation → Messages list painted',
      `${fmt(warmMs, 0)} ms`,
      runs.map((r) => fmt(r.warm.ms, 0)).join(' '),
      `<= ${GOAL_WARM_LIST_MS} ms`,
    ],
    [
      '  the Messages tab there, before its rows',
      `${fmt(median(runs.map((r) => r.warm.homeMs)), 0)} ms`,
      runs.map((r) => fmt(r.warm.homeMs, 0)).join(' '),
      '',
    ],
    [
      `  store read: getAll of ${runs[0]?.warm.rows ?? 0} rows asked → answered`,
      `${fmt(median(runs.map((r) => r.warm.readEnd)), 0)} ms`,
      runs.map((r) => `${fmt(r.warm.readStart, 0)}→${fmt(r.warm.readEnd, 0)}`).join(' '),
      '',
    ],
    ['  longest task until then', `${fmt(median(runs.map((r) => r.warm.longest)), 0)} ms`, '', ''],
    [
      '  the same, server out of reach',
      `${fmt(warmOfflineMs, 0)} ms`,
      runs.map((r) => fmt(r.warmOffline.ms, 0)).join(' '),
      `<= ${GOAL_WARM_LIST_MS} ms`,
    ],
    ['  longest task until then', `${fmt(median(runs.map((r) => r.warmOffline.longest)), 0)} ms`, '', ''],
    [
      `scrolling up a ${LONG_CHAT}-message chat for ${SCROLL_S} s: long tasks`,
      String(scroll.tasks.length),
      `longest ${fmt(scrollLongest, 0)} ms; ${scroll.loaded} messages loaded`,
      `none > ${GOAL_SCROLL_TASK_MS} ms`,
    ],
  ]);
  console.log('');
  verdict(
    loginMs <= GOAL_LOGIN_MS,
    `web-client login: painted in ${fmt(loginMs, 0)} ms at ${THROTTLE}x CPU (goal <= ${GOAL_LOGIN_MS}); load ${fmt(load)}`,
  );
  verdict(
    messagesMs <= GOAL_LIST_MS,
    `web-client messages: ${CONVERSATIONS} conversations painted ${fmt(messagesMs, 0)} ms after sign-in (goal <= ${GOAL_LIST_MS}); load ${fmt(load)}`,
  );
  verdict(
    contactsMs <= GOAL_LIST_MS,
    `web-client contacts: ${CONTACTS} contacts painted ${fmt(contactsMs, 0)} ms after the tap (goal <= ${GOAL_LIST_MS}); load ${fmt(load)}`,
  );
  verdict(
    Math.max(warmMs, warmOfflineMs) <= GOAL_WARM_LIST_MS,
    `web-client warm start: ${CONVERSATIONS} conversations from the local store painted ${fmt(warmMs, 0)} ms after navigation, ${fmt(warmOfflineMs, 0)} ms with the server out of reach (goal <= ${GOAL_WARM_LIST_MS}); load ${fmt(load)}`,
  );
  verdict(
    scrollLongest <= GOAL_SCROLL_TASK_MS,
    `web-client long chat: scrolling up ${SCROLL_S} s through a ${LONG_CHAT}-message chat (${scroll.loaded} loaded) at ${THROTTLE}x CPU, ${scroll.tasks.length} long tasks, longest ${fmt(scrollLongest, 0)} ms (goal: none over ${GOAL_SCROLL_TASK_MS}); load ${fmt(load)}`,
  );
  verdict(
    longest <= GOAL_LONG_TASK_MS,
    `web-client long tasks: ${tasks.length} over 50 ms in ${RUNS} runs, longest ${fmt(longest, 0)} ms (goal: none over ${GOAL_LONG_TASK_MS}); load ${fmt(load)}`,
  );
});
