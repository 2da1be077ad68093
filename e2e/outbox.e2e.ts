import type { Browser, BrowserContext, Locator, Page, WebSocketRoute } from 'playwright-core';
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
  socketBound,
  visible,
  WAIT,
} from './harness';
import { bubble } from './people';
import { pdf, png } from './media-files';

/** What the one who accepts a friend request says first (friend.greeting). */
const GREETING = '我通过了你的朋友验证请求，现在我们可以开始聊天了';

/**
 * The outbox: what I send while the server cannot be reached is kept on the device, through a
 * reload, and sent by itself once the server is back — once, in the order sent; a message the
 * server refuses for a rule says why and is not sent again by itself.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let groupId: string;

/** Bob's socket goes through here, so that a test can cut it while HTTP still works. */
const bobSockets = new Set<WebSocketRoute>();
let bobCut = false;
let serverDown = false;

/** How long a socket takes to find a restarted server: its back-off waits up to 15 s between tries. */
const RECONNECT = { timeout: 45_000 };

function row(page: Page, text: string): Locator {
  return page.locator('.msg').filter({ has: page.getByText(text, { exact: true }) });
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: '输入消息' }).fill(text);
  await page.locator('.composer').getByRole('button', { name: '发送' }).click();
  await visible(bubble(page, text));
}

/** Picks files through a tile of the "+" panel that opens the file chooser. */
async function pick(page: Page, tile: string, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const grid = page.getByRole('group', { name: '更多功能', exact: true });
  if (!(await grid.isVisible())) await page.getByRole('button', { name: '更多功能', exact: true }).click();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    grid.getByRole('button', { name: tile, exact: true }).click(),
  ]);
  await chooser.setFiles(files);
}

async function openChat(page: Page, key: string, title: RegExp): Promise<void> {
  await page.goto(`${server.url}/#/pages/message/chat?id=${key}`);
  await visible(page.getByRole('heading', { level: 1, name: title }));
}

/** sendMessage calls a page makes for a text, counted as the server receives them. */
function countSends(page: Page, text: string): () => number {
  let n = 0;
  page.on('request', (req) => {
    if (req.url().endsWith('/enterprise/im/sendMessage') && (req.postData() ?? '').includes(text)) n++;
  });
  return () => n;
}

async function person(account: string, name: string, context?: BrowserContext): Promise<Person> {
  const { id, token } = await server.register(account, name);
  const ctx = context ?? (await phoneContext(browser));
  const page = await ctx.newPage();
  await signIn(server, page, account);
  return { account, name, id, token, context: ctx, page };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await person('alice_outbox', 'Alice');
  const bobContext = await phoneContext(browser);
  await bobContext.routeWebSocket(/\/wss$/, (ws) => {
    if (bobCut) {
      void ws.close({ code: 4000, reason: 'cut' });
      return;
    }
    ws.connectToServer();
    bobSockets.add(ws);
  });
  bob = await person('bob_outbox', 'Bob', bobContext);
  const carol = await server.register('carol_outbox', 'Carol');
  await befriend(server, alice, bob);
  await befriend(server, alice, carol);
  groupId = (
    await server.post<{ id: string }>(
      '/enterprise/group/add',
      { user_ids: [bob.id, carol.id], name: 'outbox 群' },
      alice.token,
    )
  ).id;
});

