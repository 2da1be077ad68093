import path from 'node:path';
import Database from 'better-sqlite3';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtIssuer, startIssuer, type Issuer } from '../packages/server/test/oidc-issuer';
import {
  expectAccessible,
  launchBrowser,
  noToasts,
  phoneContext,
  ServerProcess,
  shot,
  signIn,
  socketBound,
  visible,
  WAIT,
} from './harness';

/**
 * Issue 42 point 4, browser: single sign-on with OpenID Connect against a real issuer on loopback
 * (oidc-provider, its own login and consent pages). An administrator adds the provider on the
 * console's 单点登录 page; the login page shows "使用 Corp ID 登录"; a new person goes through the
 * issuer's pages and comes back signed in to a new account; a second person, whose e-mail is an
 * existing account's, comes back signed in to that account; a person with an authenticator app
 * is asked for its code on coming back. The pages are audited and photographed at the phone's width.
 */

let server: ServerProcess;
let browser: Browser;
let issuer: Issuer;
const contexts: BrowserContext[] = [];

/** A row of the server's database. */
function query<T>(sql: string, ...params: unknown[]): T | undefined {
  const db = new Database(path.join(server.dataDir, 'sparrow.db'), { readonly: true });
  db.pragma('busy_timeout = 5000');
  try {
    return db.prepare(sql).get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

async function freshPage(): Promise<Page> {
  const context = await phoneContext(browser);
  contexts.push(context);
  return context.newPage();
}

async function check(page: Page, name: string): Promise<void> {
  await noToasts(page);
  await shot(page, name);
  await expectAccessible(page);
}

/** From the login page: the provider's button, the issuer's login and consent pages, back to Sparrow. */
async function throughCorp(page: Page, login: string): Promise<void> {
  await page.goto(`${server.url}/#/pages/login/login`);
  const button = page.getByRole('link', { name: '使用 Corp ID 登录' });
  await visible(button);
  await button.click();
  await page.waitForURL((u) => u.href.startsWith(issuer.url), WAIT);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click(WAIT);
}

/** Through the provider and back signed in. */
async function signInWithCorp(page: Page, login: string): Promise<void> {
  const bound = socketBound(page);
  await throughCorp(page, login);
  await visible(page.getByRole('navigation', { name: '主导航' }));
  await bound;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  issuer = await startIssuer([`${server.url}/auth/oidc/corp/callback`]);
  await server.register('ssoroot', 'Root');
  await server.admin('user', 'role', 'ssoroot', 'admin');
}, 60_000);

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await issuer?.close();
  await server?.dispose();
});

