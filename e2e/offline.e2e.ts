import fs from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  hidden,
  launchBrowser,
  type Person,
  phoneContext,
  ServerProcess,
  shot,
  signIn,
  visible,
  WAIT,
} from './harness';
import { bubble } from './people';

/**
 * Offline (issue 40): with the server stopped, the app opens from the device's local store, shows
 * the Messages list and a chat's messages, says it is offline, searches what is stored, and keeps
 * what is sent; back online it catches up through `sync` and sends each message once. Signing out
 * leaves nothing of the user in the store, and the next account sees none of it, offline either.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: { id: number; token: string };
let serverDown = false;
/** Alice's sockets are refused while set, so that what Bob sends meanwhile reaches her only by `sync`. */
let aliceCut = false;

/** How long a socket takes to find a restarted server: its back-off waits up to 15 s between tries. */
const RECONNECT = { timeout: 45_000 };
const SHOTS = '/tmp/shots';

async function offlineShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/offline-${name}.png` });
  await shot(page, `offline-${name}`);
}

function row(page: Page, text: string): Locator {
  return page.locator('.msg').filter({ has: page.getByText(text, { exact: true }) });
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: '输入消息' }).fill(text);
  await page.locator('.composer').getByRole('button', { name: '发送' }).click();
  await visible(bubble(page, text));
}

/** Bob sends a text to Alice over the API. */
async function bobSays(text: string): Promise<string> {
  const id = crypto.randomUUID();
  await server.post(
    '/enterprise/im/sendMessage',
    { id, toContactId: alice.id, type: 'text', content: text },
    bob.token,
  );
  return id;
}

/** The texts of Bob's chat with Alice, as the server has them, oldest first. */
async function bobsHistory(): Promise<string[]> {
  const list = await server.post<Array<{ content: string }>>(
    '/enterprise/im/getMessageList',
    { toContactId: alice.id, is_group: 0, limit: 100 },
    bob.token,
  );
  return list.map((m) => m.content);
}

/** How many rows of each object store of the page's local store belong to `userId`. */
function storedRows(page: Page, userId: number): Promise<Record<string, number>> {
  return page.evaluate(async (user) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('sparrow');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error as Error);
    });
    const counts: Record<string, number> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      if (name === 'meta') continue;
      const range = IDBKeyRange.bound([user], [user, []]);
      counts[name] = await new Promise<number>((resolve, reject) => {
        const req = db.transaction(name).objectStore(name).count(range);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error as Error);
      });
    }
    db.close();
    return counts;
  }, userId);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  const context = await phoneContext(browser);
  await context.routeWebSocket(/\/wss$/, (ws) => {
    if (aliceCut) {
      void ws.close({ code: 4000, reason: 'cut' });
      return;
    }
    ws.connectToServer();
  });
  const a = await server.register('alice_offline', 'Alice');
  bob = await server.register('bob_offline', 'Bob');
  await server.register('carol_offline', 'Carol');
  const page = await context.newPage();
  await signIn(server, page, 'alice_offline');
  alice = { account: 'alice_offline', name: 'Alice', id: a.id, token: a.token, context, page };
  await befriend(server, alice, bob);
});

afterEach(async ({ task }) => {
  if (serverDown) {
    await server.boot();
    serverDown = false;
  }
  aliceCut = false;
  if (task.result?.state === 'fail') await shot(alice.page, `offline-failed-${task.name.slice(0, 20)}`).catch(() => {});
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('offline', () => {
  it('opens from the local store without the server, searches it, and catches up once it is back', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await visible(page.getByRole('heading', { level: 1, name: /^Bob$/ }));
    await bobSays('明天下午开会讨论预算');
    await visible(bubble(page, '明天下午开会讨论预算'));
    await send(page, '好的，我会准时到');
    // What the server takes back is taken back from the device's copy too.
    const undone = await bobSays('这句说错了');
    await visible(bubble(page, '这句说错了'));
    await server.post('/enterprise/im/undoMessage', { id: undone }, bob.token);
    await hidden(bubble(page, '这句说错了'));
    // Withdrawn later, while Alice is away: only reading the chat again tells her.
    const withdrawnAway = await bobSays('等你回来时已撤回');
    await visible(bubble(page, '等你回来时已撤回'));
    // The installed app's service worker serves the page while the server is down.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, WAIT);
    // The list and the messages are in the store (the list is written moments after it changes).
    await expect
      .poll(() => storedRows(page, alice.id), WAIT)
      .toMatchObject({ conversations: expect.any(Number) as number, messages: 5 });
    expect((await storedRows(page, alice.id)).conversations).toBeGreaterThan(0);

    await server.stop();
    serverDown = true;
    await page.goto(`${server.url}/#/pages/index/index`);
    await page.reload();
    const conversation = page.getByRole('link', { name: /^Bob,/ });
    await visible(conversation);
    await expect.poll(() => conversation.getAttribute('aria-label'), WAIT).toContain('等你回来时已撤回');
    await visible(page.getByRole('status').filter({ hasText: /正在连接|连接已断开/ }));
    await offlineShot(page, 'list');
    await expectAccessible(page);

    await conversation.click();
    await visible(page.getByRole('heading', { level: 1, name: /^Bob$/ }));
    await visible(bubble(page, '明天下午开会讨论预算'));
    await visible(bubble(page, '好的，我会准时到'));
    await visible(bubble(page, '等你回来时已撤回'));
    expect(await page.getByText('消息加载失败').count()).toBe(0);
    expect(await page.getByText('这句说错了').count()).toBe(0);
    await offlineShot(page, 'chat');

    // Search: the server cannot answer, the stored messages do, Chinese found inside a word.
    await page.goto(`${server.url}/#/pages/index/search`);
    await page.getByRole('searchbox').fill('午开会');
    const local = page.getByRole('region', { name: '聊天记录（本机，未连接服务器）' });
    await visible(local);
    const hit = local.getByRole('link', { name: /Bob/ });
    await visible(hit);
    await visible(hit.locator('mark', { hasText: '午开会' }));
    await offlineShot(page, 'search');
    await expectAccessible(page);
    await hit.click();
    await visible(page.getByRole('heading', { level: 1, name: /^Bob$/ }));
    await visible(bubble(page, '明天下午开会讨论预算'));

    // Sent while offline: kept, marked as waiting.
    await send(page, 'offline one');
    await send(page, 'offline two');
    await visible(row(page, 'offline two').getByRole('button', { name: '重新发送' }));
    await offlineShot(page, 'pending');

    // Back: Bob writes while Alice's socket is still away, so that it reaches her by `sync` only.
    aliceCut = true;
    await server.boot();
    serverDown = false;
    await bobSays('你不在的时候我说的');
    await server.post('/enterprise/im/undoMessage', { id: withdrawnAway }, bob.token);
    const syncs: string[] = [];
    const pages: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/enterprise/im/sync')) syncs.push(req.postData() ?? '');
      if (req.url().endsWith('/enterprise/im/getMessageList')) pages.push(req.postData() ?? '');
    });
    aliceCut = false;
    await bubble(page, '你不在的时候我说的').waitFor({ state: 'visible', ...RECONNECT });
    await hidden(page.getByRole('button', { name: '重新发送' }).first());
    expect(syncs.length).toBeGreaterThan(0);
    // The chat shown from the store reads its newest page again: a withdrawal made while away shows.
    await hidden(bubble(page, '等你回来时已撤回'));
    await expect.poll(() => page.getByText(/Bob\s*撤回了一条消息/).count(), WAIT).toBe(2);
    expect(pages.length).toBeGreaterThan(0);
    await page.waitForTimeout(1500);
    // Each message arrives once, by `sync` and by the page read again alike.
    expect(await bubble(page, '你不在的时候我说的').count()).toBe(1);
    expect(await bubble(page, '明天下午开会讨论预算').count()).toBe(1);
    const history = await bobsHistory();
    expect(history.filter((t) => t === 'offline one')).toHaveLength(1);
    expect(history.filter((t) => t === 'offline two')).toHaveLength(1);
    expect(history.slice(-3)).toEqual(['你不在的时候我说的', 'offline one', 'offline two']);
    expect(await bubble(page, 'offline one').count()).toBe(1);
    await offlineShot(page, 'back');
  }, 180_000);

  it('signing out leaves nothing of the user in the store; the next account sees none of it, offline too', async () => {
    const page = alice.page;
    expect((await storedRows(page, alice.id)).messages).toBeGreaterThan(0);
    await page.goto(`${server.url}/#/pages/mine/setting`);
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '退出登录' }).click();
    await visible(page.getByRole('button', { name: '登录', exact: true }));
    expect(await storedRows(page, alice.id)).toEqual({ conversations: 0, messages: 0, chats: 0, outbox: 0 });

    await signIn(server, page, 'carol_offline');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, WAIT);
    await server.stop();
    serverDown = true;
    await page.reload();
    await visible(page.getByRole('navigation', { name: '主导航' }));
    await visible(page.getByRole('status').filter({ hasText: /正在连接|连接已断开/ }));
    // The stored list has had its moment to show (it shows within a frame or two of the start).
    await page.waitForTimeout(1500);
    expect(await page.getByRole('link', { name: /^Bob,/ }).count()).toBe(0);
    expect(await page.getByText('明天下午开会讨论预算').count()).toBe(0);
    // Nothing of Alice's chat with Bob is kept for Carol: it cannot load.
    await page.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await visible(page.getByText('消息加载失败'));
    expect(await page.getByText('明天下午开会讨论预算').count()).toBe(0);
    expect(await storedRows(page, alice.id)).toEqual({ conversations: 0, messages: 0, chats: 0, outbox: 0 });
    await offlineShot(page, 'other-account');
  }, 120_000);
});
