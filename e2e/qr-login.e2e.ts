import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parseQrLink, QR_LOGIN_HIDDEN_POLL_MS } from '@sparrow/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  newPerson,
  noToasts,
  type Person,
  ServerProcess,
  shot,
  visible,
  WAIT,
} from './harness';
import { codePng, readPng, y4mFrame } from './qr-media';

/**
 * Issue 40 point 4, browser: QR login (扫码登录) with two browsers side by side. A desktop at
 * 1280×800 opens the login page, which shows a login code; a phone at 375 px, already signed in,
 * scans it with 扫一扫 (Chromium's fake camera plays the code), sees "在网页端登录？" naming the
 * desktop's browser and confirms; the desktop is signed in. The phone's 网页端已登录 bar signs the
 * desktop out again. A code scanned and left to expire shows 二维码已失效 and a tap refreshes it,
 * as it does one cancelled on the phone; one left unscanned is replaced by the page itself. A page
 * in a background tab asks for codes only once shown.
 */

let server: ServerProcess;
let desktopBrowser: Browser;
let phoneBrowser: Browser | undefined;
let desktop: BrowserContext;
let phone: Person;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-qr-login-e2e-'));

/** A desktop-sized browser context (1280×800), in Chinese. */
function desktopContext(): Promise<BrowserContext> {
  return newContext(desktopBrowser, { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, locale: 'zh-CN' });
}

/** The text of the login code the page shows, read from its picture. */
async function shownCode(page: Page): Promise<string> {
  const img = page.getByRole('img', { name: '登录二维码' });
  await visible(img);
  const src = (await img.getAttribute('src'))!;
  return readPng(Buffer.from(src.split(',')[1]!, 'base64'))!;
}

/** Moves every login code's expiry into the past, as two minutes passing would. */
function expireCodes(): void {
  const db = new Database(path.join(server.dataDir, 'sparrow.db'));
  db.pragma('busy_timeout = 5000');
  db.prepare('UPDATE qr_logins SET expires_at = 1').run();
  db.close();
}

/** Whether a login code was scanned (its row moved past waiting, 0). */
function scanned(code: string): boolean {
  const db = new Database(path.join(server.dataDir, 'sparrow.db'), { readonly: true });
  db.pragma('busy_timeout = 5000');
  const row = db.prepare('SELECT state FROM qr_logins WHERE code = ?').get(parseQrLink(code)!.token) as {
    state: number;
  };
  db.close();
  return row.state !== 0;
}

/** Audits and photographs the page once toasts have faded. */
async function check(page: Page, name: string): Promise<void> {
  await noToasts(page);
  await shot(page, name);
  await expectAccessible(page);
}

