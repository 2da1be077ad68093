// Opening a conversation in the browser: time from the tap on it in the Messages tab to its last
// message painted, and how many message rows are in the DOM, for a conversation of 10 000
// messages beside one of 20 (the baseline) on the same server in the same run. The list is
// virtualized, so the long one should cost about what the short one does and keep ≤ 150 rows.
// Then a group of 500 opened the same way, before and after one message in view gets 500
// reactions (one from each other member) and 20 edits (issue 38: it renders as fast as without).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { ensureWebClient, webDist } from '../scripts/web-client.mjs';
import { BENCH_SETTINGS, fmt, HttpClient, main, seed, startSparrow, table, tmpDir, verdict } from './lib.mjs';

const LONG = 10_000;
const SHORT = 20;
const MAX_ROWS = 150;
const GROUP = 500;
const GROUP_MESSAGES = 20;
const EDITS = 20;
const EMOJI = ['👍', '❤️', '😂', '😮', '😢', '🙏'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function fill(http, from, to, count, tag) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const res = await http.post(
        '/enterprise/im/sendMessage',
        {
          id: `${tag}-${i}-${from.id}`,
          toContactId: to.id,
          type: 'text',
          content: `${tag} message ${i + 1} of ${count}`,
        },
        { authorization: from.token },
      );
      if (res.code !== 0) throw new Error(`send refused: ${res.code} ${res.msg}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Sends `count` texts to a group, one after another from a few of its members; answers their msg_ids. */
async function fillGroup(http, senders, groupId, count) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const from = senders[i % senders.length];
    const res = await http.post(
      '/enterprise/im/sendMessage',
      {
        id: randomUUID(),
        toContactId: groupId,
        is_group: 1,
        type: 'text',
        content: `group message ${i + 1} of ${count}`,
      },
      { authorization: from.token },
    );
    if (res.code !== 0) throw new Error(`send refused: ${res.code} ${res.msg}`);
    ids.push({ msgId: res.data.msg_id, from });
  }
  return ids;
}

/** One call as `who`, which must succeed. */
async function call(http, path, body, who) {
  const res = await http.post(path, body, { authorization: who.token });
  if (res.code !== 0) throw new Error(`${path} refused: ${res.code} ${res.msg}`);
}

/** Opens the conversation with `peerName` from the Messages tab; returns ms to the last message and rows in the DOM. */
async function open(page, url, peerName, lastText) {
  await page.goto(`${url}/#/pages/index/index`);
  const row = page.getByText(peerName, { exact: true }).first();
  await row.waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  const started = await page.evaluate(() => performance.now());
  await row.click();
  await page.getByText(lastText, { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
  const painted = await page.evaluate(
    () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())))),
  );
  const rows = await page.locator('.chat-item').count();
  return { ms: painted - started, rows };
}

/** Scrolls to the top repeatedly so older pages load; returns the most rows the DOM held. */
async function scrollBack(page, rounds) {
  let most = 0;
  for (let i = 0; i < rounds; i++) {
    await page.locator('.chat-scroller').evaluate((el) => el.scrollTo({ top: 0 }));
    await page.waitForTimeout(250);
    most = Math.max(most, await page.locator('.chat-item').count());
  }
  return most;
}

