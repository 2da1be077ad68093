import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  noToasts,
  phoneContext,
  ServerProcess,
  shot,
  signIn,
  socketBound,
  toast,
  visible,
  WAIT,
  type Person,
  longPress,
} from './harness';

let server: ServerProcess;
let browser: Browser;
let webDist: string;
let admin: Person;
let lin: Person;

beforeAll(async () => {
  // A rebuild of packages/web while the suite runs would swap the chunks the open pages load.
  const built = fileURLToPath(new URL('../packages/web/dist', import.meta.url));
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-e2e-web-'));
  fs.cpSync(built, webDist, { recursive: true });
  [server, browser] = await Promise.all([ServerProcess.start({ WEB_DIST: webDist }), launchBrowser()]);
  await server.register('root_console', '管理员');
  // The first admin is made on the server's command line, as the README tells operators.
  await server.admin('user', 'role', 'root_console', 'admin');
});

afterAll(async () => {
  await admin?.context.close();
  await lin?.context.close();
  await browser?.close();
  await server?.dispose();
  if (webDist) fs.rmSync(webDist, { recursive: true, force: true });
});

/** Opens one area of the console by its tab, as an admin would. */
async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: '管理后台分区' }).getByRole('link', { name, exact: true }).click();
  await visible(page.getByRole('link', { name, exact: true }).and(page.locator('[aria-current="page"]')));
}

/** The row of the setting with this name, its field and its save button. */
function setting(page: Page, name: string): { input: Locator; save: Locator } {
  const row = page.locator('.manage-setting').filter({ has: page.getByLabel(name, { exact: true }) });
  return { input: row.getByLabel(name, { exact: true }), save: row.getByRole('button', { name: '保存' }) };
}

async function setRedoTime(page: Page, seconds: number): Promise<void> {
  const { input, save } = setting(page, '撤回时限');
  await input.fill(String(seconds));
  await save.click();
  await visible(toast(page, '已保存'));
  await noToasts(page);
}

/** Long-presses a bubble and answers the menu that opens. */
async function messageMenu(page: Page, text: string): Promise<Locator> {
  await longPress(page, page.locator('.bubble').filter({ has: page.getByText(text, { exact: true }) }));
  const menu = page.getByRole('menu', { name: /消息操作/ });
  await visible(menu);
  return menu;
}

