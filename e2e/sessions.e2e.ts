import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  launchBrowser,
  newPerson,
  noToasts,
  PASSWORD,
  type Person,
  phoneContext,
  ServerProcess,
  settled,
  shot,
  signIn,
  toast,
  visible,
  WAIT,
} from './harness';

/**
 * Issue 42 points 1 and 6, browser: one account signed in in two browsers at 375 px. The first is
 * told of the second's sign-in from a new device; in Settings → 账号与安全 → 登录设备 it lists both
 * (and the session registering made), this one marked 本机, and signs the other browser out, which
 * lands on its login page at once. On the console's user page an admin sees the account's devices
 * and signs one out.
 */

let server: ServerProcess;
let browser: Browser;
let first: Person | undefined;
let second: Person | undefined;

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const p of [first, second]) if (p) await shot(p.page, `sessions-failed-${p.account}`).catch(() => {});
});

afterAll(async () => {
  await first?.context.close();
  await second?.context.close();
  await browser?.close();
  await server?.dispose();
});

/** A screenshot, also where the helpers' notes keep them. */
async function picture(page: Page, name: string): Promise<void> {
  await settled(page);
  const file = await shot(page, `sessions-${name}`);
  fs.mkdirSync('/tmp/shots', { recursive: true });
  fs.copyFileSync(file, `/tmp/shots/helperA-sessions-${name}.png`);
}

