import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newPerson,
  type Person,
  ServerProcess,
  shot,
  signIn,
  visible,
  WAIT,
  befriend,
} from './harness';
import { bubble } from './people';

/**
 * Issue 21, browser: a word said long ago in a conversation is found from the search page, the
 * conversation's hits open, and the hit opens the chat at that message, marked, with the history
 * around it loading both ways until the newest; the history's date picker opens the chat at the
 * first message of a day.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: { id: number; token: string; name: string };
let carol: { id: number; token: string; name: string };

/** Messages Bob sends Alice: more than a chat's first page holds above and below each hit. */
const COUNT = 90;
const WORD = '蓝鲸咖啡';
/** The messages that hold the word, the older one far from the newest. */
const HITS = new Map([
  [20, `周末去${WORD}坐坐吧`],
  [55, `${WORD}的拿铁不错`],
]);
const line = (i: number) => HITS.get(i) ?? `第 ${i} 条消息`;
/** The first messages were sent three days ago (their time is moved back in the database). */
const EARLY = 30;

/** Scrolls the chat a screen at a time, up or down, until `target` is shown. */
async function scrollTo(page: Page, target: Locator, direction: 'up' | 'down'): Promise<void> {
  const scroller = page.locator('.chat-scroller');
  const deadline = Date.now() + WAIT.timeout;
  while (!(await target.isVisible())) {
    if (Date.now() > deadline) throw new Error(`scrolling ${direction} never showed the message`);
    await scroller.evaluate((el, sign) => el.scrollBy(0, sign * el.clientHeight), direction === 'up' ? -1 : 1);
    await page.waitForTimeout(150);
  }
}

/** Local midnight `days` days before today. */
function dayStart(daysAgo: number): Date {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - daysAgo);
  return d;
}

const dayInput = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await newPerson(server, browser, 'alice_search', 'Alice', { signedIn: false });
  bob = await server.register('bob_search', 'Bob');
  carol = await server.register('carol_search', 'Carol');
  await befriend(server, alice, bob);
  await befriend(server, alice, carol);
  // Said in turn, so that neither goes past the send rate limit's burst.
  const ids: number[] = [];
  for (let i = 1; i <= COUNT; i++) {
    const [from, to] = i % 2 ? [bob, alice] : [alice, bob];
    const m = await server.post<{ msg_id: number }>(
      '/enterprise/im/sendMessage',
      { id: `seed-${i}-0000`, toContactId: to.id, type: 'text', content: line(i) },
      from.token,
    );
    ids.push(m.msg_id);
  }
  // The first messages were said three days ago, a minute apart from 10:00.
  const db = new Database(path.join(server.dataDir, 'sparrow.db'));
  const early = dayStart(3).getTime() + 10 * 3_600_000;
  const move = db.prepare('UPDATE messages SET create_time = ? WHERE id = ?');
  db.transaction(() => ids.slice(0, EARLY).forEach((id, i) => move.run(early + i * 60_000, id)))();
  // The greeting that opened the chat when Alice accepted Bob was said a day before those.
  db.prepare(
    'UPDATE messages SET create_time = ? WHERE id < ? AND chat_key = (SELECT chat_key FROM messages WHERE id = ?)',
  ).run(early - 86_400_000, ids[0], ids[0]);
  db.close();
  // Another conversation finds the word in the name of a place.
  await server.post(
    '/enterprise/im/sendMessage',
    {
      id: 'carol-place-0001',
      toContactId: alice.id,
      type: 'location',
      content: '',
      extends: { name: `${WORD}馆`, address: '中山东一路 18 号', latitude: 31.24, longitude: 121.49 },
    },
    carol.token,
  );
  await signIn(server, alice.page, alice.account);
});