describe('the administration console', () => {
  it('is offered in Me to admins only, and each area passes the audit at 375 and 960 px', async () => {
    lin = await newPerson(server, browser, 'lin_console', '林');
    await lin.page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '我' }).click();
    await visible(lin.page.getByRole('link', { name: '设置', exact: true }));
    expect(await lin.page.getByRole('link', { name: '管理后台' }).count()).toBe(0);
    // Typed in by hand, the console refuses a plain user.
    await lin.page.goto(`${server.url}/#/manage/index`);
    await visible(lin.page.getByText('仅管理员可以使用管理后台'));

    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(server, page, 'root_console');
    admin = { account: 'root_console', name: '管理员', id: 0, token: '', context, page };

    await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '我' }).click();
    await page.getByRole('link', { name: '管理后台' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '管理后台' }));
    await visible(page.getByText('用户总数'));
    await visible(page.locator('.manage-chart-plot canvas'));

    const areas: [string, string, Locator][] = [
      ['概览', 'dashboard', page.getByText('近 30 天消息量')],
      ['用户', 'users', page.getByText('lin_console')],
      ['部门', 'departments', page.getByText('还没有部门')],
      ['群聊', 'groups', page.getByText('没有找到群聊')],
      ['系统设置', 'settings', page.getByLabel('撤回时限', { exact: true })],
      ['公告', 'notices', page.getByText('暂无公告')],
      ['审计日志', 'audit', page.locator('.manage-audit-row').filter({ hasText: '修改角色 · 用户 root_console' })],
    ];
    for (const width of [375, 960]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [tab, name, ready] of areas) {
        await openTab(page, tab);
        await visible(ready);
        await expectAccessible(page);
        // Nothing wider than the screen: the console works at a phone's width.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await shot(page, `admin-${name}-${width}`);
      }
    }
    await page.setViewportSize({ width: 375, height: 812 });
  });

  it('a disabled user chatting in another browser is sent to login with the reason', async () => {
    const zoe = await newPerson(server, browser, 'zoe_console', '佐伊');
    try {
      await zoe.page.goto(`${server.url}/#/pages/message/chat?id=-1`);
      const box = zoe.page.getByRole('textbox', { name: /输入消息/ });
      await box.fill('还在聊天');
      await zoe.page.locator('.composer').getByRole('button', { name: '发送' }).click();
      await visible(zoe.page.locator('.bubble').filter({ hasText: '还在聊天' }));

      const page = admin.page;
      await openTab(page, '用户');
      await page.getByRole('searchbox').fill('zoe');
      await page.getByRole('searchbox').press('Enter');
      const row = page.locator('.manage-row').filter({ hasText: 'zoe_console' });
      await visible(row);
      // The whole list shows zoe too until the search's answer replaces it.
      await expect.poll(() => page.locator('.manage-row').count()).toBe(1);
      await row.getByRole('button', { name: '停用' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
      await visible(row.getByText('已停用'));

      await zoe.page.waitForURL(/#\/pages\/login\/login/, WAIT);
      await visible(zoe.page.getByText('您的账号已被管理员停用'));
      await shot(zoe.page, 'admin-disabled-user-sent-to-login');
      // An admin's own row offers no way to disable themselves.
      await page.getByRole('searchbox').fill('root_console');
      await page.getByRole('searchbox').press('Enter');
      const own = page.locator('.manage-row').filter({ hasText: '（我）' });
      await visible(own);
      expect(await own.getByRole('button', { name: '停用' }).count()).toBe(0);
    } finally {
      await zoe.context.close();
    }
  });

  it('a password an admin sets signs the user out and asks for their own at next login', async () => {
    const kai = await newPerson(server, browser, 'kai_console', '凯');
    try {
      const page = admin.page;
      await openTab(page, '用户');
      await page.getByRole('searchbox').fill('kai_console');
      await page.getByRole('searchbox').press('Enter');
      const row = page.locator('.manage-row').filter({ hasText: 'kai_console' });
      await row.getByRole('button', { name: '重置密码' }).click();
      await row.getByLabel('新密码（6-16 位）').fill('given123');
      await row.locator('form').getByRole('button', { name: '重置密码' }).click();
      await visible(toast(page, '已完成'));

      await kai.page.waitForURL(/#\/pages\/login\/login/, WAIT);
      await visible(kai.page.getByText('管理员重置了您的密码，请使用新密码登录'));
      await kai.page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
      await kai.page.getByLabel('账号', { exact: true }).fill('kai_console');
      await kai.page.getByLabel('密码', { exact: true }).fill('given123');
      await kai.page.getByRole('button', { name: '登录', exact: true }).click();
      await visible(kai.page.getByRole('heading', { level: 1, name: '修改密码' }));
      await visible(kai.page.getByText('管理员为您设置了密码，请先设置自己的新密码'));
      await kai.page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
      await kai.page.getByRole('textbox', { name: '原密码' }).fill('given123');
      await kai.page.getByRole('textbox', { name: '新密码', exact: true }).fill('mine1234');
      await kai.page.getByRole('textbox', { name: '确认新密码' }).fill('mine1234');
      // The socket the server refuses while the password is the admin's opens once it is the user's own,
      // and the session stays (the refusal is no sign that it ended).
      const bound = socketBound(kai.page);
      await kai.page.getByRole('button', { name: '确认修改' }).click();
      await visible(toast(kai.page, /密码已修改/));
      await bound;
      await kai.page.waitForURL(/#\/pages\/mine\/secure/, WAIT);
      expect(kai.page.url()).not.toContain('/pages/login/login');
    } finally {
      await kai.context.close();
    }
  });

  it('changing chatInfo.redoTime moves a client’s withdraw window at once', async () => {
    await lin.page.goto(`${server.url}/#/pages/message/chat?id=-1`);
    const box = lin.page.getByRole('textbox', { name: /输入消息/ });
    await box.fill('撤回窗口');
    await lin.page.locator('.composer').getByRole('button', { name: '发送' }).click();
    await visible(lin.page.locator('.bubble').filter({ hasText: '撤回窗口' }));

    const page = admin.page;
    await openTab(page, '系统设置');
    await setRedoTime(page, 1);
    await lin.page.waitForTimeout(1500);
    let menu = await messageMenu(lin.page, '撤回窗口');
    expect(await menu.getByRole('menuitem', { name: '撤回', exact: true }).count()).toBe(0);
    await lin.page.locator('.menu-backdrop').click();
    await hidden(menu);

    await setRedoTime(page, 86400);
    // Each setting reads as what it is: a switch, a choice, a number with its unit; no config paths.
    const calls = page.getByRole('switch', { name: '音视频通话', exact: true });
    expect(await calls.isChecked()).toBe(true);
    await calls.click();
    await visible(toast(page, '已保存'));
    await expect.poll(() => calls.isChecked()).toBe(false);
    await calls.click();
    await expect.poll(() => calls.isChecked()).toBe(true);
    expect(await page.getByLabel('注册方式', { exact: true }).inputValue()).toBe('1');
    await visible(page.locator('.manage-setting').filter({ hasText: '撤回时限' }).getByText('秒', { exact: true }));
    expect(await page.getByText('chatInfo.', { exact: false }).count()).toBe(0);
    expect(await page.getByText(/1 允许|1 开启/).count()).toBe(0);
    menu = await messageMenu(lin.page, '撤回窗口');
    await menu.getByRole('menuitem', { name: '撤回', exact: true }).click();
    await visible(lin.page.getByText(/^你 ?撤回了一条消息/));
  });

  it('an announcement published in the console appears on a user’s Messages tab', async () => {
    const page = admin.page;
    await openTab(page, '公告');
    await page.getByLabel('标题', { exact: true }).fill('今晚维护');
    await page.getByLabel('内容', { exact: true }).fill('服务器 23:00 重启，约五分钟。');
    await page.getByRole('button', { name: '发布公告' }).click();
    await visible(toast(page, '公告已发布'));
    await visible(page.locator('.manage-row').filter({ hasText: '今晚维护' }));

    await lin.page.getByRole('button', { name: /返回/ }).first().click();
    await visible(lin.page.getByRole('navigation', { name: '主导航' }));
    await lin.page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '消息' }).click();
    const bar = lin.page.getByRole('region', { name: '系统公告' });
    await visible(bar.getByText('今晚维护'));
    await shot(lin.page, 'admin-announcement-on-messages');
    await noToasts(page);
    await expectAccessible(page);
    await shot(page, 'admin-notices-published-375');
  });

  it('an admin finds what they did in the audit log, filtered by who and by action', async () => {
    const page = admin.page;
    await openTab(page, '公告');
    await page.getByLabel('标题', { exact: true }).fill('审计演示');
    await page.getByLabel('内容', { exact: true }).fill('这条公告会记入审计日志。');
    await page.getByRole('button', { name: '发布公告' }).click();
    await visible(toast(page, '公告已发布'));

    // The overview's latest rows lead to the whole log.
    await openTab(page, '概览');
    await visible(page.getByText('发布公告 · 公告「审计演示」'));
    await page.getByRole('link', { name: '查看全部操作记录' }).click();
    await visible(page.getByRole('link', { name: '审计日志', exact: true }).and(page.locator('[aria-current="page"]')));

    const rows = page.locator('.manage-audit-row');
    const filters = page.getByRole('form', { name: '筛选操作记录' });
    await filters.getByLabel('操作', { exact: true }).selectOption({ label: '发布公告' });
    await filters.getByLabel('操作人', { exact: true }).selectOption({ label: '我 · 管理员' });
    const mine = rows.filter({ hasText: '发布公告 · 公告「审计演示」' });
    await visible(mine);
    await visible(mine.getByText('管理员（我）'));
    // Only announcements, only this admin's: the earlier one too, nothing else.
    await visible(rows.filter({ hasText: '发布公告 · 公告「今晚维护」' }));
    expect(await rows.count()).toBe(2);
    expect(await rows.filter({ hasNotText: '管理员（我）' }).count()).toBe(0);
    await visible(page.getByText('第 1 / 1 页，共 2 条'));
    for (const width of [375, 960]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(page, `admin-audit-filtered-${width}`);
    }
    await page.setViewportSize({ width: 375, height: 812 });

    // The command line published nothing; what it did was make the first admin.
    await filters.getByLabel('操作人', { exact: true }).selectOption({ label: '服务器命令行' });
    await visible(page.getByText('没有符合条件的操作记录'));
    await filters.getByLabel('操作', { exact: true }).selectOption({ label: '修改角色' });
    const cli = rows.filter({ hasText: '修改角色 · 用户 root_console' });
    await visible(cli);
    await visible(cli.getByText('设为管理员'));
    await visible(cli.getByText('服务器本机'));
    expect(await rows.count()).toBe(1);
  });

  it('in runMode 1 a department an admin creates and assigns groups Contacts for everyone else', async () => {
    const page = admin.page;
    await openTab(page, '系统设置');
    const runMode = page.getByLabel('运行模式', { exact: true });
    await runMode.selectOption({ label: '组织内所有人互为联系人' });
    await visible(toast(page, '已保存'));

    await openTab(page, '部门');
    await page.getByLabel('部门名称', { exact: true }).fill('研发部');
    await page.getByRole('button', { name: '新建部门' }).click();
    await visible(toast(page, '已创建部门 研发部'));
    await visible(page.locator('.manage-row').filter({ hasText: '研发部' }));

    await openTab(page, '用户');
    await page.getByRole('searchbox').fill('lin_console');
    await page.getByRole('searchbox').press('Enter');
    await page.getByLabel('林 的部门').selectOption({ label: '研发部' });
    await visible(toast(page, '已完成'));

    const mei = await newPerson(server, browser, 'mei_console', '梅');
    try {
      await mei.page.goto(`${server.url}/#/pages/contacts/index`);
      const header = mei.page.getByRole('heading', { level: 2, name: '研发部' });
      await visible(header);
      await visible(mei.page.getByRole('heading', { level: 2, name: '未分配部门' }));
      // 林 is listed under the department's header, above those in none.
      const top = async (l: Locator) => (await l.boundingBox())?.y ?? Number.NaN;
      const lin = mei.page.locator('.contact-name').getByText('林', { exact: true });
      expect(await top(header)).toBeLessThan(await top(lin));
      expect(await top(lin)).toBeLessThan(await top(mei.page.getByRole('heading', { level: 2, name: '未分配部门' })));
      await expectAccessible(mei.page);
      await shot(mei.page, 'contacts-by-department-375');
    } finally {
      await mei.context.close();
      await openTab(page, '系统设置');
      await runMode.selectOption({ label: '仅好友' });
      await visible(toast(page, '已保存'));
    }
  });
});
