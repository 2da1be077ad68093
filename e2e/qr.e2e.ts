import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parseQrLink, qrLink, QR_VALID_MS } from '@sparrow/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QrTokens } from '../packages/server/src/modules/qr/tokens';
import {
  expectAccessible,
  launchBrowser,
  newPerson,
  noToasts,
  PASSWORD,
  type Person,
  phoneContext,
  ServerProcess,
  shot,
  SHOTS_DIR,
  signIn,
  toast,
  visible,
  WAIT,
  befriend,
} from './harness';
import { png } from './media-files';
import { codePng, readPng, y4mFrame } from './qr-media';

/**
 * Issue 19, browser: A shows 我的二维码 and saves it; the picture holds A's code. B scans it with
 * the camera (Chromium's fake camera plays a frame made from A's picture), lands on A's card and
 * asks to be friends; A accepts. C picks a saved group code from the album and joins; the members
 * see the join line. An expired code, a web address and plain text are each handled as the scan
 * page promises; a refused camera offers the album; a signed-out visitor signs in and comes back.
 */

let server: ServerProcess;
let browser: Browser;
let cameraBrowser: Browser | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-qr-e2e-'));

let alice: Person;
let bob: Person;
let carl: Person;
let dora: { id: number; token: string };
/** Alice's code as her saved picture holds it. */
let aliceCode: string;
let groupId: string;
/** The group's code as saved from 群二维码. */
let groupPicture: string;

function heading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

/** Audits and photographs the page once toasts have faded. */
async function check(page: Page, name: string): Promise<void> {
  await noToasts(page);
  await shot(page, name);
  await expectAccessible(page);
}

/** Clicks "save image" and keeps the downloaded PNG. */
async function saveImage(page: Page, file: string): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download', WAIT),
    page.getByRole('button', { name: '保存图片' }).click(),
  ]);
  const target = path.join(tmp, file);
  await download.saveAs(target);
  // Kept beside the screenshots: the picture a person would share.
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  fs.copyFileSync(target, path.join(SHOTS_DIR, `qr-saved-${file}`));
  return fs.readFileSync(target);
}

/** Opens 扫一扫 from the Discover tab. */
async function openScan(page: Page): Promise<void> {
  await page.goto(`${server.url}/#/pages/index/index?tab=discover`);
  await page.getByRole('link', { name: '扫一扫' }).click();
  await visible(heading(page, '扫一扫'));
}

/** Picks a picture on the scan page's album button. */
async function pickPicture(page: Page, bytes: Buffer, name: string): Promise<void> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  await page.getByLabel('相册').setInputFiles(file);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await newPerson(server, browser, 'qr_alice', 'Alice');
  carl = await newPerson(server, browser, 'qr_carl', 'Carl');
  dora = await server.register('qr_dora', 'Dora');
});

