import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  fitsScreen,
  hidden,
  longPress,
  noToasts,
  type Person,
  type ServerProcess,
  settled,
  shot,
  visible,
  WAIT,
} from './harness';
import { bubble, messageRow, openBrowser, openMessageMenu, phoneSuite, registerFriends, sendText } from './people';

/**
 * Issue 38 points 6 and 7, browser: Alice (Chinese) and Bob (English) side by side at 375 px.
 * Bob reacts from the long-press menu and Alice sees the chip arrive; she adds hers, sees who
 * reacted, takes hers back. Alice edits a text she sent: Bob sees the new text and "edited" live,
 * and she reads the earlier version in 编辑记录.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;

const openMenu = (page: Page, text: string): Promise<Locator> => openMessageMenu(page, bubble(page, text));

/** Closes a message menu as a tap beside it does. */
async function closeMenu(page: Page, menu: Locator): Promise<void> {
  await page.mouse.click(187, 120);
  await hidden(menu);
}

phoneSuite(
  'reactions',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob],
);

beforeAll(async () => {
  const [a, b] = await registerFriends(server, [
    ['alice_react', 'Alice'],
    ['bob_react', 'Bob'],
  ]);
  alice = await openBrowser(server, browser, a);
  // Bob reads English.
  bob = await openBrowser(server, browser, b, 'en');

  await alice.page.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
  await visible(alice.page.getByRole('heading', { level: 1, name: 'Bob' }));
  await bob.page.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
  await visible(bob.page.getByRole('heading', { level: 1, name: 'Alice' }));
});

describe('reactions', () => {
  it('B reacts from the long-press menu; A sees the chip live, adds hers, sees who reacted, takes hers back', async () => {
    const a = alice.page;
    const b = bob.page;
    await sendText(a, '今晚吃火锅吗');
    await visible(bubble(b, '今晚吃火锅吗'));

    const menu = await openMenu(b, '今晚吃火锅吗');
    const quick = menu.getByRole('group', { name: 'Quick reactions' });
    await visible(quick);
    await expectAccessible(b);
    await shot(b, 'reactions-menu-en');
    await quick.getByRole('menuitem', { name: 'React with 👍' }).click();
    await hidden(menu);
    const bobChip = messageRow(b, '今晚吃火锅吗').getByRole('button', { name: '👍, 1 reacted, you included' });
    await visible(bobChip);

    // Alice sees it arrive without reloading, then adds hers by tapping it.
    const chip = messageRow(a, '今晚吃火锅吗').getByRole('button', { name: /^👍，\d 人回应/ });
    await visible(chip);
    await expect.poll(() => chip.getAttribute('aria-label'), WAIT).toBe('👍，1 人回应');
    await chip.click();
    await expect.poll(() => chip.getAttribute('aria-label'), WAIT).toBe('👍，2 人回应，包括你');
    await expect.poll(() => chip.getAttribute('aria-pressed'), WAIT).toBe('true');
    await visible(messageRow(b, '今晚吃火锅吗').getByRole('button', { name: '👍, 2 reacted, you included' }));

    // The whole emoji panel from the menu's "more".
    const again = await openMenu(a, '今晚吃火锅吗');
    await again.getByRole('menuitem', { name: '更多表情' }).click();
    const picker = a.getByRole('dialog', { name: '选择表情' });
    await visible(picker);
    await picker.getByRole('button', { name: '回应 🎉' }).click();
    await hidden(picker);
    await visible(messageRow(b, '今晚吃火锅吗').getByRole('button', { name: '🎉, 1 reacted' }));

    await noToasts(a);
    await settled(a);
    await fitsScreen(a);
    await expectAccessible(a);
    await shot(a, 'reactions-chips-zh');

    // Who reacted: a long press on the chip.
    await longPress(a, chip);
    const sheet = a.getByRole('dialog', { name: '回应的人' });
    await visible(sheet);
    await visible(sheet.getByText('Bob', { exact: true }));
    await visible(sheet.getByText('你', { exact: true }));
    await expectAccessible(a);
    await shot(a, 'reactions-who-zh');
    await sheet.getByRole('button', { name: '关闭' }).click();
    await hidden(sheet);

    // Tapped again, hers goes; Bob's count follows.
    await chip.click();
    await expect.poll(() => chip.getAttribute('aria-label'), WAIT).toBe('👍，1 人回应');
    await visible(messageRow(b, '今晚吃火锅吗').getByRole('button', { name: '👍, 1 reacted, you included' }));
    await shot(b, 'reactions-chips-en');
  });
});

