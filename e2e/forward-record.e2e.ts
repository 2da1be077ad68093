import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hidden, noToasts, type Person, type ServerProcess, settled, shot, visible, WAIT } from './harness';
import { png } from './media-files';
import {
  type Account,
  bubble,
  checkPage as check,
  openBrowser,
  openMessageMenu,
  phoneSuite,
  registerFriends,
  say as sayAs,
  sendPicture as sendPictureAs,
} from './people';

/**
 * Issue 38, multi-select (多选) and merged forward (合并转发), in two browsers at 375 px: Alice (in
 * Chinese) selects three messages of her chat with Carol, a picture among them, and forwards them
 * as one record to Bob with a note; Bob (in English) sees the card and the note, opens the record
 * and sees the picture. Then 逐条转发 and 删除 (for me) from the same selection bar.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: { id: number; token: string; name: string };

const FIRST = '周六上午十点出发';
const SECOND = '记得带伞';
const NOTE = '这是我们的安排';

const say = (from: { token: string }, to: number, content: string) => sayAs(server, from, to, content);
const sendPicture = (from: { token: string }, to: number) =>
  sendPictureAs(server, from, to, 'lake.png', png(320, 200, [40, 120, 200]));

/** The check box of the chat row holding `target`. */
function checkOf(page: Page, target: Locator): Locator {
  return page.locator('.chat-item-selecting').filter({ has: target }).getByRole('checkbox');
}

/** Long-presses a bubble and picks 多选. */
async function startSelecting(page: Page, target: Locator): Promise<void> {
  // A toast's mask (已转发) would take the press.
  await noToasts(page);
  const menu = await openMessageMenu(page, target);
  await menu.getByRole('menuitem', { name: '多选', exact: true }).click();
  await visible(page.getByRole('toolbar', { name: '多选操作' }));
}

/** Picks Bob in the chat picker and sends, with a note when given. */
async function forwardToBob(page: Page, note?: string): Promise<void> {
  await visible(page.getByRole('heading', { level: 1, name: '转发给' }));
  await page.locator('.select-row').filter({ hasText: 'Bob' }).click();
  await page.getByRole('button', { name: /^发送\(1\)$/ }).click();
  const sheet = page.getByRole('dialog', { name: '发送给' });
  await visible(sheet);
  if (note) await sheet.getByRole('textbox', { name: '给朋友留言' }).fill(note);
  await settled(page);
  await shot(page, `forward-record-confirm-${note ? 'merge' : 'each'}-zh`);
  await sheet.getByRole('button', { name: '发送', exact: true }).click();
  await hidden(sheet);
}

phoneSuite(
  'forward-record',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob],
);

beforeAll(async () => {
  let a: Account, b: Account;
  [a, b, carol] = await registerFriends(server, [
    ['alice_fwd', 'Alice'],
    ['bob_fwd', 'Bob'],
    ['carol_fwd', 'Carol'],
  ]);
  await say(carol, a.id, FIRST);
  await sendPicture(carol, a.id);
  await say(a, carol.id, SECOND);
  alice = await openBrowser(server, browser, a);
  bob = await openBrowser(server, browser, b, 'en');
});