afterAll(async () => {
  await cameraBrowser?.close();
  await browser?.close();
  await server?.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('QR codes: show, save, scan, add and join', () => {
  it('A shows 我的二维码 from Me and saves it; the picture decodes to A’s qrUrl', async () => {
    const page = alice.page;
    await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: /^我/ }).click();
    await page.getByRole('link', { name: '我的二维码' }).click();
    await visible(heading(page, '我的二维码'));
    await visible(page.getByRole('img', { name: 'Alice 的二维码' }));
    await visible(page.getByText('扫一扫上面的二维码图案，加我为朋友'));
    await check(page, 'qr-mycode');

    const qrUrl = await page.evaluate(() => (JSON.parse(localStorage.getItem('userInfo')!) as { qrUrl: string }).qrUrl);
    expect(parseQrLink(qrUrl)).toMatchObject({ base: server.url, kind: 'user' });
    const picture = await saveImage(page, 'alice-code.png');
    aliceCode = readPng(picture)!;
    expect(aliceCode).toBe(qrUrl);
    // The code on screen is the same one.
    const shown = await page.getByRole('img', { name: 'Alice 的二维码' }).getAttribute('src');
    expect(readPng(Buffer.from(shown!.split(',')[1]!, 'base64'))).toBe(qrUrl);

    // Camera frames for B: A's saved picture, as a phone pointed at it would see it.
    fs.writeFileSync(path.join(tmp, 'alice-code.y4m'), y4mFrame(picture));
  });

  it('B scans A’s code with the camera, lands on A’s card and asks to be friends; A accepts', async () => {
    cameraBrowser = await launchBrowser([`--use-file-for-fake-video-capture=${path.join(tmp, 'alice-code.y4m')}`]);
    bob = await newPerson(server, cameraBrowser, 'qr_bob', 'Bob');
    const page = bob.page;
    await page.getByRole('button', { name: '更多功能' }).click();
    await page.getByRole('menuitem', { name: '扫一扫' }).click();
    // The camera finds the code by itself and opens the page it names.
    await visible(heading(page, '用户分享'));
    expect(page.url()).toBe(
      `${server.url}/#/pages/index/myqrcode?token=${encodeURIComponent(parseQrLink(aliceCode)!.token)}`,
    );
    const card = page.getByRole('region', { name: 'Alice' });
    await visible(card);
    await check(page, 'qr-myqrcode');
    await card.getByLabel('发送添加朋友申请').fill('扫码认识的 Bob');
    await card.getByRole('button', { name: '发送', exact: true }).click();
    await visible(card.getByText('已发送，等待对方验证'));

    const a = alice.page;
    await a.goto(`${server.url}/#/pages/contacts/friend`);
    await visible(a.getByText('扫码认识的 Bob'));
    await a.getByRole('button', { name: '接受 Bob 的请求' }).click();
    await visible(a.getByText('已添加'));
    // Scanned again, the card offers a message instead.
    await page.reload();
    await visible(page.getByRole('region', { name: 'Alice' }).getByRole('button', { name: '发消息' }));
  });

  it('C picks a saved group code from the album and joins; the members see the join line', async () => {
    await befriend(server, alice, dora);
    const made = await server.post<{ id: string }>(
      '/enterprise/group/add',
      { user_ids: [bob.id, dora.id] },
      alice.token,
    );
    groupId = made.id;

    // A saves the group's code from the chat's info page.
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/detail?id=${groupId}`);
    await a.getByRole('link', { name: '群二维码' }).click();
    await visible(heading(a, '群二维码'));
    await visible(a.getByText('3 位成员'));
    await visible(a.getByRole('img', { name: /的二维码$/ }));
    await check(a, 'qr-qrcode');
    const picture = await saveImage(a, 'group-code.png');
    expect(parseQrLink(readPng(picture)!)).toMatchObject({ base: server.url, kind: 'group' });
    groupPicture = path.join(tmp, 'group-code.png');

    // B has the group's chat open.
    const b = bob.page;
    await b.goto(`${server.url}/#/pages/message/chat?id=${groupId}`);
    await visible(b.getByRole('textbox').first());

    const page = carl.page;
    await openScan(page);
    // Chromium's own fake camera here: a moving test picture with no code in it.
    await visible(page.getByText('将二维码放入框内，即可自动扫描'));
    await check(page, 'qr-scan');
    await page.getByLabel('相册').setInputFiles(groupPicture);
    await visible(heading(page, '群分享'));
    const card = page.getByRole('region', { name: /Alice/ });
    await visible(card.getByText('3 位成员'));
    await check(page, 'qr-qqrcode');
    await card.getByRole('button', { name: '加入群聊' }).click();
    await page.waitForURL(`**/pages/message/chat?id=${groupId}`, WAIT);
    await visible(page.getByText('你通过扫描二维码加入了群聊'));

    await visible(b.getByText('Carl通过扫描二维码加入了群聊'));
    await shot(b, 'qr-join-line');
    // The owner scanning the group's own code goes straight to the chat.
    await openScan(a);
    await a.getByLabel('相册').setInputFiles(groupPicture);
    await a.waitForURL(`**/pages/message/chat?id=${groupId}`, WAIT);
  });

  it('an expired code says so; a web address opens the in-app browser; other text is shown to copy', async () => {
    const page = carl.page;
    await carl.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

    // A group code made eight days ago, signed with this server's own secret.
    const db = new Database(path.join(server.dataDir, 'sparrow.db'), { readonly: true });
    const secret = (db.prepare("SELECT value FROM config WHERE key = '_secret'").get() as { value: string }).value;
    db.close();
    const old = new QrTokens(
      () => secret,
      () => Date.now() - QR_VALID_MS - 86_400_000,
    );
    const expired = qrLink(server.url, 'group', old.sign('group', Number(groupId.slice('group-'.length))).token);
    await openScan(page);
    await pickPicture(page, await codePng(expired), 'expired.png');
    await visible(heading(page, '群分享'));
    await visible(page.getByRole('alert').getByText('二维码已过期，请让对方刷新后重新分享'));
    await check(page, 'qr-expired');

    await openScan(page);
    await pickPicture(page, await codePng('https://example.org/qr-landing?from=scan'), 'web.png');
    await visible(heading(page, 'example.org'));
    expect(decodeURIComponent(page.url())).toContain(
      '/pages/mine/webview?url=https://example.org/qr-landing?from=scan',
    );
    await expect
      .poll(() => page.locator('iframe').getAttribute('src'), WAIT)
      .toBe('https://example.org/qr-landing?from=scan');

    await openScan(page);
    await pickPicture(page, await codePng('WIFI:S:Sparrow 办公室;T:WPA;P:secret;;'), 'text.png');
    await visible(page.getByRole('heading', { name: '扫描结果' }));
    await visible(page.getByText('WIFI:S:Sparrow 办公室;T:WPA;P:secret;;'));
    await check(page, 'qr-text');
    await page.getByRole('button', { name: '复制' }).click();
    await visible(toast(page, '已复制'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('WIFI:S:Sparrow 办公室;T:WPA;P:secret;;');

    // A picture with no code in it.
    await page.getByRole('button', { name: '继续扫描' }).click();
    await pickPicture(page, png(64, 64, [200, 60, 60]), 'plain.png');
    await visible(toast(page, '图片中没有找到二维码'));
  });

  it('a refused camera says so and offers the album', async () => {
    const context = await phoneContext(browser);
    await context.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    const page = await context.newPage();
    await signIn(server, page, carl.account);
    await page.goto(`${server.url}/#/pages/index/scan`);
    await visible(page.getByRole('alert').getByText(/没有获得相机权限/));
    await check(page, 'qr-scan-denied');
    await page.getByLabel('相册').setInputFiles(path.join(tmp, 'alice-code.png'));
    await visible(heading(page, '用户分享'));
    await context.close();
  });

  it('a signed-out visitor who opens a landing link signs in and comes back to it', async () => {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(aliceCode);
    await visible(heading(page, '登录'));
    await page.getByLabel('账号', { exact: true }).fill('qr_dora');
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await visible(heading(page, '用户分享'));
    await visible(page.getByRole('region', { name: 'Alice' }).getByRole('button', { name: '发消息' }));
    await context.close();
  });
});
