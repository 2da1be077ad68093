// The web client's start (issue 25, benchmark 5): the production build opened cold (a fresh browser
// context, nothing cached) in headless Chromium with the CPU slowed 4× (DevTools throttling), as a
// low-end phone runs it. Times: navigation → login form painted (the frame that shows it, and no
// sooner than the first contentful paint); tap on "Log in" → Messages list painted; tap on the
// Contacts tab → Contacts list painted; for a user with WEB_CONVERSATIONS (500) conversations and
// WEB_CONTACTS (5 000) contacts (runMode 1: everyone in the organisation is a contact). Long tasks
// (over 50 ms) are counted from navigation to the Contacts list, and told apart by step. Medians of
// WEB_RUNS (3) cold starts; WEB_CPU_PROFILE=<file.cpuprofile> writes a DevTools CPU profile of the
// first run, to find what a long task is.
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
const THROTTLE = 4;
const GOAL_LOGIN_MS = 1500;
const GOAL_LIST_MS = 1000;
const GOAL_LONG_TASK_MS = 200;
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

/** One cold start: a fresh context, the login page, sign-in, the Contacts tab. */
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
    return { loginMs, fcp, messagesMs, contactsMs, longTasks };
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

  const browser = await launchChromium();
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await coldStart(browser, server.url, reader, i === 0 ? CPU_PROFILE : ''));
  if (CPU_PROFILE) console.log(`CPU profile of the first run: ${CPU_PROFILE}`);

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const loginMs = median(runs.map((r) => r.loginMs));
  const messagesMs = median(runs.map((r) => r.messagesMs));
  const contactsMs = median(runs.map((r) => r.contactsMs));
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
    longest <= GOAL_LONG_TASK_MS,
    `web-client long tasks: ${tasks.length} over 50 ms in ${RUNS} runs, longest ${fmt(longest, 0)} ms (goal: none over ${GOAL_LONG_TASK_MS}); load ${fmt(load)}`,
  );
});
