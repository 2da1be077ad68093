import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page, WebSocketRoute } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  noToasts,
  pageArea,
  type Person,
  phoneContext,
  ServerProcess,
  shot,
  signIn,
  socketBound,
  toast,
  visible,
  WAIT,
  befriend,
} from './harness';
import { bubble, openMessageMenu, sendText } from './people';

/**
 * Issue 4, browser: two people chat in real time — text, emoji, quote, mention, withdraw,
 * delete —; a third person joins a group; a reload in the middle of a conversation keeps the
 * draft and the history; a phone that goes offline and comes back shows what was sent meanwhile,
 * each message once.
 */

let server: ServerProcess;
let browser: Browser;

let alice: Person;
let bob: Person;
let carol: { id: number; token: string; name: string };
let dave: Person;

/** Bob's socket goes through here, so that the test can cut it like a lost network. */
const bobSockets = new Set<WebSocketRoute>();
let bobOffline = false;

/** Signs in through the login page in a browser context of its own. */
async function signedIn(
  who: { id: number; token: string; name: string },
  account: string,
  context: BrowserContext,
): Promise<Person> {
  const page = await context.newPage();
  await signIn(server, page, account);
  return { ...who, account, context, page };
}

async function messageMenu(page: Page, text: string, action: string): Promise<void> {
  const menu = await openMessageMenu(page, bubble(page, text));
  await menu.getByRole('menuitem', { name: action, exact: true }).click();
}

/** Waits for toasts and dialogs to stop moving before a picture. */
async function still(page: Page): Promise<void> {
  await page.waitForTimeout(400);
}

async function backHome(page: Page): Promise<void> {
  await pageArea(page)
    .getByRole('button', { name: /^(返回|Back)$/ })
    .click();
  await visible(page.getByRole('navigation', { name: /主导航|Main/ }));
}

function conversation(page: Page, name: string): Locator {
  return page.getByRole('link', { name: new RegExp(`^${name},`) });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  const a = await server.register('alice_chat', 'Alice');
  const b = await server.register('bob_chat', 'Bob');
  carol = await server.register('carol_chat', 'Carol');
  const d = await server.register('dave_chat', 'Dave');
  await befriend(server, a, b);
  await befriend(server, a, carol);
  await befriend(server, a, d);
  await befriend(server, b, carol);

  alice = await signedIn(a, 'alice_chat', await phoneContext(browser));
  const bobContext = await phoneContext(browser);
  await bobContext.routeWebSocket(/\/wss$/, (ws) => {
    if (bobOffline) {
      void ws.close({ code: 4000, reason: 'offline' });
      return;
    }
    ws.connectToServer();
    bobSockets.add(ws);
  });
  bob = await signedIn(b, 'bob_chat', bobContext);

  // Dave reads English: signed in by token, the language chosen before the app starts.
  const daveContext = await phoneContext(browser, 'en-US');
  await daveContext.addInitScript(
    ([token, id]) => {
      if (localStorage.getItem('authToken')) return;
      localStorage.setItem('authToken', token);
      localStorage.setItem('userInfo', JSON.stringify({ user_id: id, id, account: 'dave_chat', realname: 'Dave' }));
      localStorage.setItem('language', 'en');
    },
    [d.token, d.id] as const,
  );
  const davePage = await daveContext.newPage();
  const bound = socketBound(davePage);
  await davePage.goto(`${server.url}/#/pages/index/index`);
  await visible(davePage.getByRole('navigation', { name: 'Main' }));
  await bound;
  dave = { ...d, account: 'dave_chat', context: daveContext, page: davePage };
});