describe('single sign-on', () => {
  it('an administrator adds the provider on the console; the secret is not shown again', async () => {
    const page = await freshPage();
    await signIn(server, page, 'ssoroot');
    await page.goto(`${server.url}/#/manage/index?tab=sso`);
    await visible(page.getByRole('heading', { name: '添加登录方式' }));
    await check(page, 'oidc-console-empty');
    await page.getByLabel('标识（小写字母、数字、-）').fill('corp');
    await page.getByLabel('按钮名称').fill('Corp ID');
    await page.getByLabel('签发方地址（Issuer）').fill(issuer.url);
    await page.getByLabel('客户端 ID').fill(issuer.clientId);
    await page.getByLabel('客户端密钥').fill(issuer.clientSecret);
    await page.getByLabel('权限范围（scope）').fill('openid email profile groups');
    await page.getByLabel('按已验证的邮箱关联现有账号').check();
    await page.getByRole('button', { name: '保存' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Corp ID · corp' });
    await visible(row);
    await visible(row.getByText(`${server.url}/auth/oidc/corp/callback`));
    await page.getByRole('button', { name: '编辑 Corp ID' }).click();
    expect(await page.getByLabel('客户端密钥').inputValue()).toBe('');
    expect(await page.getByLabel('客户端密钥').getAttribute('placeholder')).toBe('已保存，留空则不变');
    expect(await page.content()).not.toContain(issuer.clientSecret);
    await check(page, 'oidc-console');
  });

  it('a new person signs in through the issuer’s pages and has an account with the claims’ name', async () => {
    const page = await freshPage();
    await page.goto(`${server.url}/#/pages/login/login`);
    await visible(page.getByRole('link', { name: '使用 Corp ID 登录' }));
    await check(page, 'oidc-login-button');
    await signInWithCorp(page, 'newcomer');
    await shot(page, 'oidc-signed-in');
    const user = query<{ realname: string; email: string }>(
      'SELECT realname, email FROM users WHERE email = ?',
      'newcomer@corp.example',
    );
    expect(user).toEqual({ realname: 'Newcomer Example', email: 'newcomer@corp.example' });
  });

  it('a person whose e-mail is an existing account’s is signed in to that account', async () => {
    const existing = await server.register('bella@corp.example', 'Bella Chen');
    const page = await freshPage();
    await signInWithCorp(page, 'bella');
    const link = query<{ user_id: number }>("SELECT user_id FROM user_identities WHERE subject = 'bella'");
    expect(link?.user_id).toBe(existing.id);
    const me = await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { user_id?: number });
    expect(me.user_id).toBe(existing.id);
  });

  it('a refusal lands on the login page with its reason', async () => {
    const page = await freshPage();
    await page.goto(`${server.url}/#/pages/login/login?sso_error=SsoNotAllowed`);
    await visible(page.getByRole('alert').filter({ hasText: '该身份没有可用的账号，请联系管理员' }));
    await visible(page.getByRole('link', { name: '使用 Corp ID 登录' }));
    await check(page, 'oidc-login-refused');
  });

  it('the issuer walked without a browser gives the same account, only with the starting cookie', async () => {
    const start = await fetch(`${server.url}/auth/oidc/corp/start`, { redirect: 'manual' });
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
    const back = await signInAtIssuer(start.headers.get('location')!, 'newcomer', issuer.url);
    const landed = await fetch(back, { redirect: 'manual', headers: { cookie } });
    const code = new URLSearchParams(landed.headers.get('location')!.split('?')[1]).get('sso_code')!;
    const exchange = async (headers: Record<string, string>) => {
      const res = await fetch(`${server.url}/common/Pub/ssoExchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ code }),
      });
      return (await res.json()) as { code: number; data: { userInfo: { email: string } } };
    };
    // A link carrying the code, opened in another browser: no session.
    expect((await exchange({})).code).not.toBe(0);
    const login = await exchange({ cookie });
    expect(login.code).toBe(0);
    expect(login.data.userInfo.email).toBe('newcomer@corp.example');
  });

  it('a person with an authenticator app is asked for its code on coming back', async () => {
    const first = await fetch(`${server.url}/auth/oidc/corp/start`, { redirect: 'manual' });
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    const back = await signInAtIssuer(first.headers.get('location')!, 'otto', issuer.url);
    const landed = await fetch(back, { redirect: 'manual', headers: { cookie } });
    const code = new URLSearchParams(landed.headers.get('location')!.split('?')[1]).get('sso_code')!;
    const res = await fetch(`${server.url}/common/Pub/ssoExchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ code }),
    });
    const token = ((await res.json()) as { data: { authToken: string } }).data.authToken;
    const setup = await server.post<{ secret: string }>('/enterprise/im/totpBegin', {}, token);
    const appCode = (aheadMs = 0) =>
      TOTP.generate({ secret: Secret.fromBase32(setup.secret), timestamp: Date.now() + aheadMs });
    await server.post('/enterprise/im/totpConfirm', { code: appCode() }, token);

    const page = await freshPage();
    await throughCorp(page, 'otto');
    const field = page.getByLabel('验证码', { exact: true });
    await visible(field);
    await check(page, 'oidc-two-step');
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    const bound = socketBound(page);
    // The code used to turn it on is spent: the app's next one signs in.
    await field.fill(appCode(30_000));
    await page.getByRole('button', { name: '验证', exact: true }).click();
    await visible(page.getByRole('navigation', { name: '主导航' }));
    await bound;
  });
});