afterAll(async () => {
  await alice?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('search and history', () => {
  it('finds a word in every conversation, opens its hits, and opens the chat at the hit', async () => {
    const page = alice.page;
    await page.getByRole('button', { name: '搜索', exact: true }).first().click();
    await page.getByRole('searchbox', { name: '搜索联系人、群聊和聊天记录' }).fill(WORD);

    const history = page.getByRole('region', { name: '聊天记录' });
    const chat = history.getByRole('link', { name: /Bob/ });
    await visible(chat);
    await expect(chat.textContent()).resolves.toContain('2 条相关聊天记录');
    // One conversation per row, the newest hit's first; a single hit shows its words, marked.
    const rows = history.getByRole('link');
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.first().locator('.contact-sub').textContent()).resolves.toBe(
      `[位置] ${WORD}馆 · 中山东一路 18 号`,
    );
    await expect(rows.first().locator('mark').textContent()).resolves.toBe(WORD);
    await shot(page, 'search-results-375');
    await expectAccessible(page);

    // That single hit opens the chat at it.
    await rows.first().click();
    await visible(page.locator('.chat-item-focus .bubble-location'));
    await page.goBack();
    await visible(chat);

    await chat.click();
    const hits = page.locator('.record-list');
    await visible(hits.getByRole('link', { name: /周末去蓝鲸咖啡坐坐吧/ }));
    // Newest first, the words marked.
    const found = hits.getByRole('link');
    await expect(found.count()).resolves.toBe(2);
    await expect(found.first().textContent()).resolves.toContain(line(55));
    await expect(hits.locator('mark').first().textContent()).resolves.toBe(WORD);
    await shot(page, 'search-chat-hits-375');
    await expectAccessible(page);

    await hits.getByRole('link', { name: /周末去蓝鲸咖啡坐坐吧/ }).click();
    // The chat opens at the hit, marked, with what was said just before and after it.
    await expect(page.locator('.chat-item-focus').textContent(WAIT)).resolves.toContain(line(20));
    const opened = page.locator('[aria-current="true"]');
    await expect(opened.locator('.bubble').textContent()).resolves.toContain(line(20));
    await visible(bubble(page, line(19)));
    await visible(bubble(page, line(21)));
    // …near the middle of the screen.
    await expect
      .poll(async () => {
        const [row, list] = await Promise.all([opened.boundingBox(), page.locator('.chat-scroller').boundingBox()]);
        if (!row || !list) return Infinity;
        return Math.abs(row.y + row.height / 2 - (list.y + list.height / 2)) / list.height;
      }, WAIT)
      .toBeLessThan(0.25);
    await expect(bubble(page, line(COUNT)).count()).resolves.toBe(0);
    await shot(page, 'chat-opened-at-hit-375');
    await expectAccessible(page);

    // Scrolling up loads the older pages to the first message…
    await scrollTo(page, bubble(page, line(1)), 'up');
    await visible(page.getByText('没有更多消息了'));
    // …and scrolling down the newer pages until the newest, each message once.
    await scrollTo(page, bubble(page, line(COUNT)), 'down');
    await expect(bubble(page, line(COUNT - 1)).count()).resolves.toBe(1);

    // Once at the newest, what Bob says now appears below, as in any chat.
    await server.post(
      '/enterprise/im/sendMessage',
      { id: 'live-after-jump-0001', toContactId: alice.id, type: 'text', content: '刚刚发的消息' },
      bob.token,
    );
    await visible(bubble(page, '刚刚发的消息'));
  });

  it('the date picker of the history opens the chat at the first message of a day', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/message/record?id=${bob.id}`);
    await visible(page.getByRole('heading', { name: '聊天记录' }));
    await page.getByRole('radio', { name: '按日期' }).click();
    const day = page.getByLabel('日期', { exact: true });
    await visible(day);
    const year = new Date().getFullYear();
    await expect(day.getAttribute('min')).resolves.toBe(`${year - 150}-01-01`);
    await expect(day.getAttribute('max')).resolves.toBe(`${year + 150}-12-31`);
    const time = page.getByLabel('从', { exact: true });
    await expect(time.getAttribute('min')).resolves.toBe('00:00');
    await expect(time.getAttribute('max')).resolves.toBe('23:59');
    await shot(page, 'record-date-picker-375');
    await expectAccessible(page);

    // A day without messages says so.
    await day.fill(dayInput(dayStart(5)));
    await page.getByRole('button', { name: '查看这一天' }).click();
    await visible(page.getByRole('status').filter({ hasText: '没有聊天记录' }));

    // Three days ago: the chat opens at the first message said that day.
    await day.fill(dayInput(dayStart(3)));
    await page.getByRole('button', { name: '查看这一天' }).click();
    await expect(page.locator('.chat-item-focus').textContent(WAIT)).resolves.toContain(line(1));
    await shot(page, 'chat-opened-at-day-375');

    // Back on the history, still by date. Today from 00:00: the first message said today, after the early ones.
    await page.goBack();
    await visible(day);
    await day.fill(dayInput(dayStart(0)));
    await time.fill('00:00');
    await page.getByRole('button', { name: '查看这一天' }).click();
    await expect(page.locator('.chat-item-focus').textContent(WAIT)).resolves.toContain(line(EARLY + 1));
  });

  it("counts each conversation's hits past one page of them, and reaches a conversation whose hits are all older", async () => {
    const page = alice.page;
    // Frank's hits come first, so more than one page of newer hits (searchMessage's 100) lies above them.
    const frank = await server.register('frank_search', 'Frank');
    await befriend(server, alice, frank);
    const frankSaid = ['苹果派是我烤的', '还要苹果派吗'];
    for (const [i, content] of frankSaid.entries()) {
      await server.post(
        '/enterprise/im/sendMessage',
        { id: `pie-frank-${i}-0000`, toContactId: alice.id, type: 'text', content },
        frank.token,
      );
    }
    const senders = [await server.register('dan_search', 'Dan'), await server.register('erin_search', 'Erin')];
    const each = 52;
    for (const who of senders) {
      await befriend(server, alice, who);
      for (let i = 0; i < each; i++) {
        await server.post(
          '/enterprise/im/sendMessage',
          { id: `pie-${who.id}-${i}-0000`, toContactId: alice.id, type: 'text', content: `苹果派第 ${i} 块` },
          who.token,
        );
      }
    }
    await page.goto(`${server.url}/#/pages/index/search`);
    await page.getByRole('searchbox', { name: '搜索联系人、群聊和聊天记录' }).fill('苹果派');
    const history = page.getByRole('region', { name: '聊天记录' });
    for (const who of senders)
      await visible(history.getByRole('link', { name: new RegExp(`${who.name}.*${each} 条相关聊天记录`) }));
    await expect(history.getByRole('link').count()).resolves.toBe(2);

    // The first page holds only Dan's and Erin's hits: "more" reads on and lists Frank's conversation.
    await shot(page, 'search-more-375');
    await page.getByRole('button', { name: '更多聊天记录' }).click();
    const frankRow = history.getByRole('link', { name: /Frank.*2 条相关聊天记录/ });
    await visible(frankRow);
    await expect(history.getByRole('link').count()).resolves.toBe(3);
    // Every hit is read now: nothing more to ask for.
    await expect(page.getByRole('button', { name: '更多聊天记录' }).count()).resolves.toBe(0);
    await shot(page, 'search-older-conversation-375');
    await expectAccessible(page);

    await frankRow.click();
    const hits = page.locator('.record-list');
    await visible(hits.getByRole('link', { name: /苹果派是我烤的/ }));
    await expect(hits.getByRole('link').count()).resolves.toBe(2);
  });
});
