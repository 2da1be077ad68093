import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithSlapd, PEOPLE, READER_DN, TestDirectory } from '../packages/server/test/ldap-directory';
import {
  expectAccessible,
  launchBrowser,
  noToasts,
  passwordForm,
  type Person,
  phoneContext,
  ServerProcess,
  settled,
  shot,
  socketBound,
  toast,
  visible,
} from './harness';
import { openBrowser } from './people';

/**
 * Issue 42 point 5, browser, on a phone (375 px): the admin sets up the directory in the console's
 * 目录 tab (a real OpenLDAP started by the suite, search then bind with a service account), and a
 * directory user signs in on the login page with their directory password, landing signed in under
 * the name the directory has for them. The console page is audited (axe) and photographed.
 */

let server: ServerProcess;
let browser: Browser;
let directory: TestDirectory;
let root: Person;

async function photo(page: Page, name: string): Promise<void> {
  await settled(page);
  const file = await shot(page, `ldap-${name}`);
  fs.mkdirSync('/tmp/shots', { recursive: true });
  fs.copyFileSync(file, path.join('/tmp/shots', `e-ldap-${name}.png`));
}

describeWithSlapd('directory sign-in in the browser', () => {
  beforeAll(async () => {
    [directory, server, browser] = await Promise.all([TestDirectory.start(), ServerProcess.start(), launchBrowser()]);
    const admin = await server.register('root_ldap', '管理员');
    await server.admin('user', 'role', 'root_ldap', 'admin');
    root = await openBrowser(server, browser, { ...admin, account: 'root_ldap' });
  });
  afterAll(async () => {
    await root?.context.close();
    await browser?.close();
    await server?.dispose();
    await directory?.close();
  });

  it('the admin sets up the directory in the console; the password is kept write-only', async () => {
    const page = root.page;
    await page.goto(`${server.url}/#/manage/index?tab=directory`);
    await visible(page.getByRole('heading', { name: 'LDAP / Active Directory 登录' }));
    await page.getByLabel('启用目录登录').check();
    await page.getByLabel('服务器地址').fill(directory.url);
    await page.getByLabel('查找方式').selectOption({ label: '先用服务账号查找，再以用户身份验证' });
    await page.getByLabel('服务账号 DN').fill(READER_DN);
    await page.getByLabel('服务账号密码').fill(directory.readerPassword);
    await page.getByLabel('搜索起点（Base DN）').fill(PEOPLE);
    await page.getByLabel('用户过滤器').fill('(uid={account})');
    await page.getByLabel('停用条件（过滤器）').fill('(employeeType=disabled)');
    await page.getByRole('button', { name: '保存目录设置' }).click();
    await visible(toast(page, '已保存'));
    await noToasts(page);
    // The stored password is said to be there, never shown: the field is empty again.
    await visible(page.getByText('已保存密码（不会显示）；留空则保持不变'));
    expect(await page.getByLabel('服务账号密码').inputValue()).toBe('');
    await photo(page, 'console');
    await expectAccessible(page);
    await page.reload();
    await visible(page.getByLabel('服务账号 DN'));
    await photo(page, 'console-top');
    expect(await page.getByLabel('服务器地址').inputValue()).toBe(directory.url);
    expect(await page.content()).not.toContain(directory.readerPassword);
  });

  it('a directory user signs in on the login page with their directory password, under their directory name', async () => {
    const context = await phoneContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/#/pages/login/login`);
      await passwordForm(page);
      await page.getByLabel('账号', { exact: true }).fill('alice');
      await page.getByLabel('密码', { exact: true }).fill('not-her-pw');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await visible(toast(page, '账号或密码错误'));
      await noToasts(page);
      const bound = socketBound(page);
      await page.getByLabel('密码', { exact: true }).fill('wonder123');
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await visible(page.getByRole('navigation', { name: '主导航' }));
      await bound;
      await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '我' }).click();
      await visible(page.getByText('Alice Liddell').first());
      await photo(page, 'signed-in');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});