describe('edits', () => {
  it('A edits a text she sent: B sees the new text and "edited" live; A reads the earlier version', async () => {
    const a = alice.page;
    const b = bob.page;
    await sendText(a, '三点开会');
    await visible(bubble(b, '三点开会'));

    const menu = await openMenu(a, '三点开会');
    await menu.getByRole('menuitem', { name: '编辑', exact: true }).click();
    const box = a.getByRole('textbox', { name: '输入消息' });
    await expect.poll(() => box.inputValue(), WAIT).toBe('三点开会');
    await visible(a.getByText('编辑消息：三点开会'));
    await expectAccessible(a);
    await shot(a, 'edit-composer-zh');
    await box.fill('四点开会');
    await a.locator('.composer').getByRole('button', { name: '发送' }).click();

    await visible(bubble(a, '四点开会'));
    await visible(messageRow(a, '四点开会').getByText('已编辑'));
    await hidden(bubble(a, '三点开会'));
    await visible(bubble(b, '四点开会'));
    await visible(messageRow(b, '四点开会').getByText('edited'));
    await hidden(bubble(b, '三点开会'));
    await expectAccessible(b);
    await shot(b, 'edit-live-en');

    // The earlier version, from the menu.
    const again = await openMenu(a, '四点开会');
    await again.getByRole('menuitem', { name: '编辑记录' }).click();
    const history = a.getByRole('dialog', { name: '编辑记录' });
    await visible(history);
    await visible(history.getByText('三点开会', { exact: true }));
    await visible(history.getByText('四点开会', { exact: true }));
    await expectAccessible(a);
    await shot(a, 'edit-history-zh');
    await history.getByRole('button', { name: '关闭' }).click();
    // Bob, who did not send it, is offered neither.
    const bobMenu = await openMenu(b, '四点开会');
    await expect(bobMenu.getByRole('menuitem', { name: 'Edit', exact: true }).count()).resolves.toBe(0);
    await expect(bobMenu.getByRole('menuitem', { name: 'Edit history' }).count()).resolves.toBe(0);
    await closeMenu(b, bobMenu);
  });
});

describe('the group switch', () => {
  it('the owner turns reactions off on the group page; a member is then offered none', async () => {
    const carol = await server.register('carol_react', 'Carol');
    await befriend(server, alice, carol);
    const group = await server.post<{ id: string }>(
      '/enterprise/group/add',
      { user_ids: [bob.id, carol.id], name: '火锅群' },
      alice.token,
    );
    await server.post(
      '/enterprise/im/sendMessage',
      { id: crypto.randomUUID(), toContactId: group.id, is_group: 1, type: 'text', content: '周五见' },
      alice.token,
    );
    const a = alice.page;
    const b = bob.page;
    await b.goto(`${server.url}/#/pages/message/chat?id=${group.id}`);
    await visible(bubble(b, '周五见'));
    const offered = await openMenu(b, '周五见');
    await visible(offered.getByRole('group', { name: 'Quick reactions' }));
    await closeMenu(b, offered);

    await a.goto(`${server.url}/#/pages/message/group/info?id=${group.id}`);
    const toggle = a.getByRole('switch', { name: '允许成员用表情回应消息' });
    await visible(toggle);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), WAIT).toBe('false');
    await expectAccessible(a);
    await shot(a, 'reactions-group-switch-zh');

    // Bob's open chat follows the setting's push: the menu offers no reactions.
    await expect
      .poll(async () => {
        const menu = await openMenu(b, '周五见');
        const count = await menu.getByRole('group', { name: 'Quick reactions' }).count();
        await closeMenu(b, menu);
        return count;
      }, WAIT)
      .toBe(0);
  });
});
