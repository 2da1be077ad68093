/// <reference lib="webworker" />
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newPerson,
  type Person,
  ServerProcess,
  shot,
  toast,
  visible,
  WAIT,
  befriend,
} from './harness';

/**
 * Issue 23, browser: the installed app's service worker serves the shell offline, so a reload
 * without a network shows the app with its stored conversations and the offline banner; a Web Push
 * shown by the service worker opens its chat when clicked; the settings offer the push switches.
 *
 * Headless Chromium has no push service to subscribe at, so the push is delivered to the real
 * service worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`), carrying what
 * the server sends (webpush.test.ts decrypts the server's own pushes). The notification it shows is
 * then clicked by dispatching `notificationclick` with that notification inside the service worker.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: { id: number; token: string; name: string };

/** The page's service worker once it controls the page. */
async function controllingWorker(context: BrowserContext, page: Page): Promise<Worker> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, WAIT);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', WAIT));
  return worker;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await newPerson(server, browser, 'alice_pwa', 'Alice');
  bob = await server.register('bob_pwa', 'Bob');
  await befriend(server, alice, bob);
  await server.post(
    '/enterprise/im/sendMessage',
    { id: 'pwa-hello-0001', toContactId: alice.id, type: 'text', content: '周末去爬山吗' },
    bob.token,
  );
});

afterAll(async () => {
  await alice?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('installable app', () => {
  it('links a web manifest with the app’s name and icons', async () => {
    const res = await fetch(`${server.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as { name: string; icons: Array<{ src: string; sizes: string }> };
    expect(manifest.name).toBe('Sparrow');
    for (const icon of manifest.icons) {
      const png = await fetch(`${server.url}/${icon.src}`);
      expect(png.headers.get('content-type')).toBe('image/png');
    }
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    const { page } = alice;
    await expect(page.locator('link[rel="manifest"]').getAttribute('href')).resolves.toBe('./manifest.webmanifest');
  });

  it('shows the app, its conversations and the offline banner on a reload without a network', async () => {
    const { page, context } = alice;
    await visible(page.getByText('周末去爬山吗'));
    await controllingWorker(context, page);
    await context.setOffline(true);
    try {
      await page.reload();
      await visible(page.getByRole('navigation', { name: '主导航' }));
      await visible(page.getByText('周末去爬山吗'));
      await visible(page.getByRole('status').filter({ hasText: /正在连接|连接已断开/ }));
      await shot(page, 'pwa-offline-reload');
    } finally {
      await context.setOffline(false);
    }
  });

  it('opens the chat of a clicked push notification', async () => {
    const { page, context } = alice;
    await context.grantPermissions(['notifications'], { origin: server.url });
    await page.reload();
    await visible(page.getByRole('navigation', { name: '主导航' }));
    const worker = await controllingWorker(context, page);

    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const mine = registrations.find((r) => r.scopeURL.startsWith(server.url) && !r.isDeleted);
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: await registration,
      data: JSON.stringify({ title: 'Bob', body: '到山脚了', chat: String(bob.id) }),
    });

    const shown = () =>
      worker.evaluate(async () =>
        (await (self as unknown as ServiceWorkerGlobalScope).registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
        })),
      );
    await expect.poll(shown, WAIT).toEqual([{ title: 'Bob', body: '到山脚了', tag: `chat-${bob.id}` }]);

    await worker.evaluate(async () => {
      const scope = self as unknown as ServiceWorkerGlobalScope;
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: notification! }));
    });
    await page.waitForURL((url) => url.hash === `#/pages/message/chat?id=${bob.id}`, WAIT);
    await visible(page.getByText('周末去爬山吗'));
    await expect.poll(shown, WAIT).toEqual([]);
  });

  it('offers the push switches in the settings, accessible at 375 px', async () => {
    const { page } = alice;
    await page.goto(`${server.url}/#/pages/mine/setting`);
    const push = page.getByRole('switch', { name: '锁屏和后台通知' });
    await visible(push);
    await expectAccessible(page);
    await shot(page, 'pwa-settings');
    // The permission is granted, but headless Chromium has no push service to subscribe at: the
    // page says so and the switch stays off, with no preview switch under it.
    await push.click();
    await visible(toast(page, '此浏览器无法接收通知'));
    await expect(push.getAttribute('aria-checked')).resolves.toBe('false');
    await expect(page.getByRole('switch', { name: '通知显示消息详情' }).count()).resolves.toBe(0);
    // Signing out lets go of this browser's subscription (none here) and still reaches the login page.
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '退出登录' }).click();
    await visible(page.getByLabel('账号', { exact: true }));
  });
});