afterEach(async ({ task }) => {
  // What each screen showed when a step failed, kept beside the other pictures.
  if (task.result?.state !== 'fail') return;
  const step = task.name.slice(0, 24).replace(/\W+/g, '-');
  for (const p of [alice, bob, dave]) if (p) await shot(p.page, `chat-failed-${step}-${p.account}`).catch(() => {});
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('chat in real time', () => {
  it('A writes to B from Contacts; B sees it arrive, opens it, and A sees it read', async () => {
    const a = alice.page;
    await a
      .getByRole('navigation', { name: '主导航' })
      .getByRole('button', { name: /通讯录/ })
      .click();
    await a.getByRole('link', { name: /^Bob(, 在线)?$/ }).click();
    await a.getByRole('link', { name: '发消息' }).click();
    await visible(a.getByRole('heading', { level: 1, name: 'Bob' }));
    await expectAccessible(a);
    await sendText(a, '你好，Bob');

    const b = bob.page;
    const row = conversation(b, 'Alice');
    await visible(row);
    await expect.poll(() => row.getAttribute('aria-label'), WAIT).toContain('1 条未读');
    await expectAccessible(b);
    await shot(b, 'chat-messages-tab');
    await row.click();
    await visible(bubble(b, '你好，Bob'));
    await visible(a.getByText('已读', { exact: true }));

    // Emoji from the panel go into the text.
    await b.getByRole('button', { name: '表情', exact: true }).click();
    const panel = b.getByRole('group', { name: '表情面板' });
    await visible(panel);
    await panel.getByRole('button', { name: '😀' }).click();
    await panel.getByRole('button', { name: '🎉' }).click();
    await expect.poll(() => b.getByRole('textbox', { name: '输入消息' }).inputValue(), WAIT).toBe('😀🎉');
    await expectAccessible(b);
    await shot(b, 'chat-emoji-panel');
    await panel.getByRole('button', { name: '发送' }).click();
    await visible(bubble(a, '😀🎉'));
  });

  it('B quotes A; A withdraws a message and edits it again; A deletes one for everyone', async () => {
    const a = alice.page;
    const b = bob.page;
    await messageMenu(b, '你好，Bob', '引用');
    await visible(b.getByText('回复 Alice：你好，Bob'));
    await sendText(b, '收到，我在');
    const quoted = a.locator('.msg').filter({ has: a.getByText('收到，我在', { exact: true }) });
    await visible(quoted.getByText('Alice: 你好，Bob'));

    await sendText(a, '这句说错了');
    await visible(bubble(b, '这句说错了'));
    await messageMenu(a, '这句说错了', '撤回');
    await visible(pageArea(a).getByText(/^你 ?撤回了一条消息/));
    await visible(pageArea(b).getByText(/^Alice ?撤回了一条消息$/));
    await hidden(bubble(b, '这句说错了'));
    await a.getByRole('button', { name: '重新编辑' }).click();
    await expect.poll(() => a.getByRole('textbox', { name: '输入消息' }).inputValue(), WAIT).toBe('这句说错了');
    await a.getByRole('textbox', { name: '输入消息' }).fill('');

    await sendText(a, '马上删掉');
    await visible(bubble(b, '马上删掉'));
    await messageMenu(a, '马上删掉', '删除');
    const dialog = a.getByRole('dialog');
    await visible(dialog);
    await still(a);
    await shot(a, 'chat-delete-confirm');
    await dialog.getByRole('button', { name: '删除', exact: true }).click();
    await hidden(bubble(a, '马上删掉'));
    await hidden(bubble(b, '马上删掉'));
    await still(a);
    await expectAccessible(a);
    await shot(a, 'chat-private');
  });

  it('A starts a group, mentions B; a third person is invited and joins the conversation', async () => {
    const a = alice.page;
    await backHome(a);
    await a.getByRole('button', { name: '更多功能' }).click();
    await a.getByRole('menuitem', { name: '发起群聊' }).click();
    await visible(a.getByRole('heading', { level: 1, name: '发起群聊' }));
    await a.getByRole('checkbox', { name: 'Bob', exact: true }).check();
    await a.getByRole('checkbox', { name: 'Carol', exact: true }).check();
    await expectAccessible(a);
    await a.getByRole('button', { name: '完成(2)' }).click();
    await visible(a.getByRole('heading', { level: 1, name: /Alice、Bob、Carol/ }));
    await visible(pageArea(a).getByText(/^你 ?创建了群聊$/));

    const box = a.getByRole('textbox', { name: '输入消息' });
    await box.pressSequentially('@');
    const picker = a.getByRole('dialog', { name: '选择提醒的人' });
    await visible(picker);
    await expectAccessible(a);
    // On a busy machine the next frame comes late: keys typed before it still go after the name.
    const frame = await a.evaluateHandle(() => window.requestAnimationFrame);
    await a.evaluate((next) => {
      window.requestAnimationFrame = (callback) => window.setTimeout(() => next.call(window, callback), 300);
    }, frame);
    await picker.getByRole('button', { name: 'Bob', exact: true }).click();
    await expect.poll(() => box.inputValue(), WAIT).toBe('@Bob ');
    await box.pressSequentially('请看一下新设计', { delay: 80 });
    await expect.poll(() => box.inputValue(), WAIT).toBe('@Bob 请看一下新设计');
    await a.evaluate((next) => {
      window.requestAnimationFrame = next;
    }, frame);
    await a.locator('.composer').getByRole('button', { name: '发送' }).click();
    await visible(bubble(a, '@Bob 请看一下新设计'));

    const b = bob.page;
    await backHome(b);
    const groupRow = conversation(b, 'Alice、Bob、Carol');
    await visible(groupRow);
    await expect.poll(() => groupRow.getAttribute('aria-label'), WAIT).toContain('[有人@我]');
    await shot(b, 'chat-mentioned');

    // Alice invites Dave from the chat info page; his list gets the group at once.
    await a.getByRole('button', { name: '群聊信息' }).click();
    await visible(a.getByRole('heading', { level: 1, name: /聊天信息/ }));
    await expectAccessible(a);
    await shot(a, 'chat-group-detail');
    await a.getByRole('button', { name: '添加' }).click();
    await a.getByRole('checkbox', { name: 'Dave', exact: true }).check();
    await a.getByRole('button', { name: '完成(1)' }).click();
    await visible(a.getByRole('heading', { level: 1, name: '聊天信息（4）' }));
    await pageArea(a).getByRole('button', { name: '返回' }).click();
    await visible(a.getByRole('heading', { level: 1, name: /Alice、Bob、Carol（4）/ }));

    const d = dave.page;
    const daveRow = conversation(d, 'Alice、Bob、Carol');
    await visible(daveRow);
    await daveRow.click();
    // Event lines come in the language the server keeps for Dave (Chinese by default).
    await visible(pageArea(d).getByText(/^Alice ?(邀请 ?你 ?加入了群聊|invited you to the group)$/));
    await sendText(d, 'Hello everyone');
    await visible(bubble(a, 'Hello everyone'));
    await b.getByRole('link', { name: /^Alice、Bob、Carol,/ }).click();
    await visible(bubble(b, 'Hello everyone'));
    await expectAccessible(d);
    await shot(d, 'chat-group-english');
  });

  it('a reload in the middle of a conversation keeps the draft and the history', async () => {
    const b = bob.page;
    await backHome(b);
    await conversation(b, 'Alice').click();
    await visible(bubble(b, '收到，我在'));
    await b.getByRole('textbox', { name: '输入消息' }).fill('还没写完的话');
    await b.reload();
    await visible(bubble(b, '你好，Bob'));
    await visible(bubble(b, '收到，我在'));
    await expect.poll(() => b.getByRole('textbox', { name: '输入消息' }).inputValue(), WAIT).toBe('还没写完的话');
    await backHome(b);
    await expect.poll(() => conversation(b, 'Alice').getAttribute('aria-label'), WAIT).toContain('[草稿]');
    await visible(conversation(b, 'Alice').getByText('[草稿]'));
    await shot(b, 'chat-draft');
  });

  it('B goes offline; what A sends meanwhile shows once each when B is back', async () => {
    const a = alice.page;
    const b = bob.page;
    await conversation(b, 'Alice').click();
    await visible(bubble(b, '收到，我在'));

    bobOffline = true;
    await bob.context.setOffline(true);
    for (const ws of bobSockets) await ws.close({ code: 4000, reason: 'offline' });
    bobSockets.clear();
    await b.waitForTimeout(500);
    // The chat says the connection is down, as the Messages tab does; a send that cannot leave says why.
    await visible(b.getByRole('button', { name: '立即重连' }));
    await b.getByRole('textbox', { name: '输入消息' }).fill('断网时写的');
    await b.locator('.composer').getByRole('button', { name: '发送' }).click();
    await visible(toast(b, '网络连接已断开，消息将在连接恢复后自动发送'));
    await visible(b.getByRole('button', { name: '重新发送' }));
    await shot(b, 'chat-offline-banner');

    await backHome(a);
    await conversation(a, 'Bob').click();
    const sent = ['离线时的第一条', '离线时的第二条', '离线时的第三条'];
    for (const text of sent) await sendText(a, text);
    await b.waitForTimeout(1000);
    for (const text of sent) expect(await bubble(b, text).count()).toBe(0);

    bobOffline = false;
    const bound = socketBound(b);
    await bob.context.setOffline(false);
    await bound;
    await hidden(b.getByRole('button', { name: '立即重连' }));
    for (const text of sent) await visible(bubble(b, text));
    // Give any duplicate (push and sync both) time to show, then count.
    await b.waitForTimeout(1500);
    for (const text of sent) expect(await bubble(b, text).count()).toBe(1);
    const order = await b.locator('.bubble').allTextContents();
    const positions = sent.map((text) => order.findIndex((t) => t.includes(text)));
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    await shot(b, 'chat-after-offline');
    // What B wrote offline goes by itself once the socket is bound again.
    await hidden(b.getByRole('button', { name: '重新发送' }));
    await visible(bubble(a, '断网时写的'));
  });

  it('A forwards a message to two chats, finds it in the history and in search, lists the groups', async () => {
    const a = alice.page;
    await messageMenu(a, '离线时的第二条', '转发');
    await visible(a.getByRole('heading', { level: 1, name: '转发给' }));
    // Recent chats come first, under their own heading, as in WeChat.
    await visible(a.getByRole('heading', { level: 2, name: '最近聊天' }));
    await a.getByRole('checkbox', { name: 'Carol', exact: true }).check();
    await a.getByRole('checkbox', { name: /Alice、Bob、Carol/ }).check();
    await expectAccessible(a);
    await shot(a, 'chat-forward');
    await a.getByRole('button', { name: '发送(2)' }).click();
    // The chosen chats are named once more before it goes.
    const sheet = a.getByRole('dialog', { name: '发送给' });
    await visible(sheet.getByText('Carol、Alice、Bob、Carol', { exact: true }));
    await sheet.getByRole('textbox', { name: '给朋友留言' }).fill('你们看看这条');
    await shot(a, 'chat-forward-confirm');
    await expectAccessible(a);
    await sheet.getByRole('button', { name: '发送', exact: true }).click();
    await visible(a.getByRole('heading', { level: 1, name: 'Bob' }));
    const b = bob.page;
    await backHome(b);
    await conversation(b, 'Alice、Bob、Carol').click();
    await visible(bubble(b, '离线时的第二条'));
    // The note follows the message.
    await visible(bubble(b, '你们看看这条'));

    await a.getByRole('button', { name: '聊天信息' }).click();
    await a.getByRole('link', { name: '查找聊天记录' }).click();
    await visible(a.getByRole('heading', { level: 1, name: '聊天记录' }));
    await a.getByRole('searchbox', { name: '搜索聊天内容' }).fill('第三');
    await expect.poll(() => a.locator('.record-row').count(), WAIT).toBe(1);
    await noToasts(a);
    await visible(a.locator('.record-row').filter({ hasText: '离线时的第三条' }).locator('mark', { hasText: '第三' }));
    await expectAccessible(a);
    await shot(a, 'chat-record');

    await a.goto(`${server.url}/#/pages/index/search`);
    await a.getByRole('searchbox', { name: '搜索联系人、群聊和聊天记录' }).fill('离线');
    const history = a.getByRole('region', { name: '聊天记录' });
    await visible(history.getByRole('link', { name: /Bob.*3 条相关聊天记录/ }));
    // A single hit shows its words, and opens the chat at it.
    await visible(history.getByRole('link', { name: /Alice、Bob、Carol.*离线时的第二条/ }));
    await hidden(a.getByText('正在搜索聊天记录…'));
    await noToasts(a);
    await expectAccessible(a);
    await shot(a, 'chat-search');

    await a.goto(`${server.url}/#/pages/contacts/group`);
    await visible(a.getByRole('link', { name: /Alice、Bob、Carol/ }));
    await a.getByRole('radio', { name: '我加入的' }).check();
    await visible(a.getByRole('heading', { name: '你还没有加入群聊' }));
    await expectAccessible(a);
  });

  it('B clears the history of the chat with A on this device; new messages still come', async () => {
    const b = bob.page;
    await backHome(b);
    await conversation(b, 'Alice').click();
    await b.getByRole('button', { name: '聊天信息' }).click();
    await b.getByRole('button', { name: '清空聊天记录' }).click();
    const dialog = b.getByRole('dialog');
    await visible(dialog);
    await dialog.getByRole('button', { name: '清空聊天记录' }).click();
    await pageArea(b).getByRole('button', { name: '返回' }).click();
    await hidden(bubble(b, '离线时的第一条'));
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await sendText(a, '清空以后的新消息');
    await visible(bubble(b, '清空以后的新消息'));
    expect(await b.locator('.bubble').count()).toBe(1);
  });

  it('the server restarts in the middle of a conversation; the history stays and new messages come', async () => {
    const a = alice.page;
    const b = bob.page;
    await server.stop();
    // A clean stop leaves everything in the database file itself, no write-ahead log beside it.
    expect(fs.readdirSync(server.dataDir).filter((f) => f.startsWith('sparrow.db'))).toEqual(['sparrow.db']);
    await server.boot();
    // Neither page is touched: each socket comes back on its own after its reconnect wait.
    await sendText(a, '重启以后的消息');
    await visible(bubble(b, '重启以后的消息'));
    await a.reload();
    await visible(bubble(a, '离线时的第一条'));
    await visible(bubble(a, '重启以后的消息'));
    await b.waitForTimeout(1000);
    expect(await bubble(b, '重启以后的消息').count()).toBe(1);
    await shot(b, 'chat-after-restart');
  });

  it('A changes her picture; B’s open chat and list show it without a reload, and a group member who is not his friend’s too', async () => {
    const a = alice.page;
    const b = bob.page;
    const faces = b.locator('.msg:not(.msg-mine) .msg-avatar img[src^="/storage/"]');
    expect(await faces.count()).toBe(0);
    await a.goto(`${server.url}/#/pages/mine/profile`);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2f7d4f' } })
      .png()
      .toBuffer();
    await a.getByLabel('更换头像').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await visible(toast(a, '头像已更新'));
    await visible(faces.first());
    await shot(b, 'chat-avatar-followed');
    await backHome(b);
    await visible(conversation(b, 'Alice').locator('img[src^="/storage/"]'));

    // Dave shares the group with Bob but is not his friend: Bob's open group chat follows his new
    // picture too (profileChanged), and so does the chat's member list.
    await conversation(b, 'Alice、Bob、Carol').click();
    const daveSaid = b.locator('.chat-item').filter({ has: bubble(b, 'Hello everyone') });
    await visible(daveSaid);
    const daveFace = daveSaid.locator('.msg-avatar img[src^="/storage/"]');
    expect(await daveFace.count()).toBe(0);
    await b.getByRole('button', { name: '群聊信息' }).click();
    const daveTile = b.getByRole('region', { name: '聊天成员' }).locator('.member').filter({ hasText: 'Dave' });
    await visible(daveTile);
    const form = new FormData();
    const davePng = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#7d2f4f' } })
      .png()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(davePng)], { type: 'image/png' }), 'dave.png');
    const res = await fetch(`${server.url}/common/upload/uploadAvatar`, {
      method: 'POST',
      headers: { authorization: dave.token },
      body: form,
    });
    const uploaded = (await res.json()) as { code: number; data: string };
    expect(uploaded.code).toBe(0);
    await expect.poll(() => daveTile.locator('img').getAttribute('src'), WAIT).toBe(uploaded.data);
    await pageArea(b).getByRole('button', { name: '返回' }).click();
    await expect.poll(() => daveFace.getAttribute('src'), WAIT).toBe(uploaded.data);
    await visible(daveFace);
    await shot(b, 'chat-group-avatar-followed');
  });
});
