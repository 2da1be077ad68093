import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  type Person,
  ServerProcess,
  settled,
  shot,
  toast,
  visible,
  WAIT,
} from './harness';

/**
 * Issue 3, browser: two people side by side. A finds B by account and asks to be friends; B sees
 * the request arrive, accepts it; both find each other in Contacts under the right letter; B
 * gives A a remark; A ends the friendship and B's list follows without a reload.
 */

let server: ServerProcess;
let browser: Browser;

let alice: Person;
let bob: Person;

/** Registers over HTTP, then signs in through the login page like a person. */
async function openContacts(p: Person): Promise<void> {
  await p.page
    .getByRole('navigation', { name: '主导航' })
    .getByRole('button', { name: /通讯录/ })
    .click();
  await visible(p.page.getByRole('heading', { level: 1, name: '通讯录' }));
}

/** A row of the contact list; people online have ", 在线" after their name. */
function contactRow(page: Page, name: string): Locator {
  return page.getByRole('link', { name: new RegExp(`^${name}(, 在线)?$`) });
}

/** The letter heading a contact row sits under in the A–Z list. */
async function letterOf(page: Page, name: string): Promise<string> {
  const row = contactRow(page, name);
  await visible(row);
  return row.evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    let letter = '';
    let best = -Infinity;
    for (const h of Array.from(document.querySelectorAll('h2.index-letter'))) {
      const y = h.getBoundingClientRect().top;
      if (y <= top && y > best) {
        best = y;
        letter = h.textContent ?? '';
      }
    }
    return letter;
  });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  // Pinyin decides the letter: 王 is W; the remark 老同学 later files A under L.
  alice = await newPerson(server, browser, 'alice_e2e', 'Alice');
  bob = await newPerson(server, browser, 'bob_e2e', '王小明');
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('friends in two browsers', () => {
  it('A finds B by account and sends a request with a note', async () => {
    const page = alice.page;
    await openContacts(alice);
    await expectAccessible(page);
    await page.getByRole('button', { name: '更多功能' }).click();
    await page.getByRole('menuitem', { name: '添加朋友' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '搜索朋友' }));
    // A partial account finds nobody: search is exact.
    await page.getByLabel('搜索账号、手机号或邮箱').fill('bob_e');
    await page.keyboard.press('Enter');
    await visible(page.getByText('该用户不存在'));
    await page.getByLabel('搜索账号、手机号或邮箱').fill(bob.account);
    await page.keyboard.press('Enter');
    const card = page.getByRole('region', { name: bob.name });
    await visible(card);
    await card.getByRole('button', { name: '添加到通讯录' }).click();
    await card.getByLabel('发送添加朋友申请').fill('你好，我是 Alice');
    await expectAccessible(page);
    await shot(page, 'friends-search');
    await card.getByRole('button', { name: '发送', exact: true }).click();
    await visible(card.getByText('已发送，等待对方验证'));
  });

  it('B sees the request arrive without a reload and accepts it', async () => {
    const page = bob.page;
    await openContacts(bob);
    const tab = page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: /通讯录/ });
    await expect.poll(() => tab.textContent(), WAIT).toContain('1');
    await page.getByRole('link', { name: /新的朋友.*1 个好友请求/ }).click();
    await visible(page.getByRole('heading', { level: 1, name: '新朋友' }));
    await visible(page.getByText('你好，我是 Alice'));
    await expectAccessible(page);
    await shot(page, 'friends-requests');
    await page.getByRole('button', { name: `接受 ${alice.name} 的请求` }).click();
    await visible(page.getByText('已添加'));
    await page.getByRole('link', { name: 'Alice' }).first().waitFor(WAIT);
  });

  it('both find each other in Contacts under the right letter', async () => {
    await bob.page.goto(`${server.url}/#/pages/contacts/index`);
    expect(await letterOf(bob.page, alice.name)).toBe('A');
    await expectAccessible(bob.page);
    await shot(bob.page, 'friends-contacts-b');
    // A's list changed by push while A was on another page.
    await alice.page.getByRole('button', { name: '返回' }).click();
    expect(await letterOf(alice.page, bob.name)).toBe('W');
    await shot(alice.page, 'friends-contacts-a');
  });

  it('B gives A a remark, and the list files A under its letter', async () => {
    const page = bob.page;
    await contactRow(page, alice.name).click();
    await visible(page.getByRole('heading', { level: 1, name: '用户信息' }));
    await expectAccessible(page);
    await page.getByRole('link', { name: /设置备注/ }).click();
    await page.getByLabel('备注名', { exact: true }).fill('老同学');
    await expectAccessible(page);
    await page.getByRole('button', { name: '保存' }).click();
    await visible(page.getByRole('heading', { level: 2, name: '老同学' }));
    await visible(page.getByText(`昵称：${alice.name}`));
    await shot(page, 'friends-detail-remark');
    await page.getByRole('button', { name: '返回' }).click();
    await page.goto(`${server.url}/#/pages/contacts/index`);
    expect(await letterOf(page, '老同学')).toBe('L');
  });

  it('the chat opens with B saying they accepted, as WeChat opens it', async () => {
    const page = alice.page;
    const greeting = '我通过了你的朋友验证请求，现在我们可以开始聊天了';
    await page.goto(`${server.url}/#/pages/index/index`);
    const row = page.getByRole('link', { name: new RegExp(greeting) });
    await visible(row);
    await row.click();
    await visible(page.getByRole('heading', { level: 1, name: bob.name }));
    await visible(page.locator('.bubble').filter({ hasText: greeting }));
    await shot(page, 'friends-greeting-chat');
    await page.goto(`${server.url}/#/pages/contacts/index`);
    await visible(page.getByRole('heading', { level: 1, name: '通讯录' }));
  });

  it('A deletes B after confirming; B’s list drops A without a reload', async () => {
    const page = alice.page;
    await contactRow(page, bob.name).click();
    await visible(page.getByRole('heading', { level: 1, name: '用户信息' }));
    await page.getByRole('button', { name: '删除好友' }).click();
    const dialog = page.getByRole('dialog', { name: '删除好友' });
    await visible(dialog);
    // A confirm that deletes says so in red.
    const confirm = dialog.getByRole('button', { name: '删除好友' });
    expect(await confirm.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(198, 40, 40)');
    await settled(page);
    await shot(page, 'friends-delete-confirm');
    await expectAccessible(page);
    await confirm.click();
    await visible(toast(page, '已删除'));
    await visible(page.getByRole('heading', { level: 1, name: '通讯录' }));
    await hidden(contactRow(page, bob.name));
    await hidden(contactRow(bob.page, '老同学'));
    await visible(bob.page.getByRole('heading', { level: 2, name: '暂无联系人' }));
  });

  it('A finds the request to B among those sent; the choice answers at once and survives a reload', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/contacts/friend`);
    await page.getByRole('radio', { name: '发出的' }).check();
    await visible(page.getByText(bob.name, { exact: true }));
    await page.reload();
    await expect.poll(() => page.getByRole('radio', { name: '发出的' }).isChecked(), WAIT).toBe(true);
    await visible(page.getByText(bob.name, { exact: true }));
    await expectAccessible(page);
    await shot(page, 'friends-sent');
    await page.getByRole('radio', { name: '收到的' }).check();
    await expect.poll(() => page.url(), WAIT).not.toContain('box=');
  });
});
