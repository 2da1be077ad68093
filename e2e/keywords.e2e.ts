import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { noToasts, settled, toast, visible, type Person, type ServerProcess } from './harness';
import { bubble, checkPage, messageRow, openBrowser, phoneSuite, registerFriends, sendText } from './people';

/**
 * Issue 39 point 6, keyword rules (敏感词), in the browser at 375 px: the admin makes a refuse list and
 * a replace list in the console and adds a word to each; Alice's message with the replace word
 * reaches Bob as ***, and her message with the refuse word is refused with the server's words. A review
 * list's word holds her message and her moments post: each shows 审核中 to her, still after a reload.
 */

let server: ServerProcess;
let browser: Browser;
let root: Person;
let alice: Person;
let bob: Person;

const REFUSED = '违禁品';
const REPLACED = '笨蛋';
const REVIEWED = '代购';

phoneSuite(
  'keywords',
  (s, b) => ([server, browser] = [s, b]),
  () => [root, alice, bob],
);

beforeAll(async () => {
  const [a, b] = await registerFriends(server, [
    ['alice_kw', 'Alice'],
    ['bob_kw', 'Bob'],
  ]);
  const admin = await server.register('root_kw', '管理员');
  await server.admin('user', 'role', 'root_kw', 'admin');
  root = await openBrowser(server, browser, { ...admin, account: 'root_kw' });
  alice = await openBrowser(server, browser, a);
  bob = await openBrowser(server, browser, b);
});

/** Makes a list of `action` (its label) in the console's keywords tab and adds one word to it. */
async function makeList(page: Page, name: string, action: string, word: string): Promise<void> {
  const create = page.locator('section', { has: page.getByRole('heading', { name: '新建词库' }) });
  await create.getByLabel('词库名称').fill(name);
  await create.getByLabel('处理方式').selectOption({ label: action });
  await create.getByRole('button', { name: '新建词库' }).click();
  await visible(toast(page, `已创建词库 ${name}`));
  await page.getByRole('button', { name: `${name} 的词条` }).click();
  const row = page.locator('.manage-row', { has: page.getByRole('button', { name: `${name} 的词条` }) });
  await row.getByLabel('添加词条（每行一个）').fill(word);
  await row.getByRole('button', { name: '添加 1 个' }).click();
  await visible(toast(page, '已添加 1 个，0 个已存在'));
  await visible(row.getByText(word, { exact: true }));
  await visible(row.getByText('1 个词'));
  await noToasts(page);
}

describe('keyword rules', () => {
  it('the admin makes a refuse list and a replace list in the console; its test box says what would happen', async () => {
    const page = root.page;
    await page.goto(`${server.url}/#/manage/index?tab=keywords`);
    await visible(page.getByRole('heading', { name: '全部词库' }));
    await visible(page.getByText('还没有词库'));
    await makeList(page, '禁售物品', '拒绝发送', REFUSED);
    await makeList(page, '不文明用语', '替换为 ***', REPLACED);
    const box = page.locator('section', { has: page.getByRole('heading', { name: '测试一段文字' }) });
    await box.getByLabel('要测试的文字').fill(`你这个${REPLACED}`);
    await box.getByRole('button', { name: '测试' }).click();
    await visible(box.getByText('将替换后发送'));
    await visible(box.getByText('保存为：你这个**'));
    await box.getByLabel('要测试的文字').fill(`出售${REFUSED}`);
    await box.getByRole('button', { name: '测试' }).click();
    await visible(box.getByText('将被拒绝发送'));
    await settled(page);
    fs.mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/keywords-console.png', fullPage: true });
    await checkPage(page, 'keywords-00-console-zh');
    // The held queue's tab: empty, and audited as well.
    await page.getByRole('navigation', { name: '管理后台分区' }).getByRole('link', { name: '待审核' }).click();
    await visible(page.getByText('没有待审核的内容'));
    await checkPage(page, 'keywords-01-held-zh');
  });

  it('a message with the replace word arrives as ***; the refuse word is refused with the message shown', async () => {
    const a = alice.page;
    const b = bob.page;
    await b.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await visible(a.getByRole('textbox', { name: '输入消息' }));
    await a.getByRole('textbox', { name: '输入消息' }).fill(`你真是个${REPLACED}啊`);
    await a.locator('.composer').getByRole('button', { name: '发送' }).click();
    await visible(bubble(a, '你真是个**啊'));
    await visible(bubble(b, '你真是个**啊'));
    expect(await b.getByText(REPLACED).count()).toBe(0);

    await a.getByRole('textbox', { name: '输入消息' }).fill(`出售${REFUSED}`);
    await a.locator('.composer').getByRole('button', { name: '发送' }).click();
    await visible(bubble(a, `出售${REFUSED}`));
    await visible(a.locator('.msg-failure').getByText('未发送：内容包含敏感词，无法发送'));
    await checkPage(a, 'keywords-02-refused-zh');
    // Bob never gets it; a clean message after it goes through.
    await sendText(a, '那我们改天再聊');
    await visible(bubble(b, '那我们改天再聊'));
    expect(await bubble(b, `出售${REFUSED}`).count()).toBe(0);
  });

  it('a held message shows 审核中 to its sender, still after a reload; so does a held post, in the feed and album', async () => {
    const r = root.page;
    await r.goto(`${server.url}/#/manage/index?tab=keywords`);
    await visible(r.getByRole('heading', { name: '全部词库' }));
    await makeList(r, '需要审核', '先审核', REVIEWED);

    const a = alice.page;
    const held = `帮你${REVIEWED}吧`;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await a.getByRole('textbox', { name: '输入消息' }).fill(held);
    await a.locator('.composer').getByRole('button', { name: '发送' }).click();
    await visible(messageRow(a, held).getByText('审核中：通过后才会送达'));
    await a.reload();
    await visible(messageRow(a, held).getByText('审核中：通过后才会送达'));
    await checkPage(a, 'keywords-03-held-after-reload-zh');
    expect(await bubble(bob.page, held).count()).toBe(0);

    const posted = `今天${REVIEWED}了新衣服`;
    await a.goto(`${server.url}/#/pages/compass/publish`);
    await a.getByLabel('这一刻的想法…').fill(posted);
    await a.getByRole('button', { name: '发表' }).click();
    const post = a.getByRole('article', { name: 'Alice 的动态' }).filter({ hasText: posted });
    await visible(post.getByText('审核中', { exact: true }));
    await a.reload();
    await visible(post.getByText(posted));
    await visible(post.getByText('审核中', { exact: true }));
    await a.goto(`${server.url}/#/pages/compass/moments?user_id=${alice.id}`);
    await visible(post.getByText('审核中', { exact: true }));
    await settled(a);
    await a.screenshot({ path: '/tmp/shots/keywords-held-post.png', fullPage: true });
    await checkPage(a, 'keywords-04-held-post-zh');
    // A held post is kept private while it waits: no 仅自己可见 lock beside 审核中.
    expect(await post.getByRole('img', { name: '仅自己可见' }).count()).toBe(0);

    // The operator's queue 待审核 lists both, the words that held them, and approve or reject.
    await r.getByRole('navigation', { name: '管理后台分区' }).getByRole('link', { name: '待审核' }).click();
    for (const text of [held, posted]) {
      const row = r.locator('.manage-row').filter({ hasText: text });
      await visible(row);
      await visible(row.getByRole('button', { name: '通过 Alice (alice_kw) 的内容', exact: true }));
    }
    await checkPage(r, 'keywords-05-held-queue');
  });
});