describe('multi-select and merged forward', () => {
  it('selects three messages, a picture among them, and forwards them as one record with a note', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${carol.id}`);
    await visible(bubble(a, SECOND));
    await startSelecting(a, bubble(a, FIRST));
    await visible(a.getByRole('heading', { level: 1, name: '已选择 1 条' }));
    // The picture: a tap on its row chooses it rather than opening it.
    await a.getByRole('button', { name: '查看图片' }).last().click({ force: true });
    await checkOf(a, bubble(a, SECOND)).click();
    await visible(a.getByRole('heading', { level: 1, name: '已选择 3 条' }));
    await expect.poll(() => a.getByRole('checkbox', { checked: true }).count(), WAIT).toBe(3);
    // No composer while selecting, and nothing opened behind the selection.
    await hidden(a.getByRole('textbox', { name: '输入消息' }));
    await check(a, 'forward-record-01-selecting-zh');

    await a.getByRole('toolbar', { name: '多选操作' }).getByRole('button', { name: '合并转发' }).click();
    await forwardToBob(a, NOTE);
    await visible(bubble(a, SECOND));
    await hidden(a.getByRole('toolbar', { name: '多选操作' }));
  });

  it('Bob (in English) sees the card and the note, opens the record and sees the picture', async () => {
    const b = bob.page;
    const conv = b.getByRole('link', { name: /^Alice,/ });
    await visible(conv);
    await conv.click();
    const card = b.getByRole('link', { name: 'Open Chat history of Alice and Carol' });
    await visible(card);
    await visible(bubble(b, NOTE));
    await expect(card.textContent()).resolves.toContain(`Carol: ${FIRST}`);
    await check(b, 'forward-record-02-card-en');

    await card.click();
    await visible(b.getByRole('heading', { level: 1, name: 'Chat history of Alice and Carol' }));
    const items = b.getByRole('list', { name: 'Messages of the chat history' }).getByRole('listitem');
    await expect.poll(() => items.count(), WAIT).toBe(3);
    await visible(items.nth(0).getByText(FIRST));
    await visible(items.nth(2).getByText(SECOND));
    const picture = items.nth(1).getByRole('button', { name: 'View picture' });
    await visible(picture);
    await expect
      .poll(() => picture.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT)
      .toBeGreaterThan(0);
    await check(b, 'forward-record-03-record-en');
    await picture.click();
    const viewer = b.getByRole('dialog');
    await visible(viewer);
    await b.keyboard.press('Escape');
    await hidden(viewer);
    await b.goBack();
    await visible(card);
  });

  it('Bob forwards the record inside a record of his own; Alice opens the one through the other', async () => {
    const b = bob.page;
    const card = b.getByRole('link', { name: 'Open Chat history of Alice and Carol' });
    await noToasts(b);
    const menu = await openMessageMenu(b, card);
    await menu.getByRole('menuitem', { name: 'Select', exact: true }).click();
    await checkOf(b, bubble(b, NOTE)).click();
    await visible(b.getByRole('heading', { level: 1, name: '2 selected' }));
    await b
      .getByRole('toolbar', { name: 'Actions on the selected messages' })
      .getByRole('button', { name: 'Forward as one' })
      .click();
    await visible(b.getByRole('heading', { level: 1, name: 'Forward to' }));
    await b.locator('.select-row').filter({ hasText: 'Alice' }).click();
    await b.getByRole('button', { name: /^Send\(1\)$/ }).click();
    const sheet = b.getByRole('dialog', { name: 'Send to' });
    await visible(sheet);
    await sheet.getByRole('button', { name: 'Send', exact: true }).click();
    await hidden(sheet);

    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    const outer = a.getByRole('link', { name: '打开Bob和Alice的聊天记录' });
    await visible(outer);
    await outer.click();
    await visible(a.getByRole('heading', { level: 1, name: 'Bob和Alice的聊天记录' }));
    const inner = a.getByRole('link', { name: '打开Alice和Carol的聊天记录' });
    await visible(inner);
    await visible(a.getByText(NOTE, { exact: true }));
    await check(a, 'forward-record-05-nested-outer-zh');
    await inner.click();
    await visible(a.getByRole('heading', { level: 1, name: 'Alice和Carol的聊天记录' }));
    await visible(a.getByText(FIRST, { exact: true }));
    await expect(a.url()).toMatch(/record_id=\d+/);
    await check(a, 'forward-record-06-nested-inner-zh');
    await a.goto(`${server.url}/#/pages/message/chat?id=${carol.id}`);
    await visible(bubble(a, SECOND));
  });

  it('forwards one by one (逐条转发), and deletes for me (删除)', async () => {
    const a = alice.page;
    await startSelecting(a, bubble(a, FIRST));
    await checkOf(a, bubble(a, SECOND)).click();
    await visible(a.getByRole('heading', { level: 1, name: '已选择 2 条' }));
    await a.getByRole('toolbar', { name: '多选操作' }).getByRole('button', { name: '逐条转发' }).click();
    await forwardToBob(a);
    await visible(bubble(a, SECOND));

    const b = bob.page;
    await visible(bubble(b, FIRST));
    await visible(bubble(b, SECOND));

    await startSelecting(a, bubble(a, FIRST));
    await a.getByRole('toolbar', { name: '多选操作' }).getByRole('button', { name: '删除' }).click();
    const confirm = a.getByRole('dialog');
    await visible(confirm);
    await confirm.getByRole('button', { name: '删除' }).click();
    await hidden(bubble(a, FIRST));
    await hidden(a.getByRole('toolbar', { name: '多选操作' }));
    await visible(bubble(a, SECOND));
    await check(a, 'forward-record-04-after-delete-zh');
  });
});
