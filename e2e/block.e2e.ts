import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hidden, type Person, type ServerProcess, shot, toast, visible } from './harness';
import { bubble, checkPage, messageRow, openBrowser, phoneSuite, registerFriends, sendText } from './people';

/**
 * Issue 39, block (加入黑名单), in the browser at 375 px: Alice blocks her friend Bob from his
 * profile; Bob's message to her is refused as a non-friend's and never reaches her; she opens
 * Settings → 通讯录黑名单, finds him there and unblocks him; his next message arrives.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;

phoneSuite(
  'block',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob],
);

beforeAll(async () => {
  const [a, b] = await registerFriends(server, [
    ['alice_blk', 'Alice'],
    ['bob_blk', 'Bob'],
  ]);
  [alice, bob] = await Promise.all([openBrowser(server, browser, a), openBrowser(server, browser, b)]);
});

describe('block', () => {
  it('Alice blocks Bob from his profile after confirming; the profile says so', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/contacts/detail?id=${bob.id}`);
    const blockSwitch = page.getByRole('switch', { name: '加入黑名单' });
    await visible(blockSwitch);
    expect(await blockSwitch.getAttribute('aria-checked')).toBe('false');
    await blockSwitch.click();
    const dialog = page.getByRole('dialog', { name: '加入黑名单' });
    await visible(dialog);
    await visible(dialog.getByText(/加入黑名单后，你将不再收到对方的消息/));
    await shot(page, 'block-confirm');
    await dialog.getByRole('button', { name: '加入', exact: true }).click();
    await visible(toast(page, '已加入黑名单'));
    await visible(page.locator('.profile-name .tag', { hasText: '已加入黑名单' }));
    expect(await blockSwitch.getAttribute('aria-checked')).toBe('true');
    // The private chat's info shows the same switch, on.
    await page.goto(`${server.url}/#/pages/message/detail?id=${bob.id}`);
    const chatSwitch = page.getByRole('switch', { name: '加入黑名单' });
    await visible(chatSwitch);
    await expect.poll(() => chatSwitch.getAttribute('aria-checked')).toBe('true');
  });

  it('Bob’s message fails as to a non-friend, and Alice never receives it', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    const b = bob.page;
    await b.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await sendText(b, '在吗？');
    await visible(messageRow(b, '在吗？').getByText('未发送：对方不是你的好友，请先添加好友'));
    await shot(b, 'block-refused-sender');
    // Give a push time to arrive, were one sent.
    await a.waitForTimeout(1500);
    await hidden(bubble(a, '在吗？'));
  });

  it('Settings → 通讯录黑名单 lists Bob; 移出 unblocks him and leaves the empty state', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/mine/setting`);
    await visible(page.getByRole('heading', { name: '隐私' }));
    await page.getByRole('link', { name: '通讯录黑名单' }).click();
    await visible(page.getByRole('heading', { name: '通讯录黑名单' }));
    const row = page.locator('.request', { hasText: 'Bob' });
    await visible(row);
    await visible(page.getByText('共 1 人'));
    await checkPage(page, 'block-list');
    fs.mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/block-list.png' });

    await row.getByRole('button', { name: '将 Bob 移出黑名单' }).click();
    await visible(toast(page, '已移出黑名单'));
    await visible(page.getByRole('heading', { name: '黑名单为空' }));
    await checkPage(page, 'block-list-empty');
    await page.screenshot({ path: '/tmp/shots/block-list-empty.png' });
  });

  it('after unblocking, Bob’s next message arrives', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    const b = bob.page;
    await sendText(b, '现在能收到吗？');
    await visible(bubble(a, '现在能收到吗？'));
    await hidden(bubble(a, '在吗？'));
  });
});
