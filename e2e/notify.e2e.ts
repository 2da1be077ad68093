import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  launchBrowser,
  noToasts,
  phoneContext,
  type Person,
  ServerProcess,
  SHOTS_DIR,
  shot,
  signIn,
  toast,
  visible,
  WAIT,
} from './harness';

/**
 * Issue 40 point 3, browser: while the app's tab is open but hidden, a new message shows a
 * notification (one per chat, not for a muted chat nor my own message from another device, its
 * words per the preview setting), the unread count shows in the title and on the icon, and a click
 * on the notification opens the chat.
 *
 * Headless Chromium shows every page as visible, so Alice's tab state is set by an init script: it
 * answers `document.visibilityState`, `document.hidden` and `document.hasFocus()` as a hidden tab
 * does and fires `visibilitychange`. Another init script records each Notification the page makes,
 * still making the real one.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: { id: number; token: string; name: string };
let carol: { id: number; token: string; name: string };

interface Recorded {
  title: string;
  body: string;
  tag: string;
}

/** The notifications the page made, in order. */
const notes = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notes: Array<{ record: Recorded }> }).__notes.map((n) => n.record));

const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((h) => (window as unknown as { __setHidden: (h: boolean) => void }).__setHidden(h), hidden);

const send = (from: { token: string }, to: number, content: string) =>
  server.post(
    '/enterprise/im/sendMessage',
    { id: crypto.randomUUID(), toContactId: to, type: 'text', content },
    from.token,
  );

const iconHref = (page: Page) => page.locator('link[rel="icon"]').getAttribute('href');

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  const a = await server.register('alice_notify', 'Alice');
  bob = await server.register('bob_notify', 'Bob');
  carol = await server.register('carol_notify', 'Carol');
  await befriend(server, a, bob);
  await befriend(server, a, carol);
  // Befriending leaves a line in each chat: read, so that the counts start at 0.
  for (const friend of [bob, carol])
    await server.post('/enterprise/im/setMsgIsRead', { toContactId: friend.id, is_group: 0 }, a.token);
  const context = await phoneContext(browser);
  await context.grantPermissions(['notifications'], { origin: server.url });
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    let hidden = false;
    Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { get: () => hidden });
    document.hasFocus = () => !hidden;
    w.__setHidden = (h: boolean) => {
      hidden = h;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const made: Array<{ record: Recorded; note: Notification }> = [];
    w.__notes = made;
    class RecordedNotification extends Notification {
      constructor(title: string, options: NotificationOptions = {}) {
        super(title, options);
        made.push({ record: { title, body: options.body ?? '', tag: options.tag ?? '' }, note: this });
      }
    }
    w.Notification = RecordedNotification;
  });
  const page = await context.newPage();
  await signIn(server, page, 'alice_notify');
  alice = { ...a, account: 'alice_notify', context, page };
});

