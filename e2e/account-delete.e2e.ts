import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, type Person, type ServerProcess, visible, WAIT } from './harness';
import { bubble, checkPage as check, openBrowser, phoneSuite, registerFriends, say } from './people';

/**
 * Issue 39, a user's own data, in the browser at 375 px: Alice downloads her data from Settings →
 * 账号与安全 → 下载我的数据 (requested, prepared with its progress, the archive a zip), then deletes
 * her account there (注销账号) and lands on the login page; Bob's chat with her shows 已注销用户.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carl: Person;

const HELLO = '周五的会议改到下午三点';

phoneSuite(
  'account-delete',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carl],
);

beforeAll(async () => {
  const [a, b, c] = await registerFriends(server, [
    ['alice_gone', 'Alice'],
    ['bob_stays', 'Bob'],
    ['carl_reads', 'Carl'],
  ]);
  await say(server, a, b.id, HELLO);
  alice = await openBrowser(server, browser, a);
  bob = await openBrowser(server, browser, b);
  carl = await openBrowser(server, browser, c, 'en');
});

describe('my data and my account', () => {
  it('downloads my data: asked for, prepared with its progress, then a zip to download', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/mine/secure`);
    await a.getByRole('link', { name: '下载我的数据' }).click();
    await visible(a.getByRole('button', { name: '申请下载' }));
    await check(a, 'account-delete-00-export-zh');
    await a.getByRole('button', { name: '申请下载' }).click();
    const download = a.getByRole('button', { name: '下载', exact: true });
    await visible(download);
    await expect.poll(() => a.getByText(/可下载至/).count(), WAIT).toBe(1);
    await check(a, 'account-delete-01-export-ready-zh');
    // The archive, fetched as the page does with the session: a zip.
    const got = await a.evaluate(async () => {
      const status = await fetch('/enterprise/account/exportStatus', {
        method: 'POST',
        headers: { Authorization: localStorage.getItem('authToken') ?? '', 'Content-Type': 'application/json' },
        body: '{}',
      }).then((r) => r.json() as Promise<{ data: { url: string } }>);
      const res = await fetch(status.data.url, { headers: { Authorization: localStorage.getItem('authToken') ?? '' } });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        magic: String.fromCharCode(bytes[0]!, bytes[1]!),
      };
    });
    expect(got).toEqual({ status: 200, type: 'application/zip', magic: 'PK' });
    // Someone else asking for it is told it does not exist.
    const other = await bob.page.evaluate(async (url) => {
      const res = await fetch(url, { headers: { Authorization: localStorage.getItem('authToken') ?? '' } });
      return res.status;
    }, `/enterprise/account/exportDownload?id=1`);
    expect(other).toBe(404);
  });

  it('shows both pages in English, at 375 px and accessible', async () => {
    const c = carl.page;
    await c.goto(`${server.url}/#/pages/mine/secure`);
    await c.getByRole('link', { name: 'Download my data' }).click();
    await visible(c.getByRole('button', { name: 'Request download' }));
    await check(c, 'account-delete-04-export-en');
    await c.goto(`${server.url}/#/pages/mine/secure`);
    await c.getByRole('link', { name: 'Delete account' }).click();
    await visible(c.getByLabel('Current password'));
    await check(c, 'account-delete-05-delete-en');
  });

  it('deletes my account after my password and a confirmation; the friend sees 已注销用户', async () => {
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/mine/secure`);
    await a.getByRole('link', { name: '注销账号' }).click();
    await visible(a.getByLabel('当前密码'));
    await check(a, 'account-delete-02-delete-zh');
    await a.getByLabel('当前密码').fill(PASSWORD);
    await a.getByRole('button', { name: '注销账号' }).click();
    const dialog = a.getByRole('dialog');
    await visible(dialog);
    await dialog.getByRole('button', { name: '注销' }).click();
    await a.waitForURL(/pages\/login\/login/, WAIT);

    const b = bob.page;
    await b.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await visible(bubble(b, HELLO));
    await expect.poll(() => b.getByText('已注销用户').count(), WAIT).toBeGreaterThan(0);
    await check(b, 'account-delete-03-friend-chat-zh');

    // A sign-in with the deleted account is refused as for an account that does not exist.
    const refusal = (account: string) =>
      server.post('/common/Pub/login', { account, password: PASSWORD }).then(
        () => 'signed in',
        (err: Error) => err.message.replace(/^[^:]*: /, ''),
      );
    expect(await refusal(alice.account)).toBe(await refusal('nobody_here'));
  });
});