beforeAll(async () => {
  [server, desktopBrowser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
});

afterAll(async () => {
  await phoneBrowser?.close();
  await desktopBrowser?.close();
  await server?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('QR login (扫码登录)', () => {
  it('the desktop shows a code; the phone scans and confirms; the desktop is signed in, and the phone signs it out', async () => {
    desktop = await desktopContext();
    const d = await desktop.newPage();
    await d.goto(server.url);
    await visible(d.getByRole('heading', { name: '使用手机扫码登录' }));
    const code = await shownCode(d);
    expect(parseQrLink(code)).toMatchObject({ base: server.url, kind: 'login' });
    await visible(d.getByRole('status').filter({ hasText: '扫一扫' }));
    await check(d, 'qr-login-desktop-waiting');

    // The phone's camera sees the desktop's screen.
    fs.writeFileSync(path.join(tmp, 'login-code.y4m'), y4mFrame(await codePng(code)));
    phoneBrowser = await launchBrowser([`--use-file-for-fake-video-capture=${path.join(tmp, 'login-code.y4m')}`]);
    phone = await newPerson(server, phoneBrowser, 'qrl_pat', 'Pat');
    const p = phone.page;
    await p.getByRole('button', { name: '更多功能' }).click();
    await p.getByRole('menuitem', { name: '扫一扫' }).click();
    await visible(p.getByRole('heading', { name: '在网页端登录？' }));
    await visible(p.getByText('Chrome（Linux）'));
    // The address the desktop asked from, as WeChat shows the place.
    await visible(p.getByText(/^IP 地址：\S*127\.0\.0\.1$/));
    await check(p, 'qr-login-phone-confirm');

    // Reloaded, the page no longer holds the scanner's hand-off: it asks for 扫一扫 again, which scans anew.
    await p.reload();
    await visible(p.getByRole('heading', { name: '请使用扫一扫' }));
    await p.getByRole('button', { name: '扫一扫' }).click();
    await visible(p.getByRole('heading', { name: '在网页端登录？' }));

    // Scanned: the desktop shows whose phone should confirm.
    await visible(d.getByText('请在手机上确认'));
    await visible(d.getByRole('img', { name: 'Pat' }));
    await shot(d, 'qr-login-desktop-scanned');

    const listed = d.waitForResponse((r) => r.url().endsWith('/enterprise/im/webSessions'), WAIT);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await visible(d.getByRole('navigation', { name: '主导航' }));
    // Only the phone shows the bar: a web session does not list itself.
    expect((await (await listed).json()).data).toEqual([]);
    expect(await d.getByRole('link', { name: '网页端已登录' }).count()).toBe(0);
    await shot(d, 'qr-login-desktop-signed-in');
    const token = await d.evaluate(() => localStorage.getItem('authToken') ?? '');
    expect(token.length).toBeGreaterThan(0);

    // The phone lists the web session and ends it; the desktop is back at its login.
    const bar = p.getByRole('link', { name: '网页端已登录' });
    await visible(bar);
    // Reloaded, the Messages tab draws the bar with its own styles: its icon stays icon-sized.
    await p.reload();
    await visible(bar);
    const icon = await bar.locator('svg').boundingBox();
    expect(icon!.width).toBeLessThan(40);
    await shot(p, 'qr-login-phone-bar');
    await bar.click();
    await visible(p.getByText('Chrome（Linux）'));
    await check(p, 'qr-login-phone-sessions');
    await p.getByRole('button', { name: '退出网页端' }).click();
    await p.getByRole('dialog').getByRole('button', { name: '退出网页端' }).click();
    await visible(p.getByRole('navigation', { name: '主导航' }));
    await expect.poll(() => bar.count(), WAIT).toBe(0);
    await visible(d.getByRole('heading', { name: '使用手机扫码登录' }));
    await desktop.close();
  });

  it('a login code’s link opened on the phone scans nothing and says to use 扫一扫', async () => {
    desktop = await desktopContext();
    const d = await desktop.newPage();
    await d.goto(server.url);
    const code = await shownCode(d);

    const p = phone.page;
    await p.goto(code);
    await visible(p.getByRole('heading', { name: '请使用扫一扫' }));
    await visible(p.getByRole('alert').filter({ hasText: '请使用 Sparrow 的扫一扫扫描网页上的二维码' }));
    expect(await p.getByRole('button', { name: '登录', exact: true }).count()).toBe(0);
    await check(p, 'qr-login-phone-link');
    // The desktop still waits: the phone's name went nowhere.
    expect(scanned(code)).toBe(false);
    await visible(d.getByRole('status').filter({ hasText: '扫一扫' }));
    expect(await d.getByText('请在手机上确认').count()).toBe(0);
    await p.locator('.actions').getByRole('button', { name: '返回' }).click();
    await visible(p.getByRole('navigation', { name: '主导航' }));
    await desktop.close();
  });

  it('a scanned code left to expire shows 二维码已失效, and a tap brings a fresh one; an unscanned one is replaced by itself', async () => {
    desktop = await desktopContext();
    const d = await desktop.newPage();
    await d.goto(server.url);
    const first = await shownCode(d);

    // Left unscanned past its time, the page asks for the next code by itself.
    expireCodes();
    await expect.poll(() => shownCode(d), WAIT).not.toBe(first);
    const second = await shownCode(d);

    await server.post('/enterprise/im/qrLoginScan', { code: parseQrLink(second)!.token }, phone.token);
    await visible(d.getByText('请在手机上确认'));
    expireCodes();
    const refresh = d.getByRole('button', { name: /二维码已失效/ });
    await visible(refresh);
    await check(d, 'qr-login-desktop-expired');
    await refresh.click();
    await visible(d.getByRole('status').filter({ hasText: '扫一扫' }));
    const third = await shownCode(d);
    expect(third).not.toBe(second);

    // Cancelled on the phone: the page says so, and a tap brings a fresh code.
    const code = { code: parseQrLink(third)!.token };
    await server.post('/enterprise/im/qrLoginScan', code, phone.token);
    await server.post('/enterprise/im/qrLoginCancel', code, phone.token);
    await d.getByRole('button', { name: /你已取消此次登录/ }).click();
    await visible(d.getByRole('status').filter({ hasText: '扫一扫' }));
    expect(await shownCode(d)).not.toBe(third);

    // At a phone's width the form comes first, the code a tap away.
    await d.setViewportSize({ width: 375, height: 812 });
    await d.getByRole('button', { name: '密码登录' }).click();
    await visible(d.getByRole('button', { name: '扫码登录' }));
    await check(d, 'qr-login-phone-width-form');
    await desktop.close();
  });

  it('a page in a background tab asks for no code until it is shown, and replaces one that expired while hidden when shown again', async () => {
    desktop = await desktopContext();
    const d = await desktop.newPage();
    // The tab's visibility, set from the test as switching tabs would.
    await d.addInitScript(() => {
      let state: DocumentVisibilityState = 'hidden';
      Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => state });
      Object.assign(window, {
        setVisibility: (next: DocumentVisibilityState) => {
          state = next;
          document.dispatchEvent(new Event('visibilitychange'));
        },
      });
    });
    const setVisibility = (next: DocumentVisibilityState) =>
      d.evaluate((v) => (window as unknown as { setVisibility: (v: string) => void }).setVisibility(v), next);
    let asked = 0;
    const stateAsks: number[] = [];
    d.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (pathname === '/common/Pub/qrLogin') asked += 1;
      if (pathname === '/common/Pub/qrLoginState') stateAsks.push(Date.now());
    });

    await d.goto(server.url);
    await visible(d.getByRole('heading', { name: '使用手机扫码登录' }));
    await d.waitForTimeout(1000);
    expect(asked).toBe(0);
    await setVisibility('visible');
    const first = await shownCode(d);
    expect(asked).toBe(1);

    // Hidden when the code expires: the page waits, and asks for the next one once shown.
    await setVisibility('hidden');
    const hiddenFrom = Date.now();
    expireCodes();
    await visible(d.getByRole('button', { name: /二维码已失效/ }));
    expect(asked).toBe(1);
    // Hidden, the page asks where its code stands only every QR_LOGIN_HIDDEN_POLL_MS.
    const hiddenAsks = [hiddenFrom, ...stateAsks.filter((at) => at >= hiddenFrom)];
    expect(hiddenAsks.length).toBeGreaterThan(1);
    const gaps = hiddenAsks.slice(1).map((at, i) => at - (hiddenAsks[i] ?? at));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(QR_LOGIN_HIDDEN_POLL_MS - 500);
    await setVisibility('visible');
    await expect.poll(() => shownCode(d), WAIT).not.toBe(first);
    expect(asked).toBe(2);
    await desktop.close();
  });
});
