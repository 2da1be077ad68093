import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { png } from './media-files';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  noToasts,
  pageArea,
  type Person,
  ServerProcess,
  settled,
  shot,
  signIn,
  toast,
  visible,
  WAIT,
} from './harness';

/**
 * 群机器人, browser: the owner adds a robot from the group's info page and reads its webhook; a
 * script posts WeCom's text (naming a member) and markdown to it; the chat shows both from the
 * robot, tagged 机器人, the markdown rendered; a plain member lists the robot without its webhook;
 * a reset URL kills the old one, and a removed robot's URL answers no more.
 */

let server: ServerProcess;
let browser: Browser;
let owner: Person;
let member: Person;
let groupId: string;

const signUp = (account: string, name: string) => newPerson(server, browser, account, name, { signedIn: false });

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  // runMode 1: anyone may put anyone in a group, so the test needs no friend requests.
  await server.admin('config', 'set', 'sysInfo.runMode', '1');
  await new Promise((r) => setTimeout(r, 1200));
  owner = await signUp('robot_owner', '王小明');
  member = await signUp('robot_member', '张伟');
  const extra = await signUp('robot_extra', '陈静');
  await extra.context.close();
  const group = await server.post<{ id: string }>(
    '/enterprise/group/add',
    { user_ids: [member.id, extra.id], name: '发布群' },
    owner.token,
  );
  groupId = group.id;
  await Promise.all([owner, member].map((p) => signIn(server, p.page, p.account)));
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const p of [owner, member]) if (p) await shot(p.page, `robots-failed-${p.account}`).catch(() => {});
});

afterAll(async () => {
  for (const p of [owner, member]) await p?.context.close();
  await browser?.close();
  await server?.dispose();
});

/** The page's own heading (the panel's in the wide layout). */
const title = (page: Page) => pageArea(page).getByRole('heading', { level: 1 });

/** A picture of the page, audited: toasts gone, animations done. */
async function check(page: Page, name: string): Promise<void> {
  await noToasts(page);
  await settled(page);
  await shot(page, `robots-${name}`);
  await expectAccessible(page);
}

/** What the webhook answers a POST of `body`, as a script calling it sees it. */
async function post(url: string, body: unknown): Promise<{ errcode: number; errmsg: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { errcode: number; errmsg: string };
}

const webhook = (page: Page): Locator => pageArea(page).locator('.robot-url');

