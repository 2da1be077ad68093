import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  pageArea,
  passwordForm,
  phoneContext,
  ServerProcess,
  shot,
  socketBound,
  toast,
  visible,
  WAIT,
  WIDE,
  settled,
} from './harness';

/** A phone's user agent: the server groups sessions by device class for multipleLogin. */
const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

let server: ServerProcess;
let browser: Browser;
/** Another origin for the in-app browser to show. */
let outside: http.Server;
let outsideUrl: string;
/** This file's own copy of the built client. */
let webDist: string;

beforeAll(async () => {
  // A rebuild of packages/web while the suite runs would swap the chunks the open pages load.
  const built = fileURLToPath(new URL('../packages/web/dist', import.meta.url));
  if (!fs.existsSync(path.join(built, 'index.html'))) {
    throw new Error('packages/web/dist is missing: run `npm run build -w @sparrow/web` first');
  }
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-e2e-web-'));
  fs.cpSync(built, webDist, { recursive: true });
  outside = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Outside</title><h1>A page from elsewhere</h1></html>');
  });
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
  // `localhost`, not 127.0.0.1: an origin other than the app's.
  outsideUrl = `http://localhost:${(outside.address() as AddressInfo).port}/`;
  [server, browser] = await Promise.all([ServerProcess.start({ WEB_DIST: webDist }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
  await new Promise((resolve) => outside?.close(resolve));
  if (webDist) fs.rmSync(webDist, { recursive: true, force: true });
});

async function open(page: Page, route: string): Promise<void> {
  await page.goto(`${server.url}/#${route}`);
}

/** Waits until the navigation bar shows this title (each page's level-one heading). */
async function titled(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor(WAIT);
}

/** Waits until no toast covers the page. */
async function noToast(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !Array.from(document.querySelectorAll('.adm-toast-main')).some((el) =>
        el.checkVisibility({ opacityProperty: true }),
      ),
    undefined,
    WAIT,
  );
}

/** Saves the picture of the page as it is now. */
async function look(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  await settled(page);
  await shot(page, name);
}

/** Saves the picture (toasts included) and audits the page with axe-core. */
async function check(page: Page, name: string): Promise<void> {
  await look(page, name);
  await expectAccessible(page);
}

/** The font families Chromium used to draw an element's own text. */
async function fontsOf(page: Page, locator: Locator): Promise<string[]> {
  await locator.evaluate((el) => el.setAttribute('data-font-probe', ''));
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-font-probe]' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((f) => f.familyName);
  } finally {
    await cdp.detach();
    await locator.evaluate((el) => el.removeAttribute('data-font-probe'));
  }
}

