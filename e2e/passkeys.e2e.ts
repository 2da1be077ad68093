import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  noToasts,
  passwordForm,
  PASSWORD,
  phoneContext,
  ServerProcess,
  settled,
  shot,
  toast,
  visible,
  WAIT,
} from './harness';

/**
 * Issue 42 point 3, browser: passkeys on a phone (375 px) with Chromium's virtual authenticator
 * (CDP `WebAuthn.addVirtualAuthenticator`: CTAP2, built in, resident keys, user verification).
 * Settings → 账号与安全 → 通行密钥: add one, rename it; sign out and sign in with 使用通行密钥登录
 * and no password; see it listed as used; remove it. WebAuthn needs a secure context and a host
 * name as the relying party, so the pages are opened at localhost, the address the server then
 * names as the site (no PUBLIC_URL).
 */

let server: ServerProcess;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;
/** The app's address at localhost. */
let base: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start({ PUBLIC_URL: '' }), launchBrowser()]);
  base = server.url.replace('127.0.0.1', 'localhost');
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && page)
    await shot(page, `passkeys-failed-${task.name.slice(0, 24).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.dispose();
});

/** Saves a screenshot where the helpers' notes ask for them too. */
async function picture(name: string): Promise<void> {
  await settled(page);
  const file = await shot(page, `passkeys-${name}`);
  const fs = await import('node:fs');
  fs.mkdirSync('/tmp/shots', { recursive: true });
  fs.copyFileSync(file, `/tmp/shots/helperC-passkeys-${name}.png`);
}

const titled = (title: string) => visible(page.getByRole('heading', { level: 1, name: title }));

describe('passkeys', () => {
  it('adds a passkey in 账号与安全 → 通行密钥 and renames it', async () => {
    await server.register('pkuser', '通行密钥用户');
    context = await phoneContext(browser);
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await page.goto(`${base}/#/pages/login/login`);
    await passwordForm(page);
    await page.getByLabel('账号', { exact: true }).fill('pkuser');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await visible(page.getByRole('navigation', { name: '主导航' }));

    await page.goto(`${base}/#/pages/mine/secure`);
    await page.getByRole('link', { name: '通行密钥' }).click();
    await titled('通行密钥');
    await visible(page.getByText('还没有通行密钥'));
    await expectAccessible(page);
    await picture('01-empty');

    await page.getByRole('button', { name: '添加通行密钥' }).click();
    // A passkey is a way in of its own: the sheet asks for the password first, and a wrong one adds nothing.
    const prove = page.getByRole('dialog', { name: '添加通行密钥' });
    await prove.getByLabel('当前密码', { exact: true }).fill('not-my-password');
    await prove.getByRole('button', { name: '继续' }).click();
    await visible(prove.getByText('原密码错误'));
    await expectAccessible(page);
    await picture('02-prove');
    await prove.getByLabel('当前密码', { exact: true }).fill(PASSWORD);
    await prove.getByRole('button', { name: '继续' }).click();
    await visible(toast(page, '已添加通行密钥'));
    const list = page.getByRole('list', { name: '通行密钥' });
    await visible(list.getByText('Linux 上的 Chrome'));
    await visible(list.getByText('尚未使用'));
    await noToasts(page);
    await expectAccessible(page);
    await picture('02-added');

    await list.getByRole('button', { name: '重命名 Linux 上的 Chrome' }).click();
    await page.getByLabel('名称', { exact: true }).fill('我的笔记本');
    await expectAccessible(page);
    await picture('03-rename');
    await page.getByRole('button', { name: '保存' }).click();
    await visible(list.getByText('我的笔记本'));
  });

  it('signs out, then signs in with 使用通行密钥登录 and no password; the passkey shows as used', async () => {
    await page.goto(`${base}/#/pages/mine/setting`);
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '退出登录' }).click();
    await page.waitForURL(/#\/pages\/login\/login$/, WAIT);
    await passwordForm(page);
    await noToasts(page);
    await expectAccessible(page);
    await picture('04-login');

    await page.getByRole('button', { name: '使用通行密钥登录' }).click();
    await visible(page.getByRole('navigation', { name: '主导航' }));
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();

    await page.goto(`${base}/#/pages/mine/passkeys`);
    await titled('通行密钥');
    const list = page.getByRole('list', { name: '通行密钥' });
    await visible(list.getByText('我的笔记本'));
    await visible(list.getByText(/^上次使用 /));
    await noToasts(page);
    await picture('05-used');
  });

  it('removes the passkey once the password confirms it', async () => {
    const list = page.getByRole('list', { name: '通行密钥' });
    await list.getByRole('button', { name: '移除 我的笔记本' }).click();
    const dialog = page.getByRole('dialog', { name: '移除通行密钥？' });
    await visible(dialog.getByText('移除后将无法用“我的笔记本”登录', { exact: false }));
    await dialog.getByLabel('当前密码', { exact: true }).fill(PASSWORD);
    await expectAccessible(page);
    await picture('06-remove-confirm');
    await dialog.getByRole('button', { name: '移除' }).click();
    await visible(toast(page, '已移除通行密钥'));
    await visible(page.getByText('还没有通行密钥'));
  });

  it('shows no passkey button where the browser has no WebAuthn', async () => {
    const bare = await phoneContext(browser);
    try {
      await bare.addInitScript(() => {
        delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
      });
      const other = await bare.newPage();
      await other.goto(`${base}/#/pages/login/login`);
      await passwordForm(other);
      await visible(other.getByRole('button', { name: /扫码登录/ }));
      expect(await other.getByRole('button', { name: '使用通行密钥登录' }).count()).toBe(0);
    } finally {
      await bare.close();
    }
  });
});
