import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  fitsScreen,
  hidden,
  type Person,
  type ServerProcess,
  settled,
  shot,
  visible,
  WAIT,
} from './harness';
import { groupOfThree, messageRow, openGroupChat, phoneSuite, sendText } from './people';

/**
 * Issue 41 point 1, browser: group read receipts between three people at 375 px. Alice sends in a
 * group; Bob (English) and Carol open the chat and read it; under her message Alice sees 2人未读,
 * then 1人未读, then 全部已读, live, and the 已读/未读 lists follow as they read.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;
let groupId: string;

phoneSuite(
  'receipts',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carol],
);

const openGroup = (page: Page) => openGroupChat(server, page, groupId, /周会/);

beforeAll(async () => {
  ({
    people: [alice, bob, carol],
    groupId,
  } = await groupOfThree(
    server,
    browser,
    [
      ['alice_rcpt', 'Alice'],
      ['bob_rcpt', 'Bob', 'en'],
      ['carol_rcpt', 'Carol'],
    ],
    '周会',
  ));
});

describe('group read receipts', () => {
  it('A sends in a group; as B and C read, A sees 2人未读 → 1人未读 → 全部已读 live, and who read it', async () => {
    const a = alice.page;
    await openGroup(a);
    await sendText(a, '周五前交周报');
    const row = messageRow(a, '周五前交周报');
    const count = row.getByRole('button', { name: /查看已读和未读成员$/ });
    await expect.poll(() => count.textContent(), WAIT).toBe('2人未读');
    await settled(a);
    await fitsScreen(a);
    await expectAccessible(a);
    await shot(a, 'receipts-2-unread-zh');

    // Bob opens the chat: reading it is enough.
    await openGroup(bob.page);
    await visible(bob.page.getByText('周五前交周报', { exact: true }));
    await expect.poll(() => count.textContent(), WAIT).toBe('1人未读');

    // Who read it: Bob under 已读, Carol under 未读; the sheet follows Carol's read as it happens.
    await count.click();
    const sheet = a.getByRole('dialog', { name: '消息接收人列表' });
    await visible(sheet);
    const unreadTab = sheet.getByRole('button', { name: /^未读/ });
    const readTab = sheet.getByRole('button', { name: /^已读/ });
    await expect.poll(() => unreadTab.textContent(), WAIT).toBe('未读 1');
    await expect.poll(() => readTab.textContent(), WAIT).toBe('已读 1');
    await visible(sheet.getByText('Carol', { exact: true }));
    await settled(a);
    await expectAccessible(a);
    await shot(a, 'receipts-list-unread-zh');
    await readTab.click();
    await visible(sheet.getByText('Bob', { exact: true }));
    await hidden(sheet.getByText('Carol', { exact: true }));

    await openGroup(carol.page);
    await visible(carol.page.getByText('周五前交周报', { exact: true }));
    await expect.poll(() => readTab.textContent(), WAIT).toBe('已读 2');
    await expect.poll(() => unreadTab.textContent(), WAIT).toBe('未读 0');
    await visible(sheet.getByText('Carol', { exact: true }));
    await expectAccessible(a);
    await shot(a, 'receipts-list-read-zh');
    await sheet.getByRole('button', { name: '关闭' }).click();
    await hidden(sheet);
    await expect.poll(() => count.textContent(), WAIT).toBe('全部已读');
    await shot(a, 'receipts-all-read-zh');

    // Bob's own message shows his count in English; others' messages carry none.
    await sendText(bob.page, 'Done by Thursday');
    const bobCount = messageRow(bob.page, 'Done by Thursday').getByRole('button', { name: /see who read it$/ });
    await expect.poll(() => bobCount.textContent(), WAIT).toBe('Read by all');
    expect(
      await messageRow(bob.page, '周五前交周报')
        .getByRole('button', { name: /see who read it$/ })
        .count(),
    ).toBe(0);
    await fitsScreen(bob.page);
    await expectAccessible(bob.page);
    await shot(bob.page, 'receipts-en');
  });

  it('C turns off 发送已读回执: her reads no longer count and she sees no counts; A sees her as unread', async () => {
    const c = carol.page;
    await c.goto(`${server.url}/#/pages/mine/setting`);
    const toggle = c.getByRole('switch', { name: '发送已读回执' });
    await visible(toggle);
    await expectAccessible(c);
    await shot(c, 'receipts-setting-zh');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), WAIT).toBe('false');

    const a = alice.page;
    await sendText(a, '下午三点开会');
    // Bob, still in the chat, reads it at once.
    const count = messageRow(a, '下午三点开会').getByRole('button', { name: /查看已读和未读成员$/ });
    await expect.poll(() => count.textContent(), WAIT).toBe('1人未读');
    await openGroup(c);
    await visible(c.getByText('下午三点开会', { exact: true }));
    await sendText(c, '收到');
    await settled(c);
    expect(await c.getByRole('button', { name: /查看已读和未读成员$/ }).count()).toBe(0);
    await visible(a.getByText('收到', { exact: true }));
    // Carol has read it, and still counts as unread.
    await count.click();
    const sheet = a.getByRole('dialog', { name: '消息接收人列表' });
    await visible(sheet);
    await expect.poll(() => sheet.getByRole('button', { name: /^未读/ }).textContent(), WAIT).toBe('未读 1');
    await visible(sheet.getByText('Carol', { exact: true }));
    await sheet.getByRole('button', { name: '关闭' }).click();
    await hidden(sheet);
    expect(await count.textContent()).toBe('1人未读');

    // The owner's switch for the whole group, among the group's settings.
    await a.goto(`${server.url}/#/pages/message/group/info?id=${groupId}`);
    const groupSwitch = a.getByRole('switch', { name: '群消息已读回执' });
    await visible(groupSwitch);
    expect(await groupSwitch.getAttribute('aria-checked')).toBe('true');
    await groupSwitch.scrollIntoViewIfNeeded();
    await settled(a);
    await expectAccessible(a);
    await shot(a, 'receipts-group-switch-zh');
  });

  it('in an organisation that makes receipts mandatory (runMode 1), 发送已读回执 shows on and cannot be changed', async () => {
    await server.admin('config', 'set', 'sysInfo.runMode', '1');
    await new Promise((r) => setTimeout(r, 1200));
    try {
      const c = carol.page;
      await c.goto(`${server.url}/#/pages/mine/setting`);
      await c.reload();
      const toggle = c.getByRole('switch', { name: '发送已读回执' });
      await visible(toggle);
      await expect.poll(() => toggle.getAttribute('aria-disabled'), WAIT).toBe('true');
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      await visible(c.getByText('你所在的组织要求发送已读回执', { exact: true }));
      // Disabled for assistive technology too, so the click is forced: it must change nothing.
      await toggle.click({ force: true });
      await settled(c);
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      await expectAccessible(c);
      await shot(c, 'receipts-setting-mandatory-zh');
    } finally {
      await server.admin('config', 'set', 'sysInfo.runMode', '2');
    }
  });
});
