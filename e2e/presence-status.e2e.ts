import fs from 'node:fs';
import { routes } from '@sparrow/protocol';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fitsScreen, hidden, type Person, type ServerProcess, shot, toast, visible } from './harness';
import { checkPage, openBrowser, phoneSuite, registerFriends } from './people';

/**
 * 最近在线 and 状态 at 375 px, three people: Alice shows her last-seen time to friends only and sets
 * "开会中" with an emoji until a time; Bob, her friend, sees it live in her chat's title, on her
 * profile and in his contacts; Carol, not her friend, sees the status but never when Alice was last
 * online; Alice clears it and closes her browser, and Bob's title says 最近在线 刚刚.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;

phoneSuite(
  'presence-status',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carol],
);

/** A picture for the review, in /tmp/shots/status-<name>.png as well as the suite's artefacts. */
async function statusShot(page: Page, name: string): Promise<void> {
  await shot(page, `status-${name}`);
  fs.mkdirSync('/tmp/shots', { recursive: true });
  await page.screenshot({ path: `/tmp/shots/status-${name}.png` });
}

const pad = (n: number) => String(n).padStart(2, '0');
const subtitle = (page: Page) => page.locator('.navbar-subtitle');

beforeAll(async () => {
  const [a, b] = await registerFriends(server, [
    ['alice_ps', 'Alice'],
    ['bob_ps', 'Bob'],
  ]);
  const c = { ...(await server.register('carol_ps', 'Carol')), account: 'carol_ps' };
  [alice, bob, carol] = await Promise.all([
    openBrowser(server, browser, a),
    openBrowser(server, browser, b),
    openBrowser(server, browser, c),
  ]);
});

describe('last seen and status', () => {
  it('Alice shows her last-seen time to friends only (Settings → 隐私 → 最近在线)', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/mine/setting`);
    await page.getByRole('link', { name: /最近在线/ }).click();
    await visible(page.getByRole('heading', { name: '最近在线' }));
    await page.getByText('仅好友', { exact: true }).click();
    await expect.poll(() => page.getByRole('radio', { name: '仅好友' }).isChecked()).toBe(true);
    await checkPage(page, 'status-privacy');
    await statusShot(page, 'privacy');
  });

  it('Alice sets 开会中 with an emoji until a time; Bob sees it live in her chat’s title', async () => {
    await bob.page.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await expect.poll(() => subtitle(bob.page).textContent(), { timeout: 20_000 }).toBe('在线');

    const page = alice.page;
    await page.goto(`${server.url}/#/pages/index/index?tab=me`);
    await page.getByRole('link', { name: /^状态/ }).click();
    await visible(page.getByRole('heading', { name: '设置状态' }));
    await page.getByLabel('状态文字').fill('开会中');
    await page.getByRole('radio', { name: '📅' }).check({ force: true });
    await page.getByText('自定义', { exact: true }).click();
    const end = new Date(Date.now() + 2 * 3_600_000);
    end.setSeconds(0, 0);
    const value = `${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())}T${pad(end.getHours())}:${pad(end.getMinutes())}`;
    await page.getByLabel('结束于').fill(value);
    await visible(page.locator('.status-preview', { hasText: '📅 开会中' }));
    await checkPage(page, 'status-page');
    await statusShot(page, 'page');
    await page.getByRole('button', { name: '保存状态' }).click();
    await visible(toast(page, '状态已保存'));
    await visible(page.getByRole('link', { name: /^状态.*📅 开会中/ }));
    await statusShot(page, 'me');

    await expect.poll(() => subtitle(bob.page).textContent(), { timeout: 10_000 }).toBe('📅 开会中');
    await fitsScreen(bob.page);
    await statusShot(bob.page, 'chat-title');
  });

  it('Bob sees it on her profile with when it ends, and in his contacts, where a change arrives live', async () => {
    const page = bob.page;
    await page.goto(`${server.url}/#/pages/contacts/detail?id=${alice.id}`);
    await visible(page.getByText(/📅 开会中 · 至 \d\d:\d\d/));
    await statusShot(page, 'profile');

    await page.goto(`${server.url}/#/pages/index/index?tab=contacts`);
    const row = page.locator('.contact-row', { hasText: 'Alice' });
    await visible(row.locator('.status-line', { hasText: '📅 开会中' }));
    // Alice changes it on another device of hers; Bob's list follows without a reload.
    await server.post(routes.setStatus.path, { text: '午饭', emoji: '🍜' }, alice.token);
    await visible(row.locator('.status-line', { hasText: '🍜 午饭' }));
    await fitsScreen(page);
    await statusShot(page, 'contacts');
  });

  it('Carol, not her friend, sees the status but not when Alice was last online', async () => {
    const page = carol.page;
    await page.goto(`${server.url}/#/pages/contacts/detail?id=${alice.id}`);
    await visible(page.getByText('🍜 午饭', { exact: true }));
    const head = page.locator('.profile-card');
    await visible(head.getByText('Alice'));
    expect(await head.textContent()).not.toMatch(/在线/);
    await statusShot(page, 'stranger');
  });

  it('Alice clears it and goes offline: Bob’s chat title says 最近在线 刚刚, Carol still sees nothing', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/mine/status`);
    await page.getByRole('button', { name: '清除状态' }).click();
    await visible(toast(page, '状态已清除'));

    await bob.page.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await expect.poll(() => subtitle(bob.page).textContent(), { timeout: 10_000 }).toBe('在线');
    await alice.context.close();
    await expect
      .poll(() => subtitle(bob.page).textContent(), { timeout: 20_000 })
      .toMatch(/^最近在线 (刚刚|\d+分钟前)$/);
    await statusShot(bob.page, 'last-seen');

    await carol.page.reload();
    await visible(carol.page.locator('.profile-card').getByText('Alice'));
    await hidden(carol.page.getByText(/最近在线/));
  });
});
