import fs from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  launchBrowser,
  newContext,
  PHONE_WIDTH,
  type Person,
  ServerProcess,
  settled,
  socketBound,
  visible,
  hidden,
  WAIT,
} from './harness';
import { pdf } from './media-files';
import { bubble } from './people';

/**
 * Issue 40 point 2, input at a desk (1280×800): a picture pasted into the composer and two files
 * dropped onto the chat, each confirmed in a sheet and seen by the peer; Ctrl+Enter to send as a
 * setting; ↑ to edit, Esc to close; Ctrl+K to jump to a chat, Alt+↑/↓ between chats, "?" for the
 * list of keys; the sheets and the switcher pass the audit (the confirm sheet at 375 px too).
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: { id: number; token: string; name: string };

const SHOTS = '/tmp/shots';

async function snap(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function openChat(p: Person, withId: number): Promise<void> {
  await p.page.goto(`${server.url}/#/pages/message/chat?id=${withId}`);
  await visible(p.page.getByRole('textbox', { name: '输入消息' }));
}

/** Pastes a picture drawn in the page into the composer, as the clipboard of a screenshot would hold it. */
async function pastePicture(page: Page, colour: string): Promise<void> {
  await page.getByRole('textbox', { name: '输入消息' }).evaluate(async (box, fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 100;
    const g = canvas.getContext('2d')!;
    g.fillStyle = fill;
    g.fillRect(0, 0, 160, 100);
    const blob = await new Promise<Blob>((done) => canvas.toBlob((b) => done(b!), 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'image.png', { type: 'image/png' }));
    (box as HTMLTextAreaElement).focus();
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, colour);
}

const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

const pictures = (page: Page) => page.getByRole('button', { name: '查看图片' });

/**
 * A browser signed in by token as a returning user, in Chinese (the login page is not what is tested
 * here): home shown, socket bound.
 */
async function openAs(
  who: { id: number; token: string; name: string },
  account: string,
  viewport: { width: number; height: number },
): Promise<Person> {
  const context = await newContext(browser, { viewport, deviceScaleFactor: 1, locale: 'zh-CN' });
  await context.addInitScript(
    ([token, id, name]) => {
      if (localStorage.getItem('authToken')) return;
      localStorage.setItem('authToken', token);
      localStorage.setItem('userInfo', JSON.stringify({ user_id: id, id, account: name, realname: name }));
      localStorage.setItem('language', 'zh-Hans');
    },
    [who.token, who.id, account] as const,
  );
  const page = await context.newPage();
  const bound = socketBound(page);
  await page.goto(`${server.url}/#/pages/index/index`);
  await visible(page.getByRole('navigation', { name: '主导航' }));
  await bound;
  return { ...who, account, context, page };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  carol = await server.register('dcarol', '陈静');
  const a = await server.register('dalice', '王小明');
  const b = await server.register('dbobby', '李华');
  await befriend(server, a, b);
  await befriend(server, a, carol);
  await server.post(
    '/enterprise/im/sendMessage',
    { id: 'desk-seed-0001', toContactId: a.id, type: 'text', content: '下午见' },
    carol.token,
  );
  [alice, bob] = await Promise.all([
    openAs(a, 'dalice', { width: 1280, height: 800 }),
    openAs(b, 'dbobby', { width: PHONE_WIDTH, height: 812 }),
  ]);
  await Promise.all([openChat(alice, bob.id), openChat(bob, alice.id)]);
}, 240_000);

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail')
    await snap(alice.page, `desk-failed-${task.name.slice(0, 20).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  for (const p of [alice, bob]) await p?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('input at a desk', () => {
  it('a pasted picture: previewed, sent, seen by the peer; at 375 px too, where Esc closes the sheet', async () => {
    const a = alice.page;
    const before = await pictures(bob.page).count();
    await pastePicture(a, '#3a7bd5');
    const sheet = a.getByRole('dialog', { name: '发送给 李华' });
    await visible(sheet);
    await visible(sheet.getByRole('img', { name: /^paste-\d{8}-\d{6}\.png$/ }));
    await snap(a, 'desk-01-paste-sheet-1280');
    await expectAccessible(a);
    // Tab stays inside the sheet.
    for (let i = 0; i < 4; i++) await a.keyboard.press('Tab');
    expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await sheet.getByRole('button', { name: '发送', exact: true }).click();
    await hidden(sheet);
    await expect.poll(() => pictures(bob.page).count(), WAIT).toBe(before + 1);
    await expect.poll(() => pictures(a).count(), WAIT).toBeGreaterThan(0);

    await a.setViewportSize({ width: 375, height: 812 });
    await pastePicture(a, '#e0a030');
    await visible(sheet);
    await snap(a, 'desk-02-paste-sheet-375');
    await expectAccessible(a);
    await a.keyboard.press('Escape');
    await hidden(sheet);
    expect(await focused(a.getByRole('textbox', { name: '输入消息' }))).toBe(true);
    await a.setViewportSize({ width: 1280, height: 800 });
    expect(await pictures(bob.page).count()).toBe(before + 1);
  });

  it('two files dropped onto the chat: the drop zone, one sheet listing both, both sent in order', async () => {
    const a = alice.page;
    const bytes = [...pdf(2000)];
    await a.locator('.chat-main').evaluate((main, pdfBytes) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(pdfBytes)], '会议纪要.pdf', { type: 'application/pdf' }));
      data.items.add(new File(['预算：三万'], '预算.txt', { type: 'text/plain' }));
      main.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
      main.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      (window as unknown as { __drop: DataTransfer }).__drop = data;
    }, bytes);
    await visible(a.getByText('松开发送', { exact: true }));
    await snap(a, 'desk-03-drop-zone');
    await a.locator('.chat-main').evaluate((main) => {
      const data = (window as unknown as { __drop: DataTransfer }).__drop;
      main.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await hidden(a.getByText('松开发送', { exact: true }));
    const sheet = a.getByRole('dialog', { name: '发送给 李华' });
    await visible(sheet);
    const items = sheet.getByRole('listitem');
    await expect
      .poll(() => items.allInnerTexts(), WAIT)
      .toEqual([expect.stringContaining('会议纪要.pdf'), expect.stringContaining('预算.txt')]);
    await snap(a, 'desk-04-drop-sheet');
    await expectAccessible(a);
    await sheet.getByRole('button', { name: '发送（2）' }).click();
    const pdfLink = bob.page.getByRole('link', { name: /^下载 会议纪要\.pdf，/ });
    const txtLink = bob.page.getByRole('link', { name: /^下载 预算\.txt，/ });
    await visible(pdfLink);
    await visible(txtLink);
    const order = await bob.page
      .getByRole('link', { name: /^下载 (会议纪要\.pdf|预算\.txt)，/ })
      .evaluateAll((links) => links.map((l) => l.getAttribute('aria-label') ?? l.textContent));
    expect(order.findIndex((s) => s?.includes('会议纪要'))).toBeLessThan(order.findIndex((s) => s?.includes('预算')));
  });

  it('Ctrl+Enter sends when so chosen, Enter breaks the line; ↑ edits the last text; Esc closes', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/mine/setting`);
    await a.getByRole('link', { name: /发送消息/ }).click();
    await a.getByRole('radio', { name: '按 Ctrl+Enter 发送，Enter 换行' }).click();
    await visible(a.getByRole('link', { name: /按 Ctrl\+Enter 发送，Enter 换行/ }));
    await snap(a, 'desk-05-send-key-setting');
    await openChat(alice, bob.id);
    const box = a.getByRole('textbox', { name: '输入消息' });
    await box.click();
    await a.keyboard.type('第一行');
    await a.keyboard.press('Enter');
    await a.keyboard.type('第二行');
    await expect.poll(() => box.inputValue(), WAIT).toBe('第一行\n第二行');
    await a.keyboard.press('Control+Enter');
    await expect.poll(() => box.inputValue(), WAIT).toBe('');
    await visible(bob.page.locator('.bubble').filter({ hasText: '第一行' }).filter({ hasText: '第二行' }));
    // ↑ edits a message the server has answered for: Bob may see it before Alice's send is acknowledged.
    await hidden(a.getByRole('status', { name: '发送中' }));

    await a.keyboard.press('ArrowUp');
    await visible(a.getByText('编辑消息：'));
    await expect.poll(() => box.inputValue(), WAIT).toBe('第一行\n第二行');
    await snap(a, 'desk-06-edit-last');
    await a.keyboard.press('Escape');
    await hidden(a.getByText('编辑消息：'));

    await a.getByRole('button', { name: '表情', exact: true }).click();
    const emoji = a.locator('.emoji-panel');
    await visible(emoji);
    await a.keyboard.press('Escape');
    await hidden(emoji);
    // The chat's own "+", not the conversation list's beside it in the wide layout.
    await a.getByRole('main').getByRole('button', { name: '更多功能', exact: true }).click();
    const more = a.getByRole('group', { name: '更多功能', exact: true });
    await visible(more);
    await a.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await a.keyboard.press('Escape');
    await hidden(more);
  });

  it('Ctrl+K finds a chat by name and opens it; Alt+↑/↓ walk the conversation list', async () => {
    const a = alice.page;
    await a.getByRole('textbox', { name: '输入消息' }).focus();
    await a.keyboard.press('Control+k');
    const switcher = a.getByRole('dialog', { name: '快速切换' });
    await visible(switcher);
    const field = switcher.getByRole('combobox', { name: '搜索聊天和联系人' });
    await expect.poll(() => focused(field), WAIT).toBe(true);
    await a.keyboard.type('陈');
    await visible(switcher.getByRole('option', { name: '陈静', selected: true }));
    await snap(a, 'desk-07-switcher');
    await expectAccessible(a);
    await a.keyboard.press('Enter');
    await hidden(switcher);
    await expect.poll(() => a.url()).toContain(`chat?id=${carol.id}`);
    await visible(bubble(a, '下午见'));
    // The chat opened from the keyboard takes the keys to its input box.
    await expect.poll(() => focused(a.getByRole('textbox', { name: '输入消息' })), WAIT).toBe(true);

    // The list: 李华 (the newest messages) above 陈静.
    await a.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => a.url()).toContain(`chat?id=${bob.id}`);
    await visible(a.getByRole('link', { name: /^下载 会议纪要\.pdf，/ }));
    await a.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => a.url()).toContain(`chat?id=${carol.id}`);
  });

  it('"?" outside a field lists the shortcuts (in a field it is typed); Esc closes the sheet', async () => {
    const a = alice.page;
    const box = a.getByRole('textbox', { name: '输入消息' });
    await box.focus();
    await a.keyboard.press('Shift+Slash');
    await expect.poll(() => box.inputValue(), WAIT).toBe('?');
    await box.fill('');
    await box.evaluate((el) => (el as HTMLElement).blur());
    await a.keyboard.press('Shift+Slash');
    const sheet = a.getByRole('dialog', { name: '键盘快捷键' });
    await visible(sheet);
    await visible(sheet.getByRole('cell', { name: '快速切换聊天和联系人' }));
    // The send key as chosen in settings.
    await visible(sheet.getByRole('row', { name: /Ctrl \+ Enter\s*发送消息/ }));
    await snap(a, 'desk-08-shortcuts');
    await expectAccessible(a);
    await a.keyboard.press('Escape');
    await hidden(sheet);
  });
});
