import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  befriend,
  expectAccessible,
  fitsScreen,
  launchBrowser,
  newContext,
  newPerson,
  noToasts,
  pageArea,
  passwordForm,
  type Person,
  ServerProcess,
  shot,
  PASSWORD,
  signIn,
  toast,
  visible,
  WAIT,
  WIDE,
} from './harness';
import { png } from './media-files';

/**
 * What a new user met first: Chinese typed through an input method lands in order in every text
 * box, an open chat follows what arrives (and counts it on a pill when scrolled up), a session
 * ended elsewhere leads to the login page, and the pages before sign-in speak the browser's
 * language and offer a switch.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await newPerson(server, browser, 'alice_day', 'Alice');
  bob = await newPerson(server, browser, 'bob_day', 'Bob', { signedIn: false });
  carol = await newPerson(server, browser, 'carol_day', 'Carol', { signedIn: false });
  await befriend(server, alice, bob);
  await befriend(server, alice, carol);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

/**
 * Types each of `words` as an input method commits it: a composition of the first letters, then
 * the committed text, as Chromium's IME path delivers them, a frame apart as a person types.
 */
async function imeType(page: Page, box: Locator, words: readonly string[]): Promise<void> {
  await box.click();
  const cdp = await page.context().newCDPSession(page);
  for (const word of words) {
    await cdp.send('Input.imeSetComposition', { text: 'h', selectionStart: 1, selectionEnd: 1 });
    await cdp.send('Input.imeSetComposition', { text: 'hao', selectionStart: 3, selectionEnd: 3 });
    await cdp.send('Input.insertText', { text: word });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await cdp.detach();
}

const WORDS = ['好美', '下次带我去'] as const;

/** Every box a person types words into on the page now shown: text inputs, search boxes, text areas. */
function textBoxes(page: Page): Locator {
  return page.locator(
    'input:not([type]):visible, input[type=text]:visible, input[type=search]:visible, textarea:visible',
  );
}

/** Types WORDS through the input method into every text box of the page; each keeps them in order. */
async function everyBoxKeepsOrder(page: Page, where: string): Promise<number> {
  const boxes = textBoxes(page);
  const n = await boxes.count();
  for (let i = 0; i < n; i++) {
    const box = boxes.nth(i);
    if (!(await box.isEditable())) continue;
    await box.fill('');
    await imeType(page, box, WORDS);
    expect(await box.inputValue(), `${where}, box ${i}`).toBe(WORDS.join(''));
    await box.fill('');
  }
  return n;
}

describe('typing through an input method', () => {
  it('keeps the words in order in every text box of the client', async () => {
    const page = alice.page;
    const { id } = await server.post<{ id: number }>(
      '/enterprise/moments/publish',
      { id: randomUUID(), content: '湖边的日落', visibility: 1 },
      bob.token,
    );
    expect(id).toBeGreaterThan(0);

    // The moments comment box, where an input method used to write backwards.
    await page.goto(`${server.url}/#/pages/compass/moments`);
    await visible(page.getByText('湖边的日落'));
    await page.getByRole('button', { name: '更多操作' }).first().click();
    await page.getByRole('button', { name: '评论', exact: true }).first().click();
    const comment = page.getByRole('textbox', { name: '评论' });
    await visible(comment);
    await imeType(page, comment, WORDS);
    await expect.poll(() => comment.inputValue()).toBe('好美下次带我去');
    await page.getByRole('button', { name: '发送', exact: true }).click();
    await visible(page.getByText('好美下次带我去'));

    const places: Array<[string, string]> = [
      ['chat', `/#/pages/message/chat?id=${bob.id}`],
      ['search', '/#/pages/index/search'],
      ['contact search', '/#/pages/contacts/search'],
      ['history', `/#/pages/message/record?id=${bob.id}`],
      ['publish', '/#/pages/compass/publish'],
      ['name', '/#/pages/mine/profile?edit=name'],
      ['motto', '/#/pages/mine/profile?edit=motto'],
    ];
    let boxes = 0;
    for (const [where, url] of places) {
      await page.goto(`${server.url}${url}`);
      await visible(page.locator('main'));
      await expect.poll(() => textBoxes(page).count(), { ...WAIT, message: where }).toBeGreaterThan(0);
      boxes += await everyBoxKeepsOrder(page, where);
    }
    expect(boxes).toBeGreaterThanOrEqual(places.length);
  });
});

describe('an open chat', () => {
  /** How far the conversation's end is below what is shown, px. */
  const gap = (page: Page) =>
    page.locator('.chat-scroller').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

  const send = (text: string) =>
    server.post(
      '/enterprise/im/sendMessage',
      { id: randomUUID(), toContactId: alice.id, type: 'text', content: text },
      bob.token,
    );

  it('follows new messages at the bottom, and counts them on a pill when scrolled up', async () => {
    const page = alice.page;
    for (let i = 1; i <= 30; i++) await send(`早先的第${i}条`);
    await page.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await visible(pageArea(page).getByText('早先的第30条'));
    await expect.poll(() => gap(page), WAIT).toBeLessThan(8);

    // Rows of every height, the tallest wrapping over several lines.
    for (let i = 1; i <= 4; i++) {
      await send(`新消息${i} ${'很长的一段话，'.repeat(i * 6)}`);
      await visible(pageArea(page).getByText(new RegExp(`^新消息${i} `)));
      await expect.poll(() => gap(page), WAIT).toBeLessThan(8);
    }
    await expect(page.getByRole('button', { name: /条新消息/ }).count()).resolves.toBe(0);

    // Scrolled up, the list stays where it is and the pill counts what arrives.
    const list = (await page.locator('.chat-scroller').boundingBox())!;
    await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
    await page.mouse.wheel(0, -4000);
    await expect.poll(() => gap(page), WAIT).toBeGreaterThan(400);
    // The reader has stopped scrolling before anything arrives: the page has drawn since.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const top = await page.locator('.chat-scroller').evaluate((el) => el.scrollTop);
    await send('你在吗');
    await send('看一下这个');
    const pill = page.getByRole('button', { name: '2 条新消息' });
    await visible(pill);
    expect(await page.locator('.chat-scroller').evaluate((el) => el.scrollTop)).toBeLessThan(top + 200);
    await shot(page, 'chat-new-messages-pill');
    await expectAccessible(page);

    // The pill jumps to the first of them and goes.
    await pill.click();
    await visible(pageArea(page).getByText('你在吗'));
    await expect.poll(() => pill.count()).toBe(0);
    await expect.poll(() => gap(page), WAIT).toBeLessThan(8);
  });
});

describe('a session ended elsewhere', () => {
  it('leads the other browser to the login page, with a word of why', async () => {
    const page = carol.page;
    await signIn(server, page, carol.account);
    await page.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await visible(page.getByRole('textbox', { name: '输入消息' }));

    // The password is changed on another device: every other session of the account ends.
    const elsewhere = await server.post<{ authToken: string }>('/common/Pub/login', {
      account: carol.account,
      password: PASSWORD,
    });
    await server.post(
      '/enterprise/im/editPassword',
      { originalPassword: PASSWORD, password: 'secret456' },
      elsewhere.authToken,
    );
    await visible(toast(page, /请重新登录/));
    await passwordForm(page);
    await visible(page.getByRole('button', { name: '登录', exact: true }));
    expect(page.url()).toContain('/pages/login/login');
  });
});

describe('before sign-in', () => {
  it("speaks the browser's language until one is chosen on the login page", async () => {
    const context = await newContext(browser, { viewport: { width: 375, height: 812 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/pages/login/login`);
    await visible(page.getByRole('button', { name: 'Log in', exact: true }));
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('link', { name: 'Sign up', exact: true }).click();
    await visible(page.getByLabel('Language'));
    // A label longer than its Chinese source stays on one line.
    const label = await page.getByText('Confirm password', { exact: true }).boundingBox();
    expect(label!.height).toBeLessThan(30);
    await shot(page, 'register-en');
    await expectAccessible(page);

    await page.getByLabel('Language').selectOption('zh-Hans');
    await visible(page.getByRole('button', { name: '注册', exact: true }));
    await page.reload();
    await visible(page.getByRole('button', { name: '注册', exact: true }));
    await context.close();

    // A language the client does not have: Chinese, the source.
    const german = await newContext(browser, { viewport: { width: 375, height: 812 }, locale: 'de-DE' });
    const other = await german.newPage();
    await other.goto(`${server.url}/#/pages/login/login`);
    await visible(other.getByRole('button', { name: '登录', exact: true }));
    await noToasts(other);
    await shot(other, 'login-language');
    await expectAccessible(other);
    await german.close();
  });
});

describe('on the screen it runs at', () => {
  /** Sends a picture from bob to alice as the client uploads one: the message first, then the file. */
  async function sendPicture(width: number, height: number): Promise<void> {
    const form = new FormData();
    form.append('message', JSON.stringify({ id: randomUUID(), toContactId: alice.id, type: 'image', content: '' }));
    form.append('file', new Blob([new Uint8Array(png(width, height, [40, 120, 200]))], { type: 'image/png' }), 'p.png');
    const res = await fetch(`${server.url}/common/upload/uploadFile`, {
      method: 'POST',
      headers: { authorization: bob.token },
      body: form,
    });
    expect(((await res.json()) as { code: number }).code).toBe(0);
  }

  it('shows the history’s pictures as square tiles, three to a row, under their month', async () => {
    for (const [w, h] of [
      [40, 300],
      [300, 40],
      [120, 120],
      [90, 160],
    ] as const)
      await sendPicture(w, h);
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/message/record?id=${bob.id}&filter=media`);
    const month = new Intl.DateTimeFormat('zh-Hans', { year: 'numeric', month: 'long' }).format(Date.now());
    await visible(page.getByRole('heading', { level: 2, name: month }));
    const tiles = page.locator('.record-media .media-tile');
    await expect.poll(() => tiles.count(), WAIT).toBe(4);
    const boxes = await tiles.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    for (const b of boxes) expect(Math.abs(b.width - b.height)).toBeLessThan(1);
    expect(new Set(boxes.slice(0, 3).map((b) => Math.round(b.top))).size).toBe(1);
    expect(boxes[3]!.top).toBeGreaterThan(boxes[0]!.top);
    await shot(page, 'history-media-tiles');
    await expectAccessible(page);
  });

  let longGroup: string;

  it('shortens a long group name in the chat title and keeps its member count whole', async () => {
    const group = await server.post<{ id: string }>(
      '/enterprise/group/add',
      { user_ids: [bob.id, carol.id], name: '一个名字相当长的周末徒步与摄影爱好者交流群' },
      alice.token,
    );
    longGroup = group.id;
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/message/chat?id=${group.id}`);
    const title = pageArea(page).locator('h1');
    const count = title.locator('.navbar-title-suffix');
    await expect.poll(() => count.textContent(), WAIT).toBe('（3）');
    const [h1, suffix] = await Promise.all([title.boundingBox(), count.boundingBox()]);
    expect(suffix!.x + suffix!.width).toBeLessThanOrEqual(h1!.x + h1!.width + 1);
    await shot(page, 'chat-long-group-title');
  });

  // A phone's concern: at a desk each page has its pane, and fitsScreen judges a phone's screen only.
  it.skipIf(WIDE)('keeps every page within the screen (phone only)', async () => {
    const { id: post } = await server.post<{ id: number }>(
      '/enterprise/moments/publish',
      { id: randomUUID(), content: '周末去爬山了', visibility: 1 },
      alice.token,
    );
    const routes = [
      '/pages/index/index',
      '/pages/contacts/index',
      `/pages/message/chat?id=${bob.id}`,
      `/pages/message/chat?id=${longGroup}`,
      `/pages/message/detail?id=${bob.id}`,
      `/pages/message/detail?id=${longGroup}`,
      `/pages/message/record?id=${bob.id}`,
      `/pages/message/record?id=${bob.id}&filter=media`,
      `/pages/message/record?id=${bob.id}&filter=file`,
      `/pages/message/record?id=${bob.id}&filter=member`,
      `/pages/message/record?id=${bob.id}&filter=date`,
      `/pages/contacts/detail?id=${bob.id}`,
      '/pages/contacts/friend',
      '/pages/contacts/search',
      '/pages/contacts/group',
      '/pages/index/userSelection',
      '/pages/index/search',
      `/pages/message/group/info?id=${longGroup}`,
      `/pages/message/group/groupUser?id=${longGroup}`,
      '/pages/message/emoji',
      '/pages/mine/files',
      '/pages/index/mycode',
      `/pages/index/qrcode?id=${longGroup}`,
      '/pages/compass/moments',
      '/pages/compass/publish',
      '/pages/compass/setting',
      '/pages/compass/notices',
      `/pages/compass/post?id=${post}`,
      '/pages/mine/profile',
      '/pages/mine/secure',
      '/pages/mine/about',
      '/pages/mine/setting',
      '/pages/mine/doc',
    ];
    const page = alice.page;
    for (const route of routes) {
      await page.goto(`${server.url}/#${route}`);
      await visible(page.locator('h1'));
      await page.waitForLoadState('networkidle');
      await fitsScreen(page);
    }
  });
});

describe('a chat with someone no longer a friend', () => {
  it('offers to send a friend request instead of failing sends', async () => {
    const dave = await server.register('dave_day', 'Dave');
    await befriend(server, alice, dave);
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/message/chat?id=${dave.id}`);
    await visible(page.getByRole('textbox', { name: '输入消息' }));
    await server.post('/enterprise/friend/del', { id: alice.id }, dave.token);
    await page.reload();
    // Where the input was, the reason and a way to ask again.
    const note = page.getByRole('status').filter({ hasText: '对方还不是你的好友' });
    await visible(note);
    await shot(page, 'chat-not-friends');
    await expectAccessible(page);
    await note.getByRole('link', { name: '发送朋友验证' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '用户信息' }));
    await visible(page.getByRole('region', { name: '添加到通讯录' }));
  });
});

describe('signing out', () => {
  it('leads the next sign-in to the messages, not back to the page signed out from', async () => {
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/mine/setting`);
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '退出登录' }).click();
    await passwordForm(page);
    await visible(page.getByRole('button', { name: '登录', exact: true }));
    expect(page.url()).not.toContain('redirect');
    await signIn(server, page, alice.account);
    expect(page.url()).toContain('/pages/index/index');
  });
});

describe('the new-message sound', () => {
  it('is served where Raingad 6.x clients and this client play it from, as MP3', async () => {
    const res = await fetch(`${server.url}/static/voice/notify.mp3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const head = new Uint8Array(await res.arrayBuffer()).slice(0, 3);
    // An MPEG audio frame (sync bits) or an ID3 tag before one.
    expect(head[0] === 0xff || String.fromCharCode(...head) === 'ID3').toBe(true);
    // This client rings with the same file: the page can decode it.
    const page = alice.page;
    const playable = await page.evaluate(async (src) => {
      const audio = new Audio(src);
      await new Promise<void>((resolve, reject) => {
        audio.addEventListener('canplaythrough', () => resolve(), { once: true });
        audio.addEventListener('error', () => reject(new Error('not playable')), { once: true });
        audio.load();
      });
      return audio.duration;
    }, `${server.url}/static/voice/notify.mp3`);
    expect(playable).toBeGreaterThan(0);
  });
});