describe('登录设备', () => {
  it('tells of a new device, lists both browsers with this one marked, and signs the other out live', async () => {
    first = await newPerson(server, browser, 'devices_user', '设备用户');
    // The same account in a second browser of its own.
    const context = await phoneContext(browser);
    second = { ...first, context, page: await context.newPage() };
    await signIn(server, second.page, 'devices_user');
    const page = first.page;

    // The second browser is a new device: the first is told at once.
    await visible(toast(page, /你的账号在新设备登录：Chrome（Linux）/));

    await page.goto(`${server.url}/#/pages/mine/secure`);
    await page.getByRole('link', { name: '登录设备' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '登录设备' }));
    const list = page.getByRole('list', { name: '已登录的设备' });
    // This browser, the other one, and the session registering made (no browser named).
    await expect.poll(() => list.getByRole('listitem').count(), WAIT).toBe(3);
    const mine = list.getByRole('listitem').first();
    await visible(mine.getByText('本机'));
    await visible(mine.getByText('当前使用中'));
    await visible(list.getByText('未知设备'));
    await noToasts(page);
    await expectAccessible(page);
    await picture(page, '01-list');

    await list.getByRole('button', { name: '让 Chrome（Linux） 退出登录' }).click();
    const dialog = page.getByRole('dialog');
    await visible(dialog.getByText('确定让 Chrome（Linux） 退出登录吗？'));
    await expectAccessible(page);
    await dialog.getByRole('button', { name: '退出登录' }).click();

    await second.page.waitForURL(/#\/pages\/login\/login/, WAIT);
    await visible(second.page.getByText('你已在另一台设备上让此设备退出登录'));
    await picture(second.page, '02-signed-out');
    await expect.poll(() => list.getByRole('listitem').count(), WAIT).toBe(2);
    await noToasts(page);
    await picture(page, '03-after');
  });

  it('on the console’s user page an admin sees the account’s devices and signs one out', async () => {
    await server.admin('user', 'role', 'devices_user', 'admin');
    const page = first!.page;
    await page.goto(`${server.url}/#/manage/index?tab=users`);
    // Started again, the app reads the account with its new role.
    await page.reload();
    await page.getByRole('searchbox').fill('devices_user');
    await page.getByRole('searchbox').press('Enter');
    const row = page.locator('.manage-row').filter({ hasText: 'devices_user' });
    await visible(row);
    await row.getByRole('button', { name: '登录与验证' }).click();
    const security = page.getByRole('region', { name: '设备用户 的登录与验证' });
    await visible(security.getByText('未开启'));
    await visible(security.getByText('Chrome（Linux）'));
    await security.getByRole('button', { name: '让 未知设备 退出登录' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await expect.poll(() => security.locator('.manage-session').count(), WAIT).toBe(1);
    await noToasts(page);
    await expectAccessible(page);
    await picture(page, '04-console');
  });
});

describe('开发者 → 访问令牌', () => {
  it('makes a token shown once that sends as its user; revoked, it stops at once', async () => {
    const page = first!.page;
    // The session registering made was signed out above: the account's calls here use a new one.
    const login = await server.post<{ authToken: string }>('/common/Pub/login', {
      account: 'devices_user',
      password: PASSWORD,
    });
    const me = { id: first!.id, token: login.authToken };
    const friend = await server.register('token_friend', '令牌好友');
    await befriend(server, me, friend);
    await page.goto(`${server.url}/#/pages/mine/setting`);
    await page.getByRole('link', { name: '访问令牌' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '访问令牌' }));
    await visible(page.getByText('还没有访问令牌'));
    await expectAccessible(page);

    await page.getByRole('button', { name: '新建访问令牌' }).click();
    await page.getByLabel('名称').fill('构建通知');
    await page.getByRole('switch', { name: '发送消息' }).click();
    await page.getByText('7 天', { exact: true }).click();
    // The account was made an administrator above: the console's scope is offered.
    await visible(page.getByRole('switch', { name: '管理后台' }));
    await expectAccessible(page);
    await picture(page, '05-token-new');
    await page.getByRole('button', { name: '生成令牌' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '新的访问令牌' }));
    const secret = (await page.locator('.token-secret').textContent())!.trim();
    expect(secret).toMatch(/^spt_[\w-]{43}$/);
    await expectAccessible(page);
    await picture(page, '06-token-shown-once');

    // A script sends with it, as its user.
    const text = `构建 #${randomUUID().slice(0, 6)} 通过`;
    await server.post(
      '/enterprise/im/sendMessage',
      { id: randomUUID(), toContactId: friend.id, type: 'text', content: text },
      `Bearer ${secret}`,
    );
    await page.getByRole('button', { name: '我已保存' }).click();
    const row = page.getByRole('listitem').filter({ hasText: '构建通知' });
    await visible(row);
    await visible(row.getByText(/上次使用/));
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await page.goto(`${server.url}/#/pages/message/chat?id=${friend.id}`);
    await visible(page.getByText(text));

    await page.goto(`${server.url}/#/pages/mine/tokens`);
    await page.getByRole('button', { name: '撤销 构建通知' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '撤销' }).click();
    await visible(toast(page, '已撤销访问令牌'));
    await visible(page.getByText('还没有访问令牌'));
    await expect(server.post('/enterprise/im/getContacts', {}, `Bearer ${secret}`)).rejects.toThrow();

    // An administrator sees a user's tokens on the console's user page, and revokes one there.
    const nightly = await server.post<{ token: string }>(
      '/enterprise/token/create',
      { name: '夜间同步', scopes: ['messages:read'], days: 0 },
      me.token,
    );
    await page.goto(`${server.url}/#/manage/index?tab=users`);
    await page.getByRole('searchbox').fill('devices_user');
    await page.getByRole('searchbox').press('Enter');
    const user = page.locator('.manage-row').filter({ hasText: 'devices_user' });
    await user.getByRole('button', { name: '登录与验证' }).click();
    const security = page.getByRole('region', { name: '设备用户 的登录与验证' });
    await visible(security.getByText('夜间同步'));
    await visible(security.getByText(/读取消息 · 尚未使用/));
    await expectAccessible(page);
    await picture(page, '07-console-tokens');
    await security.getByRole('button', { name: '撤销访问令牌 夜间同步' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await visible(security.getByText('没有访问令牌'));
    await expect(server.post('/enterprise/im/getContacts', {}, `Bearer ${nightly.token}`)).rejects.toThrow();
  });
});
