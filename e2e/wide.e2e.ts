import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  DESK_SCREEN,
  expectAccessible,
  hidden,
  launchBrowser,
  newContext,
  PHONE_WIDTH,
  ServerProcess,
  settled,
  shot,
  signIn,
  visible,
} from './harness';
import { bubble, openMessageMenu, sendText } from './people';

/**
 * Issue 40 point 1, the wide layout at 1280×800: the rail, the list and the middle pane once signed
 * in; a chat opened from the list with the list still there; two people writing to each other; a
 * chat's info in the right panel, closed with Esc; a contact opened from the Contacts list in the
 * middle; a reload of any of these addresses opening the same panes; the list's width dragged or set
 * by keys and kept; the audit in the light and the dark theme. At 375 px the phone layout is as it was.
 */

let server: ServerProcess;
let browser: Browser;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
let carolId: number;
let groupId = '';
const contexts: BrowserContext[] = [];
const pages: Page[] = [];

const SHOTS = '/tmp/shots';

async function deskPage(account: string): Promise<Page> {
  const context = await newContext(browser, { viewport: DESK_SCREEN, deviceScaleFactor: 1, locale: 'zh-CN' });
  contexts.push(context);
  const page = await context.newPage();
  pages.push(page);
  await signIn(server, page, account);
  return page;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await server.register('alice_wide', 'Alice');
  bob = await server.register('bob_wide', 'Bob');
  const carol = await server.register('carol_wide', 'Carol');
  carolId = carol.id;
  await befriend(server, alice, bob);
  await befriend(server, alice, carol);
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  const step = task.name.slice(0, 24).replace(/\W+/g, '-');
  for (const [i, p] of pages.entries()) await shot(p, `wide-failed-${step}-${i}`).catch(() => {});
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.dispose();
});

const rail = (page: Page) => page.getByRole('navigation', { name: '主导航' });
const panel = (page: Page) => page.getByRole('complementary', { name: '详情面板' });
const splitter = (page: Page) => page.getByRole('separator', { name: '列表宽度' });
const conversation = (page: Page, name: string): Locator => page.getByRole('link', { name: new RegExp(`^${name},`) });

/** The left edge, width and bottom of an element as drawn, px. */
async function box(locator: Locator): Promise<{ x: number; width: number; bottom: number }> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not drawn');
  return { x: Math.round(b.x), width: Math.round(b.width), bottom: Math.round(b.y + b.height) };
}

/** The rail on the left, the list beside it and the middle pane right of the list. */
async function expectPanes(page: Page): Promise<void> {
  const nav = await box(rail(page));
  const list = await box(page.locator('.desk-list'));
  const middle = await box(page.locator('.desk-middle'));
  expect(nav.x).toBe(0);
  expect(nav.bottom).toBe(DESK_SCREEN.height);
  expect(list.x).toBe(0);
  expect(middle.x).toBeGreaterThanOrEqual(list.x + list.width - 1);
  expect(middle.width).toBeGreaterThan(500);
}

