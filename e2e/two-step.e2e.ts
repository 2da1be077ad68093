import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newPerson,
  noToasts,
  passwordForm,
  PASSWORD,
  type Person,
  ServerProcess,
  settled,
  shot,
  visible,
  WAIT,
} from './harness';

/**
 * Issue 42 point 2, browser: two-step sign-in on a phone (375 px). Settings → 账号与安全 → 两步验证:
 * the QR code and the key it shows (the test's "authenticator app" computes the code from that key),
 * the code turns it on, the ten recovery codes are shown once. Signed out, the login page asks for
 * the second step after the password: a code from the app signs in; signed out again, a recovery
 * code does. Each page is audited (axe) and photographed.
 */

let server: ServerProcess;
let browser: Browser;
let person: Person;
let secret = '';
let recovery: string[] = [];

/** The code the test's authenticator app shows `aheadMs` from now. */
const appCode = (aheadMs = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + aheadMs });

async function photo(page: Page, name: string): Promise<void> {
  await settled(page);
  const file = await shot(page, `two-step-${name}`);
  fs.mkdirSync('/tmp/shots', { recursive: true });
  fs.copyFileSync(file, path.join('/tmp/shots', `b-two-step-${name}.png`));
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${server.url}/#/pages/mine/setting`);
  await page.getByRole('button', { name: '退出登录' }).click();
  await page.getByRole('dialog').getByRole('button', { name: '退出登录' }).click();
  await passwordForm(page);
}

/** The first step: account and password; the page then asks for the second. */
async function firstStep(page: Page): Promise<void> {
  await page.getByLabel('账号', { exact: true }).fill(person.account);
  await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await visible(page.getByRole('heading', { name: '两步验证' }));
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  person = await newPerson(server, browser, 'twostep', '双步');
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && person) await photo(person.page, 'failed').catch(() => undefined);
});

afterAll(async () => {
  await person?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('two-step sign-in', () => {
  it('is turned on from the QR page with a code from the app, and shows ten recovery codes once', async () => {
    const { page } = person;
    await page.goto(`${server.url}/#/pages/mine/secure`);
    await page.getByRole('link', { name: '两步验证' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '两步验证' }));
    await visible(page.getByText('未开启'));
    await expectAccessible(page);
    await photo(page, 'off');

    await page.getByRole('button', { name: '开启两步验证' }).click();
    await visible(page.getByRole('img', { name: '两步验证二维码' }));
    secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await noToasts(page);
    await expectAccessible(page);
    await photo(page, 'scan');

    // A wrong code is refused beside its field; the app's code turns it on.
    await page.getByLabel('验证码', { exact: true }).fill(appCode(10 * 60_000));
    await page.getByRole('button', { name: '验证并开启' }).click();
    await visible(page.getByText('验证码错误或已过期').first());
    await noToasts(page);
    await page.getByLabel('验证码', { exact: true }).fill(appCode());
    await page.getByRole('button', { name: '验证并开启' }).click();

    const list = page.getByRole('list', { name: '恢复码' });
    await visible(list);
    recovery = (await list.getByRole('listitem').allTextContents()).map((s) => s.trim());
    expect(recovery).toHaveLength(10);
    for (const c of recovery) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const download = page.waitForEvent('download', WAIT);
    await page.getByRole('button', { name: '下载' }).click();
    const file = await (await download).path();
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toEqual(recovery);
    await noToasts(page);
    await expectAccessible(page);
    await photo(page, 'codes');

    await page.getByRole('button', { name: '我已保存' }).click();
    await visible(page.getByText('已开启'));
    await visible(page.getByRole('heading', { name: '关闭两步验证' }));
    await noToasts(page);
    await expectAccessible(page);
    await photo(page, 'on');
  });

  it('asks for a code after the password, and the app’s code signs in', async () => {
    const { page } = person;
    await signOut(page);
    await firstStep(page);
    const field = page.getByLabel('验证码', { exact: true });
    expect(await field.getAttribute('autocomplete')).toBe('one-time-code');
    await expectAccessible(page);
    await photo(page, 'login-code');
    // The code used to turn it on is spent: the app's next one (within the step either side) signs in.
    await field.fill(appCode(30_000));
    await page.getByRole('button', { name: '验证', exact: true }).click();
    await visible(page.getByRole('navigation', { name: '主导航' }));
  });

  it('takes a recovery code instead, once', async () => {
    const { page } = person;
    await signOut(page);
    await firstStep(page);
    await page.getByRole('button', { name: '使用恢复码' }).click();
    const field = page.getByLabel('恢复码', { exact: true });
    await visible(field);
    await expectAccessible(page);
    await photo(page, 'login-recovery');
    await field.fill(recovery[0]!);
    await page.getByRole('button', { name: '验证', exact: true }).click();
    await visible(page.getByRole('navigation', { name: '主导航' }));

    // The same recovery code does not work twice.
    await signOut(page);
    await firstStep(page);
    await page.getByRole('button', { name: '使用恢复码' }).click();
    await page.getByLabel('恢复码', { exact: true }).fill(recovery[0]!);
    await page.getByRole('button', { name: '验证', exact: true }).click();
    await visible(page.getByText('验证码错误或已过期').first());
    await photo(page, 'login-recovery-used');
  });
});