afterAll(async () => {
  await alice?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('notifications while the tab is hidden', () => {
  it('turns 桌面通知 on in the settings, accessible at 375 px', async () => {
    const { page } = alice;
    await page.goto(`${server.url}/#/pages/mine/setting`);
    const desktop = page.getByRole('switch', { name: '桌面通知' });
    await visible(desktop);
    await expect(desktop.getAttribute('aria-checked')).resolves.toBe('false');
    await desktop.click();
    await expect.poll(() => desktop.getAttribute('aria-checked'), WAIT).toBe('true');
    // The preview choice the pushes follow now applies to these too.
    await visible(page.getByRole('switch', { name: '通知显示消息详情' }));
    await expectAccessible(page);
    await shot(page, 'notify-settings');
    await page.getByRole('button', { name: '返回' }).click();
    await visible(page.getByRole('navigation', { name: '主导航' }));
  });

  it('notifies of a friend’s message once, not of a muted chat nor of my own from another device', async () => {
    const { page } = alice;
    await expect(page.title()).resolves.toBe('首页');
    await server.post('/enterprise/im/isNotice', { id: carol.id, is_group: 0, is_notice: 0 }, alice.token);
    await setHidden(page, true);
    await send(alice, bob.id, '我从手机发的');
    await send(carol, alice.id, '免打扰的消息');
    await send(bob, alice.id, '到山脚了');
    await expect.poll(() => notes(page), WAIT).toEqual([{ title: 'Bob', body: '到山脚了', tag: `chat-${bob.id}` }]);

    // Only Bob's message counts: Carol's chat is muted, as the Messages tab counts.
    await expect.poll(() => page.title(), WAIT).toBe('(1) 首页');
    await expect.poll(() => iconHref(page), WAIT).toMatch(/^data:image\/png;base64,/);
    const icon = (await iconHref(page))!;
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(SHOTS_DIR, 'notify-favicon.png'), Buffer.from(icon.split(',')[1]!, 'base64'));
    // The badge's red fills the icon's top right corner.
    const corner = await page.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return Array.from(ctx.getImageData(img.width - 4, Math.round(img.height * 0.3), 1, 1).data);
    }, icon);
    expect(corner[0]).toBeGreaterThan(200);
    expect(corner[1]).toBeLessThan(80);
  });

  it('opens the chat from a click on the notification; read, the title and icon are plain again', async () => {
    const { page } = alice;
    await setHidden(page, false);
    await page.evaluate(() => {
      const [first] = (window as unknown as { __notes: Array<{ note: Notification }> }).__notes;
      first!.note.onclick?.(new Event('click'));
    });
    await page.waitForURL((url) => url.hash === `#/pages/message/chat?id=${bob.id}`, WAIT);
    await visible(page.getByText('到山脚了'));
    await expect.poll(() => page.title(), WAIT).toBe('聊天');
    await expect.poll(() => iconHref(page), WAIT).toMatch(/favicon\.svg$/);
  });

  it('says only that a message came when the preview is turned off', async () => {
    const { page } = alice;
    await page.goto(`${server.url}/#/pages/mine/setting`);
    const preview = page.getByRole('switch', { name: '通知显示消息详情' });
    await visible(preview);
    await expect.poll(() => preview.getAttribute('aria-checked'), WAIT).toBe('true');
    await preview.click();
    await expect.poll(() => preview.getAttribute('aria-checked'), WAIT).toBe('false');
    await setHidden(page, true);
    await send(bob, alice.id, '带上水');
    await expect
      .poll(async () => (await notes(page)).at(-1), WAIT)
      .toEqual({ title: 'Sparrow', body: '你收到一条新消息', tag: `chat-${bob.id}` });
    expect(await notes(page)).toHaveLength(2);
    await setHidden(page, false);
  });

  it('with two tabs open, none notifies while one is looked at, and only one when both are hidden', async () => {
    const first = alice.page;
    const second = await alice.context.newPage();
    try {
      await second.goto(server.url);
      await visible(second.getByRole('navigation', { name: '主导航' }));
      await setHidden(second, true);
      const all = async () => [...(await notes(first)), ...(await notes(second))];
      const before = (await all()).length;
      const title = await second.title();
      await send(bob, alice.id, '你在看另一个标签页');
      // The hidden tab has the message (its title counts it) yet shows nothing: the first tab is looked at.
      await expect.poll(() => second.title(), WAIT).not.toBe(title);

      await setHidden(first, true);
      await send(bob, alice.id, '两个标签页都藏起来了');
      await expect.poll(async () => (await all()).length, WAIT).toBeGreaterThan(before);
      await first.waitForTimeout(1000);
      expect((await all()).slice(before)).toEqual([
        { title: 'Sparrow', body: '你收到一条新消息', tag: `chat-${bob.id}` },
      ]);
    } finally {
      await second.close();
      await setHidden(first, false);
    }
  });

  it('explains under the switch when the browser refuses notifications', async () => {
    // No permission granted: headless Chromium answers the request with a refusal, as a user's "Block" does.
    await server.register('dave_notify', 'Dave');
    const context = await phoneContext(browser);
    try {
      const page = await context.newPage();
      await signIn(server, page, 'dave_notify');
      await page.goto(`${server.url}/#/pages/mine/setting`);
      const desktop = page.getByRole('switch', { name: '桌面通知' });
      await desktop.click();
      await visible(toast(page, '浏览器已禁止通知'));
      await expect(desktop.getAttribute('aria-checked')).resolves.toBe('false');
      await expect(desktop.getAttribute('aria-describedby')).resolves.toBeTruthy();
      await visible(page.locator('.cell-note', { hasText: '浏览器已禁止通知' }));
      await noToasts(page);
      await expectAccessible(page);
      await shot(page, 'notify-settings-denied');
    } finally {
      await context.close();
    }
  });
});