async function picture(page: Page, name: string): Promise<void> {
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

describe('the wide layout at 1280 px', () => {
  let a: Page;
  let b: Page;

  it('signs in to the rail, the conversation list and a quiet middle pane', async () => {
    a = await deskPage('alice_wide');
    await visible(a.getByText('未选择聊天'));
    await expectPanes(a);
    // One main landmark, the middle's; the rail is the only tab bar, at the left, not at the bottom.
    await expect.poll(() => a.getByRole('main').count()).toBe(1);
    const nav = await box(rail(a));
    expect(nav.width).toBeLessThan(100);
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('300');
    await expectAccessible(a);
    await picture(a, 'wide-01-empty-light');
  });

  it('opens a chat from the list in the middle, the list staying, and two people write to each other', async () => {
    b = await deskPage('bob_wide');
    await rail(a)
      .getByRole('button', { name: /通讯录/ })
      .click();
    await a.getByRole('link', { name: /^Bob(, 在线)?$/ }).click();
    await a.getByRole('link', { name: '发消息' }).click();
    await visible(a.getByRole('heading', { level: 1, name: 'Bob' }));
    await sendText(a, '桌面端你好');

    const row = conversation(b, 'Alice');
    await visible(row);
    await row.click();
    await expect.poll(() => new URL(b.url()).hash).toBe(`#/pages/message/chat?id=${alice.id}`);
    await visible(b.getByRole('heading', { level: 1, name: 'Alice' }));
    await visible(bubble(b, '桌面端你好'));
    // The list is still beside the chat, marking it, and the chat fills the middle down to its input box.
    await expect.poll(() => conversation(b, 'Alice').getAttribute('aria-current')).toBe('page');
    await expectPanes(b);
    const composer = await box(b.locator('.composer'));
    expect(composer.bottom).toBe(DESK_SCREEN.height);
    expect(composer.x).toBeGreaterThan(300);

    await sendText(b, '收到，在电脑上回你');
    await visible(bubble(a, '收到，在电脑上回你'));
    // One banner, the middle page's bar: the list's bar beside it is no second one.
    await expect.poll(() => b.getByRole('banner').count()).toBe(1);
    await expectAccessible(b);
    await picture(b, 'wide-02-chat-light');
  });

  it('keeps what the chat holds (a quote being written) when the window is resized across 1024 px', async () => {
    const menu = await openMessageMenu(b, bubble(b, '桌面端你好'));
    await menu.getByRole('menuitem', { name: '引用', exact: true }).click();
    const quoteBar = b.getByText('回复 Alice：桌面端你好');
    await visible(quoteBar);
    await b.getByRole('textbox', { name: /输入消息/ }).fill('写了一半');
    await b.setViewportSize({ width: 900, height: DESK_SCREEN.height });
    await expect.poll(() => b.locator('.desk').count()).toBe(0);
    await visible(quoteBar);
    await b.setViewportSize(DESK_SCREEN);
    await visible(b.locator('.desk-middle').getByText('回复 Alice：桌面端你好'));
    await visible(rail(b));
    await expect.poll(() => b.getByRole('textbox', { name: /输入消息/ }).inputValue()).toBe('写了一半');
    await picture(b, 'widefix-quote-kept');
    await b.getByRole('textbox', { name: /输入消息/ }).fill('');
    await b.keyboard.press('Escape');
    await hidden(quoteBar);
  });

  it('opens the chat’s info in the right panel beside the chat, and Esc closes it', async () => {
    await b.getByRole('button', { name: '聊天信息' }).click();
    await visible(panel(b).getByRole('heading', { level: 1, name: '聊天信息' }));
    expect(new URL(b.url()).hash).toBe(`#/pages/message/detail?id=${alice.id}`);
    // The chat stays in the middle with its messages, the panel at the right edge.
    await visible(bubble(b, '收到，在电脑上回你'));
    const side = await box(panel(b));
    expect(side.x + side.width).toBe(DESK_SCREEN.width);
    expect(side.width).toBe(320);
    await expectAccessible(b);
    await picture(b, 'wide-03-panel-light');

    await b.keyboard.press('Escape');
    await hidden(panel(b));
    await expect.poll(() => new URL(b.url()).hash).toBe(`#/pages/message/chat?id=${alice.id}`);
    await visible(bubble(b, '收到，在电脑上回你'));
  });

  it('opens a contact of the Contacts list in the middle, the list staying the contacts', async () => {
    // A tab of the rail changes the list only: the chat stays in the middle, its history entry too.
    const entries = await b.evaluate(() => history.length);
    await rail(b)
      .getByRole('button', { name: /通讯录/ })
      .click();
    await visible(b.locator('.desk-list').getByRole('link', { name: /^Alice(, 在线)?$/ }));
    await visible(b.getByRole('heading', { level: 1, name: 'Alice' }));
    expect(new URL(b.url()).hash).toBe(`#/pages/message/chat?id=${alice.id}`);
    expect(await b.evaluate(() => history.length)).toBe(entries);
    await picture(b, 'widefix-rail-beside-chat');
    await b.goBack();
    await expect.poll(() => new URL(b.url()).hash).not.toBe(`#/pages/message/chat?id=${alice.id}`);
    await b.goForward();
    await visible(b.getByRole('heading', { level: 1, name: 'Alice' }));
    await b.getByRole('link', { name: /^Alice(, 在线)?$/ }).click();
    await visible(b.locator('.desk-middle').getByRole('link', { name: '发消息' }));
    expect(new URL(b.url()).hash).toBe(`#/pages/contacts/detail?id=${alice.id}`);
    await expect
      .poll(() => b.getByRole('link', { name: /^Alice(, 在线)?$/ }).getAttribute('aria-current'))
      .toBe('page');
    await expect(
      rail(b)
        .getByRole('button', { name: /通讯录/ })
        .getAttribute('aria-current'),
    ).resolves.toBe('page');
    await picture(b, 'wide-04-contact-light');
  });

  it('opens the same panes again on a reload of the address', async () => {
    await b.reload();
    await visible(b.locator('.desk-middle').getByRole('link', { name: '发消息' }));
    await visible(b.getByRole('link', { name: /^Alice(, 在线)?$/ }));
    await expect(
      rail(b)
        .getByRole('button', { name: /通讯录/ })
        .getAttribute('aria-current'),
    ).resolves.toBe('page');

    // A link to a chat's info: the chat in the middle, its info beside it.
    await b.goto(`${server.url}/#/pages/message/detail?id=${alice.id}`);
    await b.reload();
    await visible(panel(b).getByRole('heading', { level: 1, name: '聊天信息' }));
    await visible(bubble(b, '桌面端你好'));
    await visible(conversation(b, 'Alice'));
    await b.keyboard.press('Escape');
    await hidden(panel(b));
    await expect.poll(() => new URL(b.url()).hash).toBe(`#/pages/message/chat?id=${alice.id}`);
  });

  it('resizes the list by keys and by dragging, within its bounds, and keeps the width', async () => {
    const list = () => box(a.locator('.desk-list'));
    const before = (await list()).width;
    await splitter(a).focus();
    await a.keyboard.press('ArrowRight');
    await a.keyboard.press('ArrowRight');
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('332');
    expect((await list()).width).toBe(before + 32);

    const edge = await splitter(a).boundingBox();
    if (!edge) throw new Error('no splitter');
    await a.mouse.move(edge.x + edge.width / 2, 400);
    await a.mouse.down();
    await a.mouse.move(edge.x + edge.width / 2 + 60, 400, { steps: 4 });
    await a.mouse.move(edge.x + edge.width / 2 + 1000, 400, { steps: 4 });
    await a.mouse.up();
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('480');
    await a.keyboard.press('Home');
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('240');
    await a.keyboard.press('ArrowRight');

    await a.reload();
    await visible(rail(a));
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('256');
    expect((await list()).width).toBe(before - 44);
  });

  it('draws the list narrower in a narrow window, the chat and the panel keeping their room', async () => {
    await a.goto(`${server.url}/#/pages/message/detail?id=${bob.id}`);
    await visible(panel(a).getByRole('heading', { level: 1, name: '聊天信息' }));
    await splitter(a).focus();
    await a.keyboard.press('End');
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('480');
    await a.setViewportSize({ width: 1024, height: DESK_SCREEN.height });
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('240');
    expect(await splitter(a).getAttribute('aria-valuemax')).toBe('240');
    expect((await box(a.locator('.desk-middle'))).width).toBeGreaterThanOrEqual(396);
    expect((await box(panel(a))).width).toBe(320);
    await picture(a, 'widefix-narrow-1024');
    // The kept width comes back with the room; it was kept once the key was let go.
    await a.setViewportSize(DESK_SCREEN);
    await expect.poll(() => splitter(a).getAttribute('aria-valuenow')).toBe('480');
    expect(await a.evaluate(() => localStorage.getItem('deskList'))).toContain('480');
    await a.keyboard.press('Escape');
    await hidden(panel(a));
  });

  it('opens moments, favourites and settings in the middle beside the tab that leads to them', async () => {
    await rail(a).getByRole('button', { name: /发现/ }).click();
    await a.getByRole('link', { name: /朋友圈/ }).click();
    await visible(a.locator('.desk-middle').getByRole('heading', { level: 1, name: '朋友圈' }));
    await expect(rail(a).getByRole('button', { name: /发现/ }).getAttribute('aria-current')).resolves.toBe('page');
    await expectAccessible(a);
    await picture(a, 'wide-09-moments-light');

    await rail(a).getByRole('button', { name: /我/ }).click();
    for (const [entry, heading] of [
      ['收藏', '收藏'],
      ['设置', '设置'],
    ] as const) {
      await a.locator('.desk-list').getByRole('link', { name: entry, exact: true }).click();
      await visible(a.locator('.desk-middle').getByRole('heading', { level: 1, name: heading }));
      await visible(a.locator('.desk-list').getByRole('link', { name: entry, exact: true }));
      await expectAccessible(a);
    }
    await picture(a, 'wide-10-settings-light');
  });

  it('draws the other pages of the tabs in the middle, from a link, under the audit', async () => {
    const pages = [
      '/pages/mine/profile',
      '/pages/index/mycode',
      '/pages/mine/secure',
      '/pages/mine/files',
      '/pages/message/emoji',
      '/pages/mine/about',
      '/pages/compass/publish',
      '/pages/contacts/friend',
      '/pages/contacts/group',
      '/pages/index/search',
      '/pages/index/userSelection',
    ];
    for (const path of pages) {
      await a.goto(`${server.url}/#${path}`);
      await visible(a.locator('.desk-middle h1').first());
      await visible(rail(a));
      await expectAccessible(a);
      await picture(a, `wide-page-${path.split('/').pop() ?? ''}`);
    }
  });

  it('opens a group’s info and a member’s profile in the panel, and Esc closes them together', async () => {
    const group = await server.post<{ id: string }>(
      '/enterprise/group/add',
      { user_ids: [bob.id, carolId], name: '桌面群' },
      alice.token,
    );
    await a.goto(`${server.url}/#/pages/message/chat?id=${group.id}`);
    await visible(a.getByRole('heading', { level: 1, name: /桌面群/ }));
    await sendText(a, '群里说一句');
    await a.getByRole('button', { name: '群聊信息' }).click();
    await visible(panel(a).getByRole('heading', { level: 1 }));
    await panel(a).getByRole('link', { name: /Carol/ }).first().click();
    await visible(panel(a).getByRole('heading', { level: 1, name: '用户信息' }));
    await visible(bubble(a, '群里说一句'));
    await picture(a, 'wide-11-member-panel-light');
    // Back and Forward inside the panel leave Esc closing it to the chat, not somewhere before it.
    await a.goBack();
    await visible(panel(a).getByRole('link', { name: /Carol/ }).first());
    await a.goForward();
    await visible(panel(a).getByRole('heading', { level: 1, name: '用户信息' }));
    await a.keyboard.press('Escape');
    await hidden(panel(a));
    await expect.poll(() => new URL(a.url()).hash).toBe(`#/pages/message/chat?id=${group.id}`);
    await visible(a.getByRole('textbox', { name: /输入消息/ }));
    groupId = group.id;
  });

  it('pairs a panel reached through the history with the chat it was opened beside', async () => {
    // History: the group's chat, Carol's profile beside it, then Bob's chat.
    await a.getByRole('button', { name: '群聊信息' }).click();
    await panel(a).getByRole('link', { name: /Carol/ }).first().click();
    await visible(panel(a).getByRole('heading', { level: 1, name: '用户信息' }));
    await conversation(a, 'Bob').click();
    await visible(a.getByRole('heading', { level: 1, name: 'Bob' }));
    await a.goBack();
    await visible(panel(a).getByRole('heading', { level: 1, name: '用户信息' }));
    await visible(a.locator('.desk-middle').getByRole('heading', { level: 1, name: /桌面群/ }));
    await a.keyboard.press('Escape');
    await hidden(panel(a));
    await expect.poll(() => new URL(a.url()).hash).toBe(`#/pages/message/chat?id=${groupId}`);
  });

  it('keeps the panel open for Escape in a dialog or a field, and moves between chats from beside it', async () => {
    await a.getByRole('button', { name: '群聊信息' }).click();
    await panel(a)
      .getByRole('link', { name: /群聊名称/ })
      .click();
    const name = panel(a).getByRole('textbox', { name: '群聊名称' });
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true);
    // The first Escape leaves the field, the panel stays; the next closes the panel.
    await a.keyboard.press('Escape');
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(false);
    await visible(name);
    await picture(a, 'widefix-panel-field-left');
    await a.keyboard.press('Escape');
    await hidden(panel(a));
    await expect.poll(() => new URL(a.url()).hash).toBe(`#/pages/message/chat?id=${groupId}`);

    // Escape for a dialog over the panel is the dialog's.
    await a.getByRole('button', { name: '群聊信息' }).click();
    await panel(a).getByRole('button', { name: '解散群聊' }).click();
    const dialog = a.getByRole('dialog');
    await visible(dialog);
    await a.keyboard.press('Escape');
    await a.waitForTimeout(300);
    await visible(panel(a));
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: '取消' }).click();
    await hidden(dialog);

    // Alt+↓ from beside the group's chat goes to the chat after it, in place of the panel's entry.
    const entries = await a.evaluate(() => history.length);
    await a.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => new URL(a.url()).hash).toBe(`#/pages/message/chat?id=${bob.id}`);
    await hidden(panel(a));
    expect(await a.evaluate(() => history.length)).toBe(entries);
  });

  it('closes a disbanded group’s info beside its chat, the chat staying, read-only', async () => {
    await b.goto(`${server.url}/#/pages/message/group/info?id=${groupId}`);
    await visible(panel(b).getByRole('heading', { level: 1 }));
    await server.post('/enterprise/group/removeGroup', { id: groupId }, alice.token);
    await visible(b.getByText('该群聊已解散').first());
    await hidden(panel(b));
    await expect.poll(() => new URL(b.url()).hash).toBe(`#/pages/message/chat?id=${groupId}`);
    await visible(b.locator('.desk-middle').getByRole('heading', { level: 1, name: /桌面群/ }));
    await picture(b, 'widefix-disbanded');
  });

  it('passes the audit in the dark theme, with the panel open', async () => {
    await b.emulateMedia({ colorScheme: 'dark' });
    await b.goto(`${server.url}/#/pages/message/detail?id=${alice.id}`);
    await visible(panel(b).getByRole('heading', { level: 1, name: '聊天信息' }));
    await expect.poll(() => b.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await visible(bubble(b, '桌面端你好'));
    await expectAccessible(b);
    await picture(b, 'wide-05-panel-dark');
    await b.keyboard.press('Escape');
    await hidden(panel(b));
    await b.goto(`${server.url}/#/pages/contacts/index`);
    await visible(b.getByText('未选择联系人'));
    await expectAccessible(b);
    await picture(b, 'wide-06-contacts-dark');
    await b.emulateMedia({ colorScheme: 'light' });
  });
});

describe('below 1024 px', () => {
  it('keeps the phone layout at 375 px: one page, the tab bar along the bottom', async () => {
    const context = await newContext(browser, {
      viewport: { width: PHONE_WIDTH, height: 812 },
      deviceScaleFactor: 1,
      locale: 'zh-CN',
      hasTouch: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    pages.push(page);
    await signIn(server, page, 'alice_wide');
    const nav = await box(rail(page));
    expect(nav.bottom).toBe(812);
    expect(nav.width).toBe(PHONE_WIDTH);
    await expect.poll(() => page.locator('.desk').count()).toBe(0);
    await expect.poll(() => page.getByRole('separator').count()).toBe(0);
    await picture(page, 'wide-07-phone-home');
    await conversation(page, 'Bob').click();
    await visible(page.getByRole('heading', { level: 1, name: 'Bob' }));
    await visible(bubble(page, '收到，在电脑上回你'));
    await hidden(rail(page));
    await picture(page, 'wide-08-phone-chat');
  });
});
