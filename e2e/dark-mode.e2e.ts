import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  launchBrowser,
  newContext,
  PHONE_WIDTH,
  ServerProcess,
  settled,
  signIn,
  visible,
} from './harness';

/**
 * Dark mode (深色模式): a browser whose system asks for dark gets the dark theme on every main page,
 * at a phone's width and at a desk's, with the contrast the audit asks; the setting switches the
 * theme at once and keeps it across a reload. The light theme is the rest of the suite's.
 */

let server: ServerProcess;
let browser: Browser;
let alice: { id: number; token: string };
let bob: { id: number; token: string };

const SHOTS = '/tmp/shots';

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await server.register('alice_dark', 'Alice');
  bob = await server.register('bob_dark', 'Bob');
  await server.admin('user', 'role', 'alice_dark', 'admin');
  await befriend(server, alice, bob);
  const say = (from: { token: string }, to: number, content: string) =>
    server.post('/enterprise/im/sendMessage', { id: randomUUID(), toContactId: to, type: 'text', content }, from.token);
  await say(bob, alice.id, '晚上一起吃饭吗？');
  await say(alice, bob.id, '好呀，七点见');
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

async function schemeContext(width: number, height: number, colorScheme: 'dark' | 'light'): Promise<BrowserContext> {
  return newContext(browser, { viewport: { width, height }, deviceScaleFactor: 1, locale: 'zh-CN', colorScheme });
}

/** The theme <html> shows and the page's background as drawn. */
async function shownTheme(page: Page): Promise<{ theme: string | null; background: string }> {
  return page.evaluate(() => ({
    theme: document.documentElement.getAttribute('data-theme'),
    background: getComputedStyle(document.getElementById('root')!).backgroundColor,
  }));
}

const DARK_PAGE = 'rgb(17, 17, 17)';
const LIGHT_PAGE = 'rgb(248, 248, 248)';

async function tab(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name, exact: true }).click();
  await visible(page.getByRole('heading', { level: 1, name }));
}

/** Audits the page shown and keeps its picture. */
async function check(page: Page, name: string): Promise<void> {
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/dark-${name}.png` });
}

describe('dark mode', () => {
  for (const [label, width, height] of [
    ['phone', PHONE_WIDTH, 812],
    ['desk', 1280, 800],
  ] as const) {
    it(`follows a dark system on the main pages at ${width} px, under the audit`, async () => {
      const context = await schemeContext(width, height, 'dark');
      const page = await context.newPage();
      await page.goto(`${server.url}/#/pages/login/login`);
      await visible(page.getByRole('heading', { level: 1, name: '登录' }));
      await check(page, `${label}-login`);
      await signIn(server, page, 'alice_dark');
      expect(await shownTheme(page)).toEqual({ theme: 'dark', background: DARK_PAGE });
      expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#111111');

      await visible(page.getByText('好呀，七点见'));
      await check(page, `${label}-messages`);

      await page.getByText('好呀，七点见').click();
      await visible(page.locator('.msg-mine .bubble').getByText('好呀，七点见'));
      await visible(page.locator('.bubble').getByText('晚上一起吃饭吗？'));
      await check(page, `${label}-chat`);
      await page.goBack();

      await tab(page, '通讯录');
      await check(page, `${label}-contacts`);

      await tab(page, '发现');
      await page.getByRole('link', { name: /朋友圈/ }).click();
      await visible(page.getByRole('heading', { level: 1, name: '朋友圈' }));
      await check(page, `${label}-moments`);
      await page.goBack();

      await tab(page, '我');
      await check(page, `${label}-me`);

      await page.getByRole('link', { name: '设置', exact: true }).click();
      await visible(page.getByRole('heading', { level: 1, name: '设置' }));
      await check(page, `${label}-settings`);
      await page.goBack();

      await page.getByRole('link', { name: '管理后台' }).click();
      await visible(page.locator('.manage-chart-plot canvas'));
      await check(page, `${label}-console`);
      await context.close();
    });
  }

  it('switches with the setting at once, keeps it after a reload, and follows the system again', async () => {
    const context = await schemeContext(PHONE_WIDTH, 812, 'light');
    const page = await context.newPage();
    await signIn(server, page, 'alice_dark');
    expect(await shownTheme(page)).toEqual({ theme: 'light', background: LIGHT_PAGE });

    await page.goto(`${server.url}/#/pages/mine/setting`);
    await page.getByRole('link', { name: /深色模式/ }).click();
    await visible(page.getByRole('heading', { level: 1, name: '深色模式' }));
    expect(await page.getByRole('radio', { name: '跟随系统' }).isChecked()).toBe(true);

    await page.getByText('深色', { exact: true }).click();
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'dark', background: DARK_PAGE });
    await check(page, 'phone-theme-picker');

    await page.reload();
    await visible(page.getByRole('heading', { level: 1, name: '深色模式' }));
    expect(await shownTheme(page)).toEqual({ theme: 'dark', background: DARK_PAGE });
    expect(await page.getByRole('radio', { name: '深色' }).isChecked()).toBe(true);

    await page.getByText('跟随系统', { exact: true }).click();
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'light', background: LIGHT_PAGE });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'dark', background: DARK_PAGE });

    await page.getByText('浅色', { exact: true }).click();
    await expect.poll(() => shownTheme(page)).toEqual({ theme: 'light', background: LIGHT_PAGE });
    await page.reload();
    await visible(page.getByRole('heading', { level: 1, name: '深色模式' }));
    expect(await shownTheme(page)).toEqual({ theme: 'light', background: LIGHT_PAGE });
    await context.close();
  });
});