async function login(page: Page, account: string, password: string): Promise<void> {
  await passwordForm(page);
  await page.getByLabel('账号', { exact: true }).fill(account);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

async function register(account: string, password: string, realname: string): Promise<void> {
  const res = await fetch(`${server.url}/common/Pub/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password, repassword: password, realname }),
  });
  const body = (await res.json()) as { code: number; msg: string };
  if (body.code !== 0) throw new Error(`register ${account}: ${body.msg}`);
}

describe('an account from sign-up to sign-out', () => {
  let context: BrowserContext;
  let page: Page;
  const account = 'alice01';
  const firstPassword = 'first-pass1';
  const newPassword = 'second-pass2';

  const pageLog: string[] = [];

  beforeAll(async () => {
    context = await phoneContext(browser);
    page = await context.newPage();
    page.on('console', (m) => pageLog.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => pageLog.push(`pageerror: ${e.message}`));
  });
  afterEach(async ({ task }) => {
    // What the page showed and said when a step failed.
    if (task.result?.state !== 'fail') return;
    await shot(page, `failed-${task.name}`).catch(() => {});
    task.result.errors?.push({ name: 'console', message: `${page.url()}\n${pageLog.slice(-30).join('\n')}` });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('shows the login entry and the login page to a visitor', async () => {
    await open(page, '/');
    await titled(page, '登录');
    await visible(page.getByRole('heading', { name: '欢迎使用 Sparrow' }));
    await check(page, 'zh-Hans-01-entry');

    await open(page, '/pages/login/login');
    // A desk's login page shows the QR code first, the password form a tap away.
    if (WIDE) await visible(page.getByRole('heading', { name: '使用手机扫码登录' }));
    await passwordForm(page);
    await visible(page.getByRole('button', { name: '用验证码登录' }));
    await check(page, 'zh-Hans-02-login');
  });

  it('signs up with the rules shown inline, and lands on home', async () => {
    await page.getByRole('link', { name: '注册新账号' }).click();
    await titled(page, '注册');
    await check(page, 'zh-Hans-03-register');

    await page.getByLabel('账号', { exact: true }).fill('al');
    await page.getByLabel('密码', { exact: true }).fill('12345');
    await page.getByLabel('确认密码', { exact: true }).fill('123456');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await visible(page.getByText('账号长度为 4–32 个字符'));
    await visible(page.getByText('名字长度为 1–32 个字符'));
    await visible(page.getByText('密码长度为 6–16 个字符'));
    await visible(page.getByText('两次输入的密码不一致'));
    await check(page, 'zh-Hans-04-register-invalid');

    await page.getByLabel('账号', { exact: true }).fill(account);
    await page.getByLabel('名字', { exact: true }).fill('爱丽丝');
    await page.getByLabel('密码', { exact: true }).fill(firstPassword);
    await page.getByLabel('确认密码', { exact: true }).fill(firstPassword);
    await page.getByRole('button', { name: '注册', exact: true }).click();

    await page.waitForURL(/#\/pages\/index\/index$/, WAIT);
    await titled(page, '消息');
    await visible(page.getByText('暂无会话'));
    await check(page, 'zh-Hans-05-home-messages');
  });

  it('shows the tabs, and who is signed in on Me', async () => {
    const nav = page.getByRole('navigation', { name: '主导航' });
    for (const [tab, file] of [
      ['通讯录', 'zh-Hans-06-home-contacts'],
      ['发现', 'zh-Hans-07-home-discover'],
      ['我', 'zh-Hans-08-me'],
    ] as const) {
      await nav.getByRole('button', { name: tab }).click();
      await titled(page, tab);
      expect(await nav.getByRole('button', { name: tab }).getAttribute('aria-current')).toBe('page');
      if (tab === '我') {
        await visible(page.getByText('爱丽丝', { exact: true }));
        await visible(page.getByText(`账号：${account}`));
      }
      await check(page, file);
    }
  });

  it('edits the profile: photo, name, status and gender', async () => {
    await page.getByRole('link', { name: '个人信息', exact: true }).click();
    await titled(page, '个人信息');
    await visible(page.getByRole('img', { name: '爱丽丝 的头像' }));
    await check(page, 'zh-Hans-09-profile');

    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#dc3c28' } })
      .png()
      .toBuffer();
    await page.getByLabel('更换头像').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await visible(toast(page, '头像已更新'));
    // A toast catches no tap: what it covers stays usable while it shows.
    expect(await toast(page, '头像已更新').evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
    const photo = page.getByRole('img', { name: '爱丽丝 的头像' });
    await expect.poll(() => photo.getAttribute('src'), WAIT).toMatch(/\/storage\//);
    // The stored picture is served and decodes: a broken one falls back to the initial, not an <img>.
    await page.waitForFunction(
      () => Array.from(document.images).some((img) => img.src.includes('/storage/') && img.naturalWidth > 0),
      undefined,
      WAIT,
    );

    await page.getByRole('link', { name: /^名字/ }).click();
    await titled(page, '设置名字');
    await page.getByLabel('名字', { exact: true }).fill('');
    await page.getByRole('button', { name: '保存' }).click();
    await visible(page.getByText('名字长度为 1–32 个字符'));
    await check(page, 'zh-Hans-10-profile-name');
    await page.getByLabel('名字', { exact: true }).fill('爱丽丝·王');
    await page.getByRole('button', { name: '保存' }).click();
    await titled(page, '个人信息');
    await visible(page.getByRole('link', { name: /^名字/ }).filter({ hasText: '爱丽丝·王' }));

    await page.getByRole('link', { name: /^个性签名/ }).click();
    await titled(page, '设置个性签名');
    await page.getByLabel('个性签名', { exact: true }).fill('今天也要开心');
    await page.getByRole('button', { name: '保存' }).click();
    await visible(page.getByRole('link', { name: /^个性签名/ }).filter({ hasText: '今天也要开心' }));

    await page.getByRole('link', { name: /^性别/ }).click();
    await titled(page, '设置性别');
    await page.getByRole('radio', { name: '女' }).check();
    await look(page, 'zh-Hans-11-profile-sex');
    await page.getByRole('button', { name: '保存' }).click();
    await visible(page.getByRole('link', { name: /^性别/ }).filter({ hasText: '女' }));
    await check(page, 'zh-Hans-12-profile-edited');

    // Me shows the new name and photo, and still does after a reload.
    await page.getByRole('button', { name: '返回' }).click();
    await titled(page, '我');
    await visible(page.getByText('爱丽丝·王', { exact: true }));
    await page.reload();
    await visible(page.getByText('爱丽丝·王', { exact: true }));
    await page.waitForFunction(
      () => Array.from(document.images).some((img) => img.src.includes('/storage/') && img.naturalWidth > 0),
      undefined,
      WAIT,
    );
    await look(page, 'zh-Hans-13-me-edited');
  });

  it('shows settings, about, help and the in-app browser', async () => {
    await page.getByRole('link', { name: '设置', exact: true }).click();
    await titled(page, '设置');
    expect(await page.getByRole('switch', { name: '声音' }).getAttribute('aria-checked')).toBe('true');
    await check(page, 'zh-Hans-14-setting');

    await open(page, '/pages/mine/about');
    await titled(page, '关于');
    await visible(page.getByRole('img', { name: 'Sparrow 的标志' }));
    await visible(page.getByText(/^版本 \d+\.\d+\.\d+/));
    await check(page, 'zh-Hans-15-about');

    // At a desk Me's list beside the page links the help too.
    await pageArea(page).getByRole('link', { name: '帮助文档' }).click();
    await titled(page, '帮助文档');
    await visible(page.getByRole('heading', { name: '切换语言' }));
    await check(page, 'zh-Hans-16-doc');

    await open(page, `/pages/mine/webview?src=${encodeURIComponent(outsideUrl)}`);
    await visible(page.frameLocator('iframe').getByRole('heading', { name: 'A page from elsewhere' }));
    // A site that refuses to be framed cannot be told apart from here: the way out is always shown.
    expect(await page.getByRole('link', { name: '在浏览器中打开' }).getAttribute('href')).toBe(outsideUrl);
    await check(page, 'zh-Hans-17-webview');

    await open(page, `/pages/mine/webview?src=${encodeURIComponent('javascript:alert(1)')}`);
    await visible(page.getByRole('alert').filter({ hasText: '无法打开此链接' }));
    await check(page, 'zh-Hans-18-webview-refused');
  });

  it('switches to English and back', async () => {
    await open(page, '/pages/mine/setting');
    await page.getByRole('link', { name: /^语言/ }).click();
    await titled(page, '语言');
    await check(page, 'zh-Hans-19-language');
    await page.getByRole('radio', { name: 'English' }).check();
    await titled(page, 'Language');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'Back' }).click();
    await titled(page, 'Settings');
    await visible(page.getByRole('link', { name: /^Language/ }).filter({ hasText: 'English' }));
    await visible(page.getByRole('button', { name: 'Log out' }));
    await check(page, 'en-01-setting');

    // Each page was audited in Chinese; in English the pictures show whether the longer texts
    // fit, and the forms, where they wrap most, are audited again.
    const visits: [string, string, string, 'audit'?][] = [
      ['/pages/index/index', 'Messages', 'en-02-home'],
      ['/pages/index/index?tab=me', 'Me', 'en-03-me'],
      ['/pages/mine/profile', 'Personal info', 'en-04-profile'],
      ['/pages/mine/secure', 'Security', 'en-05-secure'],
      ['/pages/mine/secure?action=password', 'Change password', 'en-06-password', 'audit'],
      ['/pages/mine/about', 'About', 'en-07-about'],
      ['/pages/mine/doc', 'Help', 'en-08-doc'],
      ['/pages/login/register', 'Sign up', 'en-09-register', 'audit'],
    ];
    for (const [route, heading, file, audit] of visits) {
      await open(page, route);
      await titled(page, heading);
      if (heading === 'Me') await visible(page.getByText(`Account: ${account}`));
      if (heading === 'Personal info') {
        await visible(page.getByRole('link', { name: /^Gender/ }).filter({ hasText: 'Female' }));
        expect(await page.title()).toBe('Personal info');
      }
      await (audit ? check(page, file) : look(page, file));
    }

    // Latin text is drawn with a Latin font: CJK fonts put full-width gaps around quotes.
    const help = page.getByRole('region', { name: 'Create an account' }).getByRole('paragraph');
    await open(page, '/pages/mine/doc');
    await visible(help);
    expect(await fontsOf(page, help)).not.toContainEqual(expect.stringMatching(/CJK/));

    await open(page, '/pages/mine/setting?action=language');
    await page.getByRole('radio', { name: '简体中文' }).check();
    await titled(page, '语言');
    await page.getByRole('button', { name: '返回' }).click();
    await titled(page, '设置');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hans');
    await page.reload();
    await titled(page, '设置');
  });

  it('changes the password', async () => {
    await open(page, '/pages/index/index?tab=me');
    await page.getByRole('link', { name: '账号与安全' }).click();
    await titled(page, '安全');
    await visible(page.getByText('未认证'));
    await check(page, 'zh-Hans-20-secure');

    await page.getByRole('link', { name: '修改密码' }).click();
    await titled(page, '修改密码');
    await check(page, 'zh-Hans-21-password');

    await page.getByLabel('原密码', { exact: true }).fill('not-my-password');
    await page.getByLabel('新密码', { exact: true }).fill(newPassword);
    await page.getByLabel('确认新密码', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: '确认修改' }).click();
    await visible(toast(page, '原密码错误'));
    await titled(page, '修改密码');

    await page.getByLabel('原密码', { exact: true }).fill(firstPassword);
    await page.getByRole('button', { name: '确认修改' }).click();
    await visible(toast(page, '密码已修改，其他设备需要重新登录。'));
    await titled(page, '安全');
  });

  it('logs out, refuses the old password and accepts the new one', async () => {
    await open(page, '/pages/mine/setting');
    await noToast(page);
    await page.getByRole('button', { name: '退出登录' }).click();
    const dialog = page.getByRole('dialog');
    await visible(dialog.getByText('确定要退出登录吗？'));
    await check(page, 'zh-Hans-22-logout-confirm');
    await dialog.getByRole('button', { name: '退出登录' }).click();

    await page.waitForURL(/#\/pages\/login\/login$/, WAIT);
    await titled(page, '登录');
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    // Nothing signed-in is left: such a page sends us to login, which comes back to it afterwards.
    await open(page, '/pages/mine/profile');
    await page.waitForURL(/#\/pages\/login\/login\?redirect=%2Fpages%2Fmine%2Fprofile$/, WAIT);

    await login(page, account, firstPassword);
    await visible(toast(page, '账号或密码错误'));
    expect(page.url()).toMatch(/#\/pages\/login\/login\?redirect=%2Fpages%2Fmine%2Fprofile$/);

    await login(page, account, newPassword);
    await page.waitForURL(/#\/pages\/mine\/profile$/, WAIT);
    await titled(page, '个人信息');
    // Arriving is the news: no "登录成功" follows onto the page over its controls.
    await page.waitForTimeout(500);
    expect(await toast(page, '登录成功').count()).toBe(0);
  });

  it('logs in by itself with the stored session', async () => {
    await noToast(page);
    // Holding checkuser back keeps the auto-login screen up long enough to look at it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/common/Pub/checkuser', async (route) => {
      await held;
      await route.continue();
    });
    await open(page, '/');
    await page.waitForURL(/#\/pages\/login\/autoLogin$/, WAIT);
    await visible(page.getByRole('status').filter({ hasText: '正在登录…' }));
    await check(page, 'zh-Hans-23-autologin');
    release();
    await page.waitForURL(/#\/pages\/index\/index$/, WAIT);
    await page.unroute('**/common/Pub/checkuser');
    await titled(page, '消息');
  });
});

describe('when the server goes away', () => {
  it('says "no network", and recovers once the server is back', async () => {
    await register('carol01', 'carol-pass1', '卡罗尔');
    const context = await phoneContext(browser);
    const page = await context.newPage();
    let stopped = false;
    try {
      const bound = socketBound(page);
      await open(page, '/pages/login/login');
      await login(page, 'carol01', 'carol-pass1');
      await page.waitForURL(/#\/pages\/index\/index$/, WAIT);
      await bound;
      await open(page, '/pages/mine/profile?edit=motto');
      await titled(page, '设置个性签名');
      await page.getByLabel('个性签名', { exact: true }).fill('断网也不慌');

      await server.stop();
      stopped = true;
      await page.getByRole('button', { name: '保存' }).click();
      await visible(toast(page, '网络不可用'));
      await titled(page, '设置个性签名');
      await check(page, 'zh-Hans-25-no-network');

      // The push channel is down too, and home says so.
      await open(page, '/pages/index/index');
      await visible(page.getByRole('status').filter({ hasText: '正在连接…' }));
      await look(page, 'zh-Hans-26-home-server-down');

      // No network at all: the request is not even sent.
      await context.setOffline(true);
      await open(page, '/pages/mine/profile?edit=motto');
      await page.getByLabel('个性签名', { exact: true }).fill('断网也不慌');
      await page.getByRole('button', { name: '保存' }).click();
      await visible(toast(page, '您的网络已断开，请检查！'));
      await check(page, 'zh-Hans-27-network-disconnected');

      await server.boot();
      stopped = false;
      await context.setOffline(false);
      await page.getByRole('button', { name: '保存' }).click();
      await titled(page, '个人信息');
      await visible(page.getByRole('link', { name: /^个性签名/ }).filter({ hasText: '断网也不慌' }));

      // With the server back, the socket reconnects and the banner goes.
      await open(page, '/pages/index/index');
      await titled(page, '消息');
      await page
        .getByRole('status')
        .filter({ hasText: '正在连接…' })
        .waitFor({ state: 'hidden', ...WAIT });
      await look(page, 'zh-Hans-28-home-recovered');
    } finally {
      await context.close();
      if (stopped) await server.boot();
    }
  });
});

// Last in the file: it leaves multipleLogin off on this file's server.
describe('a second phone logging in to the same account', () => {
  it('signs the first one out when multipleLogin is off', async () => {
    await Promise.all([
      server.admin('config', 'set', 'sysInfo.multipleLogin', '0'),
      register('bob0001', 'bob-pass1', '鲍勃'),
    ]);
    const phone = { viewport: { width: 375, height: 812 }, locale: 'zh-CN', hasTouch: true, userAgent: MOBILE_UA };
    const [first, second] = await Promise.all([newContext(browser, phone), newContext(browser, phone)]);
    try {
      const a = await first.newPage();
      const bound = socketBound(a);
      await open(a, '/pages/login/login');
      await login(a, 'bob0001', 'bob-pass1');
      await a.waitForURL(/#\/pages\/index\/index$/, WAIT);
      await bound;

      const b = await second.newPage();
      await open(b, '/pages/login/login');
      await login(b, 'bob0001', 'bob-pass1');
      await b.waitForURL(/#\/pages\/index\/index$/, WAIT);

      const dialog = a.getByRole('dialog');
      await visible(dialog.getByText('您的账号已在其他设备登录，已被强制下线！'));
      expect(a.url()).toMatch(/#\/pages\/login\/login$/);
      await check(a, 'zh-Hans-24-forced-offline');
      await dialog.getByRole('button', { name: '确定' }).click();
      await dialog.waitFor({ state: 'hidden', ...WAIT });
      await titled(a, '登录');

      // Nothing of the session is left on the first phone, while the second one stays in.
      await open(a, '/pages/mine/profile');
      await a.waitForURL(/#\/pages\/login\/login\?redirect=%2Fpages%2Fmine%2Fprofile$/, WAIT);
      await b.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '我' }).click();
      await visible(b.getByText('鲍勃', { exact: true }));
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
