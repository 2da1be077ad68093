import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  fitsScreen,
  hidden,
  noToasts,
  pageArea,
  type Person,
  type ServerProcess,
  settled,
  shot,
  visible,
  WAIT,
} from './harness';
import { bubble, messageRow, openBrowser, openMessageMenu, phoneSuite, registerFriends, say as sayAs } from './people';

/**
 * Issue 38 points 4 and 5, browser: Alice (owner, Chinese), Bob (member, English) and Carol
 * (member, Chinese) in a group, side by side at 375 px. Alice pins from the long-press menu and
 * the others see the bar arrive; a tap on it jumps to the message and cycles through the pins; the
 * list unpins. Carol sets her pat suffix in her profile; Bob double-taps her avatar and everyone
 * sees the pat line with it, worded for each; Bob withdraws it and it is gone for everyone.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;
let groupId: string;

/** The pin bar under the chat's title. */
function pinBar(page: Page): Locator {
  return page.getByRole('region', { name: /^(置顶消息|Pinned message)$/ });
}

const say = (who: { token: string }, text: string) => sayAs(server, who, groupId, text, { is_group: 1, type: 'text' });

async function openGroup(p: Person, title: RegExp): Promise<void> {
  await p.page.goto(`${server.url}/#/pages/message/chat?id=${groupId}`);
  await visible(p.page.getByRole('heading', { level: 1, name: title }));
}

phoneSuite(
  'pins',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carol],
);

beforeAll(async () => {
  const [a, b, c] = await registerFriends(server, [
    ['alice_pin', 'Alice'],
    ['bob_pin', 'Bob'],
    ['carol_pin', 'Carol'],
  ]);
  const group = await server.post<{ id: string }>(
    '/enterprise/group/add',
    { user_ids: [b.id, c.id], name: '周末计划' },
    a.token,
  );
  groupId = group.id;
  for (let i = 1; i <= 20; i++) await say(i % 2 ? c : a, `earlier ${i}`);
  await say(a, '周五晚上七点集合');
  await say(c, '我带零食');
  // Enough later talk that the first messages are far above the newest.
  for (let i = 1; i <= 30; i++) await say(i % 2 ? b : a, `line ${i}`);

  alice = await openBrowser(server, browser, a);
  carol = await openBrowser(server, browser, c);
  // Bob reads English.
  bob = await openBrowser(server, browser, b, 'en');

  await Promise.all([openGroup(alice, /周末计划/), openGroup(bob, /周末计划/), openGroup(carol, /周末计划/)]);
});

