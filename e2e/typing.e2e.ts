import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, fitsScreen, type Person, type ServerProcess, settled, shot, visible, WAIT } from './harness';
import { bubble, groupOfThree, phoneSuite } from './people';

/**
 * 对方正在输入…, browser: three people at 375 px. A types to B and the line under B's title says so
 * (a polite live status; the title keeps A's name) until A sends; in a small group C sees
 * "张三 正在输入…"; once B turns the setting off, B's socket gets no typing frame of A's.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;
let groupId: string;

phoneSuite(
  'typing',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carol],
);

async function openChat(page: Page, id: string | number, title: string | RegExp): Promise<void> {
  await page.goto(`${server.url}/#/pages/message/chat?id=${id}`);
  await visible(page.locator('.chat-page').getByRole('heading', { level: 1, name: title }));
}

/** Types into the open chat's box key by key, as a person does. */
async function typeSlowly(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: /输入消息|Message/ });
  await box.click();
  await box.pressSequentially(text, { delay: 120 });
}

async function sendTyped(page: Page, text: string): Promise<void> {
  await page
    .locator('.composer')
    .getByRole('button', { name: /^(发送|Send)$/ })
    .click();
  await visible(bubble(page, text));
}

/** The open chat's title (at a desk the chat list beside it has its own). */
const heading = (page: Page) => page.locator('.chat-page').getByRole('heading', { level: 1 });
/** The line under the chat's title that says who is typing. */
const typingLine = (page: Page) => page.locator('.chat-page .navbar').getByRole('status');

beforeAll(async () => {
  ({
    people: [alice, bob, carol],
    groupId,
  } = await groupOfThree(
    server,
    browser,
    [
      ['alice_typ', '张三'],
      ['bob_typ', '李四'],
      ['carol_typ', '王五'],
    ],
    '三人组',
  ));
});

describe('typing indicator', () => {
  it("A types to B: the line under B's title says 对方正在输入…, the name stays, and it goes once A sends", async () => {
    await openChat(bob.page, alice.id, '张三');
    await openChat(alice.page, bob.id, '李四');
    await typeSlowly(alice.page, '晚上一起吃饭吗');
    await expect.poll(() => typingLine(bob.page).textContent(), WAIT).toBe('对方正在输入…');
    expect(await typingLine(bob.page).getAttribute('aria-live')).toBe('polite');
    // The title keeps the name.
    expect(await heading(bob.page).textContent()).toBe('张三');
    await settled(bob.page);
    await fitsScreen(bob.page);
    await shot(bob.page, 'typing-private-zh');
    // A's own chat says nothing of A's typing.
    expect(await heading(alice.page).textContent()).toBe('李四');
    expect(await typingLine(alice.page).textContent()).not.toContain('正在输入');
    await sendTyped(alice.page, '晚上一起吃饭吗');
    await visible(bubble(bob.page, '晚上一起吃饭吗'));
    await expect.poll(() => typingLine(bob.page).textContent(), WAIT).not.toContain('正在输入');
    expect(await heading(bob.page).textContent()).toBe('张三');
    await shot(bob.page, 'typing-private-sent-zh');
  });

  it('in a small group, C sees "张三 正在输入…" while A types', async () => {
    await openChat(carol.page, groupId, /三人组/);
    await openChat(alice.page, groupId, /三人组/);
    await typeSlowly(alice.page, '明天几点开会');
    await expect.poll(() => typingLine(carol.page).textContent(), WAIT).toBe('张三 正在输入…');
    expect(await heading(carol.page).textContent()).toMatch(/^三人组/);
    await settled(carol.page);
    await fitsScreen(carol.page);
    await shot(carol.page, 'typing-group-zh');
    await sendTyped(alice.page, '明天几点开会');
    await visible(bubble(carol.page, '明天几点开会'));
    await expect.poll(() => typingLine(carol.page).textContent(), WAIT).toBe('');
    expect(await heading(carol.page).textContent()).toMatch(/^三人组/);
  });

  it('B turns 发送"正在输入"状态 off, and then sees nothing of A typing', async () => {
    const b = bob.page;
    await b.goto(`${server.url}/#/pages/mine/setting`);
    const toggle = b.getByRole('switch', { name: '发送“正在输入”状态' });
    await visible(toggle);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked'), WAIT).toBe('false');
    await toggle.scrollIntoViewIfNeeded();
    await settled(b);
    await expectAccessible(b);
    await shot(b, 'typing-setting-zh');

    // Every frame B's socket gets from here on (a fresh socket: the page loads again), to tell
    // whether a typing frame ever came before A's message did.
    const frames: string[] = [];
    b.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => frames.push(String(payload))));
    await b.reload();
    await openChat(b, alice.id, '张三');
    await openChat(alice.page, bob.id, '李四');
    await typeSlowly(alice.page, '收到请回复');
    await sendTyped(alice.page, '收到请回复');
    await visible(bubble(b, '收到请回复'));
    const types = frames.map((f) => {
      try {
        return (JSON.parse(f) as { type?: string }).type;
      } catch {
        return undefined;
      }
    });
    // A's message came over this socket (a private chat's push), and no typing frame did.
    expect(types).toContain('simple');
    expect(types.filter((t) => t === 'typing')).toEqual([]);
    expect(await typingLine(b).textContent()).not.toContain('正在输入');
    expect(await heading(b).textContent()).toBe('张三');
    await shot(b, 'typing-off-zh');
  });
});