afterEach(async ({ task }) => {
  // A test that failed while the server was stopped leaves it running for the next.
  if (serverDown) {
    await server.boot();
    serverDown = false;
  }
  if (task.result?.state !== 'fail') return;
  const step = task.name.slice(0, 24).replace(/\W+/g, '-');
  for (const p of [alice, bob]) if (p) await shot(p.page, `outbox-failed-${step}-${p.account}`).catch(() => {});
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('outbox', () => {
  it('keeps what was sent while the server was down through a reload, and sends it once, in order, when it is back', async () => {
    const a = alice.page;
    const b = bob.page;
    await openChat(a, String(bob.id), /^Bob$/);
    await openChat(b, String(alice.id), /^Alice$/);
    await send(a, 'before outage');
    await visible(bubble(b, 'before outage'));
    // The installed app's service worker serves the page while the server is down.
    await a.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, WAIT);

    await server.stop();
    serverDown = true;
    await send(a, 'first during outage');
    // Files wait with their bytes: a picture and a document between two texts.
    await pick(a, '相册', [{ name: 'outage.png', mimeType: 'image/png', buffer: png(320, 200, [200, 60, 40]) }]);
    await visible(a.locator('.bubble-image'));
    await pick(a, '文件', [{ name: 'outage.pdf', mimeType: 'application/pdf', buffer: pdf(2000) }]);
    await visible(a.getByText('outage.pdf', { exact: true }));
    await send(a, 'sent during outage');
    await visible(row(a, 'sent during outage').getByRole('button', { name: '重新发送' }));

    // What was sent and not stored survives the reload, the picture drawn again from its bytes.
    await a.reload();
    await visible(bubble(a, 'first during outage'));
    await expect
      .poll(() => a.locator('.bubble-image img').evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT)
      .toBe(320);
    await visible(a.getByText('outage.pdf', { exact: true }));
    await visible(row(a, 'sent during outage').getByText('未发送，连接恢复后自动发送'));
    await visible(a.getByRole('button', { name: '重新发送' }).first());
    await shot(a, 'outbox-waiting-375');
    await expectAccessible(a);

    // The conversation list says so too.
    await a.goto(`${server.url}/#/pages/index/index`);
    const conversation = a.getByRole('link', { name: /^Bob,/ });
    await visible(conversation);
    await expect.poll(() => conversation.getAttribute('aria-label'), WAIT).toContain('[发送失败], sent during outage');
    await shot(a, 'outbox-list-375');
    await conversation.click();
    await visible(bubble(a, 'sent during outage'));

    await server.boot();
    serverDown = false;
    await bubble(b, 'first during outage')
      .first()
      .waitFor({ state: 'visible', ...RECONNECT });
    await bubble(b, 'sent during outage')
      .first()
      .waitFor({ state: 'visible', ...RECONNECT });
    await hidden(a.getByText('未发送，连接恢复后自动发送').first());
    // Any copy (the push, the catch-up, a second try) has time to show before counting.
    await b.waitForTimeout(2000);
    const order = await b
      .locator('.bubble')
      .evaluateAll(
        (bubbles, known) =>
          bubbles.map((el) =>
            el.classList.contains('bubble-image')
              ? 'picture'
              : el.textContent.includes('outage.pdf')
                ? 'file'
                : (known.find((t) => el.textContent.includes(t)) ?? el.textContent),
          ),
        [GREETING, 'before outage', 'first during outage', 'sent during outage'],
      );
    // The chat opened with the greeting of the accepted friend request.
    expect(order).toEqual([GREETING, 'before outage', 'first during outage', 'picture', 'file', 'sent during outage']);
    // Sent, once: a reload shows each once and nothing waiting.
    await a.reload();
    await visible(bubble(a, 'sent during outage'));
    expect(await bubble(a, 'sent during outage').count()).toBe(1);
    expect(await a.getByRole('button', { name: '重新发送' }).count()).toBe(0);
  }, 180_000);

  it('shows why the server refused a message (muted) and does not send it again by itself', async () => {
    const b = bob.page;
    await openChat(b, groupId, /^outbox 群/);
    await visible(b.getByRole('textbox', { name: '输入消息' }));
    // Bob's socket is cut, so the client does not learn of the mute before he sends.
    bobCut = true;
    for (const ws of bobSockets) await ws.close({ code: 4000, reason: 'cut' });
    bobSockets.clear();
    await server.post('/enterprise/group/setNoSpeak', { id: groupId, user_id: bob.id, noSpeakTimer: 1 }, alice.token);

    const sends = countSends(b, 'said while muted');
    await send(b, 'said while muted');
    const reason = row(b, 'said while muted').getByText(/^未发送：你已被禁言/);
    await visible(reason);
    await shot(b, 'outbox-refused-375');
    expect(sends()).toBe(1);

    // The socket is bound again: what waits for the connection goes, a refused message does not.
    bobCut = false;
    const bound = socketBound(b);
    await b.reload();
    await bound;
    await visible(row(b, 'said while muted').getByText(/^未发送：你已被禁言/));
    await b.waitForTimeout(2000);
    expect(sends()).toBe(1);
    await expectAccessible(b);
    const alicePage = alice.page;
    await openChat(alicePage, groupId, /^outbox 群/);
    await alicePage.waitForTimeout(500);
    expect(await bubble(alicePage, 'said while muted').count()).toBe(0);
  });

  it('shows a message on its way as sending, in the chat and in the conversation list', async () => {
    const a = alice.page;
    await openChat(a, String(bob.id), /^Bob$/);
    // The request is held on its way to the real server, so that the picture catches the state.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await a.route('**/enterprise/im/sendMessage', async (route) => {
      await held;
      await route.continue();
    });
    await send(a, 'on its way');
    await visible(row(a, 'on its way').getByRole('status', { name: '发送中' }));
    await shot(a, 'outbox-sending-375');
    await a.goto(`${server.url}/#/pages/index/index`);
    const conversation = a.getByRole('link', { name: /^Bob,/ });
    await expect.poll(() => conversation.getAttribute('aria-label'), WAIT).toContain('[发送中], on its way');
    await shot(a, 'outbox-list-sending-375');
    await expectAccessible(a);
    const answered = a.waitForResponse('**/enterprise/im/sendMessage');
    release();
    await answered;
    await a.unroute('**/enterprise/im/sendMessage');
    await expect.poll(() => conversation.getAttribute('aria-label'), WAIT).not.toContain('[发送中]');
    await openChat(bob.page, String(alice.id), /^Alice$/);
    await visible(bubble(bob.page, 'on its way'));
  });
});