describe('pinned messages', () => {
  it('the owner pins from the menu; the others see the bar live; a tap jumps to it; several cycle; the list unpins', async () => {
    const a = alice.page;
    const b = bob.page;
    // A member is offered no pin until the owner lets members pin.
    await visible(bubble(b, 'line 30'));
    const bobMenu = await openMessageMenu(b, bubble(b, 'line 30'));
    expect(await bobMenu.getByRole('menuitem', { name: 'Pin' }).count()).toBe(0);
    await bobMenu.getByRole('menuitem').first().press('Escape');
    await hidden(bobMenu);

    await visible(bubble(a, 'line 29'));
    const menu = await openMessageMenu(a, bubble(a, 'line 29'));
    await menu.getByRole('menuitem', { name: '置顶' }).click();
    await visible(pinBar(a));
    await visible(pageArea(a).getByText('你置顶了“line 29”'));

    // Bob and Carol see it arrive without reloading, each in their words.
    await visible(pinBar(b));
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('Me: line 29');
    await visible(pageArea(b).getByText('Alice pinned “line 29”'));
    await visible(pinBar(carol.page));
    await visible(pageArea(carol.page).getByText('Alice置顶了“line 29”'));

    // A message far up the chat, pinned through the API as another device would: the bar follows.
    const list = await server.post<Array<{ msg_id: number; content: string }>>(
      '/enterprise/im/getMessageList',
      { toContactId: groupId, is_group: 1, limit: 100 },
      alice.token,
    );
    const first = list.find((m) => m.content === '周五晚上七点集合')!;
    await server.post('/enterprise/im/pinMessage', { id: first.msg_id, pin: 1 }, alice.token);
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('Alice: 周五晚上七点集合');
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('1/2');
    await hidden(bubble(b, '周五晚上七点集合'));

    await settled(b);
    await noToasts(b);
    await fitsScreen(b);
    await expectAccessible(b);
    await shot(b, 'pins-bar-en');

    // A tap opens the chat at the newest pin and moves the bar to the next one.
    await pinBar(b)
      .getByRole('button', { name: /^Go to pinned message/ })
      .click();
    await visible(bubble(b, '周五晚上七点集合'));
    await visible(b.locator('.chat-item-focus').filter({ hasText: '周五晚上七点集合' }));
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('2/2');
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('Me: line 29');
    await shot(b, 'pins-jumped-en');
    await pinBar(b)
      .getByRole('button', { name: /^Go to pinned message/ })
      .click();
    await visible(bubble(b, 'line 29'));
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('1/2');

    // Bob's list shows both, with no unpin for a member.
    await pinBar(b).getByRole('button', { name: 'All pinned messages' }).click();
    const bobSheet = b.getByRole('dialog', { name: 'Pinned messages (2)' });
    await visible(bobSheet);
    expect(await bobSheet.getByRole('button', { name: 'Unpin' }).count()).toBe(0);
    await expectAccessible(b);
    await shot(b, 'pins-list-en');
    await bobSheet.getByRole('button', { name: 'Close' }).click();
    await hidden(bobSheet);

    // Alice unpins one from her list; the others' bars follow.
    await pinBar(a).getByRole('button', { name: '全部置顶消息' }).click();
    await visible(a.getByRole('dialog', { name: '置顶消息（2）' }));
    const sheet = a.getByRole('dialog', { name: /^置顶消息（\d）$/ });
    await expectAccessible(a);
    await shot(a, 'pins-list-zh');
    await sheet.getByRole('listitem').filter({ hasText: 'line 29' }).getByRole('button', { name: '取消置顶' }).click();
    await expect.poll(() => sheet.getByRole('listitem').count(), WAIT).toBe(1);
    await sheet.getByRole('button', { name: '关闭' }).click();
    await visible(pageArea(carol.page).getByText('Alice取消置顶了“line 29”'));
    await expect.poll(() => pinBar(b).textContent(), WAIT).not.toContain('1/2');
    await expect.poll(() => pinBar(b).textContent(), WAIT).toContain('Alice: 周五晚上七点集合');
    await expect.poll(() => pinBar(carol.page).textContent(), WAIT).toContain('Alice: 周五晚上七点集合');
  });

  it('the owner lets members pin from the group page; a member then pins from the menu', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/group/info?id=${groupId}`);
    const toggle = a.getByRole('switch', { name: '允许成员置顶消息' });
    await visible(toggle);
    await expectAccessible(a);
    await shot(a, 'pins-group-switch-zh');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), WAIT).toBe('true');

    const c = carol.page;
    await c.reload();
    await visible(bubble(c, 'line 30'));
    const menu = await openMessageMenu(c, bubble(c, 'line 30'));
    await menu.getByRole('menuitem', { name: '置顶' }).click();
    await visible(pageArea(c).getByText('你置顶了“line 30”'));
    await expect.poll(() => pinBar(bob.page).textContent(), WAIT).toContain('Alice: line 30');
  });
});

describe('pat', () => {
  it('Carol sets her suffix; Bob double-taps her avatar; everyone sees the line; Bob withdraws it', async () => {
    await openGroup(alice, /周末计划/);
    const c = carol.page;
    await c.goto(`${server.url}/#/pages/mine/profile`);
    await c.getByRole('link', { name: /拍一拍后缀/ }).click();
    await c.getByLabel('拍一拍后缀').fill('的肩膀');
    await shot(c, 'pat-suffix-zh');
    await c.getByRole('button', { name: '保存' }).click();
    await visible(c.getByRole('link', { name: /拍一拍后缀.*的肩膀/ }));
    await openGroup(carol, /周末计划/);

    const b = bob.page;
    await b.reload();
    await visible(bubble(b, 'line 30'));
    await say(carol, '我到了');
    await visible(bubble(b, '我到了'));
    await messageRow(b, '我到了').locator('.msg-avatar').dblclick();
    await visible(pageArea(b).getByText('You patted Carol 的肩膀'));
    await visible(pageArea(alice.page).getByText('Bob拍了拍 Carol 的肩膀'));
    await visible(pageArea(c).getByText('Bob拍了拍 你 的肩膀'));
    // The double tap stayed in the chat: no profile opened.
    await visible(b.getByRole('heading', { level: 1, name: /周末计划/ }));
    await settled(b);
    // A line that arrives while the chat is at its end is in view whole: the list follows it down.
    for (const p of [b, c]) {
      const below = await p
        .locator('.chat-scroller')
        .evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      expect(below).toBeLessThan(2);
    }
    await noToasts(b);
    await expectAccessible(b);
    await shot(b, 'pat-line-en');
    await shot(c, 'pat-line-zh');

    // Within two minutes Bob withdraws it, and it is gone for everyone.
    const line = b.locator('.chat-event').filter({ hasText: 'You patted Carol' });
    const menu = await openMessageMenu(b, line);
    await menu.getByRole('menuitem', { name: 'Withdraw' }).click();
    await hidden(line);
    await hidden(pageArea(alice.page).getByText('Bob拍了拍 Carol 的肩膀'));
    await hidden(pageArea(c).getByText('Bob拍了拍 你 的肩膀'));
  });
});