describe('群机器人', () => {
  it('adds a robot whose webhook posts text and markdown into the group, then resets and removes it', async () => {
    const page = owner.page;
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

    // From the group's info page, which every member sees the row on.
    await page.goto(`${server.url}/#/pages/message/detail?id=${groupId}`);
    await pageArea(page)
      .getByRole('link', { name: /^群机器人/ })
      .click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('群机器人');
    await visible(pageArea(page).getByText('还没有机器人'));
    await check(page, '01-empty');

    await pageArea(page).getByRole('button', { name: '添加机器人' }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('添加机器人');
    // An empty name is refused on the spot.
    await pageArea(page).getByRole('button', { name: '添加', exact: true }).click();
    await visible(pageArea(page).getByText('请填写机器人名称'));
    await pageArea(page).getByRole('textbox', { name: '名称' }).fill('构建通知');
    await check(page, '02-add');
    await pageArea(page).getByRole('button', { name: '添加', exact: true }).click();

    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人信息');
    await visible(pageArea(page).getByText('尚未使用'));
    const url = (await webhook(page).textContent())!.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cgi-bin\/webhook\/send\?key=srk_[\w-]+$/);
    await visible(pageArea(page).locator('.robot-usage').getByText(`curl '${url}'`));
    await pageArea(page).getByRole('button', { name: '复制地址' }).click();
    await visible(toast(page, '已复制'));
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url);
    await check(page, '03-detail');

    // A script posts WeCom's text, naming a member by account, and markdown.
    await expect(
      post(url, { msgtype: 'text', text: { content: '构建 #42 开始', mentioned_list: [member.account] } }),
    ).resolves.toEqual({ errcode: 0, errmsg: 'ok' });
    await expect(
      post(url, {
        msgtype: 'markdown',
        markdown: { content: '**构建成功**\n[查看详情](https://example.com/build/42)' },
      }),
    ).resolves.toEqual({ errcode: 0, errmsg: 'ok' });

    await page.goto(`${server.url}/#/pages/message/chat?id=${groupId}`);
    const chat = pageArea(page);
    await visible(chat.getByText(/构建 #42 开始\s*@张伟/));
    const bold = chat.locator('.msg-markdown strong');
    await visible(bold);
    await expect(bold.textContent()).resolves.toBe('构建成功');
    const link = chat.getByRole('link', { name: '查看详情' });
    await visible(link);
    await expect(link.getAttribute('href')).resolves.toBe('https://example.com/build/42');
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    await expect(link.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    // Both from the robot by name, tagged 机器人.
    const names = chat.locator('.msg-name').filter({ hasText: '构建通知' });
    await expect.poll(() => names.count(), WAIT).toBe(2);
    await expect(names.locator('.msg-robot-tag').allTextContents()).resolves.toEqual(['机器人', '机器人']);
    // The robot has no profile: its face opens nothing.
    const before = page.url();
    await chat.locator('.msg').filter({ hasText: '构建成功' }).locator('.msg-avatar').click();
    await page.waitForTimeout(600);
    expect(page.url()).toBe(before);
    await check(page, '04-chat');

    // A plain member lists the robot, without its webhook or anything to change.
    const other = member.page;
    await other.goto(`${server.url}/#/pages/message/detail?id=${groupId}`);
    const row = pageArea(other).getByRole('link', { name: /^群机器人\s*1$/ });
    await visible(row);
    await row.scrollIntoViewIfNeeded();
    await check(other, '05-member-info');
    await row.click();
    await expect.poll(() => title(other).textContent(), WAIT).toBe('群机器人');
    const robots = pageArea(other).getByRole('list', { name: '本群的机器人' });
    await visible(robots.getByText('构建通知'));
    await visible(robots.getByText(/^上次使用 /));
    await expect(robots.getByRole('link').count()).resolves.toBe(0);
    await expect(pageArea(other).getByRole('button', { name: '添加机器人' }).count()).resolves.toBe(0);
    await expect(pageArea(other).getByText(/srk_/).count()).resolves.toBe(0);
    await check(other, '06-member-list');

    // The owner's list, then the robot: renamed, pictured.
    await page.goto(`${server.url}/#/pages/message/group/robots?id=${groupId}`);
    await visible(pageArea(page).getByText(/^上次使用 /));
    await check(page, '07-list');
    await pageArea(page)
      .getByRole('link', { name: /构建通知/ })
      .click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人信息');
    await pageArea(page).getByRole('link', { name: /^名称/ }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('修改名称');
    await pageArea(page).getByRole('textbox', { name: '名称' }).fill('发布助手');
    await pageArea(page).getByRole('button', { name: '保存' }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人信息');
    await visible(pageArea(page).getByRole('link', { name: /^名称\s*发布助手/ }));
    await pageArea(page)
      .getByLabel('更换机器人头像')
      .setInputFiles({ name: 'bot.png', mimeType: 'image/png', buffer: png(64, 64, [30, 110, 220]) });
    await visible(toast(page, '头像已更新'));
    const picture = pageArea(page).getByRole('img', { name: '发布助手 的头像' });
    await expect.poll(() => picture.getAttribute('src'), WAIT).not.toBe('/static/img/robot.png');

    // 重置地址: the old URL dies at once, the new one works.
    await pageArea(page).getByRole('button', { name: '重置地址' }).click();
    const dialog = page.getByRole('dialog');
    await visible(dialog.getByText('重置后旧地址立即失效，使用它的脚本和服务需改用新地址。'));
    await expectAccessible(page);
    await shot(page, 'robots-08-reset-confirm');
    await dialog.getByRole('button', { name: '重置地址' }).click();
    await visible(toast(page, '地址已重置'));
    await expect.poll(async () => (await webhook(page).textContent())!.trim(), WAIT).not.toBe(url);
    const fresh = (await webhook(page).textContent())!.trim();
    await expect(post(url, { msgtype: 'text', text: { content: '旧地址' } })).resolves.toMatchObject({
      errcode: 93000,
    });
    await expect(post(fresh, { type: 'text', content: '新地址可用' })).resolves.toEqual({ errcode: 0, errmsg: 'ok' });
    await check(page, '09-after-reset');

    // 移除机器人: its URL answers no more.
    await pageArea(page).getByRole('button', { name: '移除机器人' }).click();
    await visible(dialog.getByText(/移除后“发布助手”的地址立即失效/));
    await expectAccessible(page);
    await dialog.getByRole('button', { name: '移除', exact: true }).click();
    await hidden(dialog);
    await visible(toast(page, '已移除机器人'));
    await expect.poll(() => title(page).textContent(), WAIT).toBe('群机器人');
    await visible(pageArea(page).getByText('还没有机器人'));
    await expect(post(fresh, { msgtype: 'text', text: { content: '已移除' } })).resolves.toMatchObject({
      errcode: 93000,
    });
  });
});