await main('client-render', async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);
  ensureWebClient();
  const dataDir = tmpDir('render');
  const users = await seed({
    dataDir,
    users: GROUP,
    groupSize: GROUP,
    settings: [...BENCH_SETTINGS, 'sysInfo.runMode=1'],
  });
  const [reader, long, short] = users;
  const server = await startSparrow({ dataDir, webDist });
  const http = new HttpClient(server.url, 8);
  const seededAt = Date.now();
  await fill(http, short, reader, SHORT, 'short');
  await fill(http, long, reader, LONG, 'long');
  console.log(`seeded ${LONG + SHORT} messages in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'en-US' });
    await context.addInitScript(() => localStorage.setItem('language', 'en'));
    const page = await context.newPage();
    await page.goto(`${server.url}/#/pages/login/login`);
    await page.getByRole('textbox', { name: 'Account' }).fill(reader.account);
    await page.getByRole('textbox', { name: 'Password' }).fill('bench-password');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/pages\/index\/index/, { timeout: 30_000 });

    const runs = { short: [], long: [] };
    for (let i = 0; i < 3; i++) {
      runs.short.push(await open(page, server.url, 'Bench 2', `short message ${SHORT} of ${SHORT}`));
      runs.long.push(await open(page, server.url, 'Bench 1', `long message ${LONG} of ${LONG}`));
    }
    const mostRows = await scrollBack(page, 12);

    const groupId = `group-${reader.group}`;
    const sent = await fillGroup(http, users.slice(1, 6), groupId, GROUP_MESSAGES);
    const lastText = `group message ${GROUP_MESSAGES} of ${GROUP_MESSAGES}`;
    const groupRuns = { before: [], after: [] };
    for (let i = 0; i < 3; i++) groupRuns.before.push(await open(page, server.url, 'Bench group 1', lastText));
    // The message above the last: in view when the chat opens.
    const heavy = sent[GROUP_MESSAGES - 2];
    for (let i = 1; i < GROUP; i++)
      await call(
        http,
        '/enterprise/im/reactMessage',
        { id: heavy.msgId, emoji: EMOJI[i % EMOJI.length], on: 1 },
        users[i],
      );
    for (let i = 1; i <= EDITS; i++)
      await call(http, '/enterprise/im/editMessage', { id: heavy.msgId, content: `edited ${i} times` }, heavy.from);
    for (let i = 0; i < 3; i++) groupRuns.after.push(await open(page, server.url, 'Bench group 1', lastText));
    await page.getByText(`edited ${EDITS} times`, { exact: true }).waitFor({ state: 'visible', timeout: 10_000 });
    const chips = await page.locator('.reaction-chip').count();
    if (chips !== EMOJI.length) throw new Error(`the reacted message shows ${chips} reaction chips`);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const shortMs = median(runs.short.map((r) => r.ms));
    const longMs = median(runs.long.map((r) => r.ms));
    table([
      ['conversation', 'tap → last message painted (median of 3)', 'rows in DOM'],
      [`${SHORT} messages (baseline)`, `${fmt(shortMs, 0)} ms`, String(runs.short[0].rows)],
      [`${LONG} messages`, `${fmt(longMs, 0)} ms`, `${runs.long[0].rows} (after scrolling back: ${mostRows})`],
    ]);
    const beforeMs = median(groupRuns.before.map((r) => r.ms));
    const afterMs = median(groupRuns.after.map((r) => r.ms));
    table([
      [`group of ${GROUP}, ${GROUP_MESSAGES} messages`, 'tap → last message painted (median of 3)'],
      ['as sent', `${fmt(beforeMs, 0)} ms`],
      [`one message with ${GROUP - 1} reactions and ${EDITS} edits`, `${fmt(afterMs, 0)} ms`],
    ]);
    verdict(
      afterMs <= beforeMs * 1.25,
      `client-render reactions: a group chat with one message of ${GROUP - 1} reactions and ${EDITS} edits opens in ${fmt(afterMs, 0)} ms against ${fmt(beforeMs, 0)} ms without = ${fmt(afterMs / beforeMs)}x (goal <= 1.25x)`,
    );
    verdict(
      Math.max(mostRows, ...runs.long.map((r) => r.rows)) <= MAX_ROWS,
      `client-render rows: at most ${Math.max(mostRows, ...runs.long.map((r) => r.rows))} message rows in the DOM with ${LONG} messages (goal <= ${MAX_ROWS})`,
    );
    verdict(
      true,
      `client-render time: ${fmt(longMs, 0)} ms for ${LONG} messages vs ${fmt(shortMs, 0)} ms for ${SHORT} = ${fmt(longMs / shortMs)}x (reported; the goal is the row count)`,
    );
  } finally {
    await browser.close();
  }
});
