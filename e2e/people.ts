import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  befriend,
  expectAccessible,
  launchBrowser,
  longPress,
  noToasts,
  type Person,
  phoneContext,
  ServerProcess,
  settled,
  shot,
  signIn,
  socketBound,
  visible,
} from './harness';

/** Someone registered on the server: as `ServerProcess.register` answers, and the account. */
export interface Account {
  account: string;
  id: number;
  token: string;
  name: string;
}

/**
 * Registers people (`[account, name]`), in order, and makes the first friends with each of the
 * others; answers them in the same order.
 */
export async function registerFriends<const T extends ReadonlyArray<readonly [string, string]>>(
  server: ServerProcess,
  people: T,
): Promise<{ [K in keyof T]: Account }> {
  const accounts: Account[] = [];
  for (const [account, name] of people) accounts.push({ ...(await server.register(account, name)), account });
  const [first, ...others] = accounts;
  if (first) for (const other of others) await befriend(server, first, other);
  return accounts as { [K in keyof T]: Account };
}

/** A group the first of `people` starts with all the others, named `name`: its contact id. */
export async function startGroup(server: ServerProcess, people: readonly Account[], name: string): Promise<string> {
  const [first, ...others] = people;
  const group = await server.post<{ id: string }>(
    '/enterprise/group/add',
    { user_ids: others.map((o) => o.id), name },
    first!.token,
  );
  return group.id;
}

/** Opens a group's chat on a page, by its address, and waits for its title. */
export async function openGroupChat(server: ServerProcess, page: Page, groupId: string, title: RegExp): Promise<void> {
  await page.goto(`${server.url}/#/pages/message/chat?id=${groupId}`);
  await visible(page.getByRole('heading', { level: 1, name: title }));
}

/**
 * Three people (`[account, name, language?]`), the first friends with the other two, in a group the
 * first starts named `name`, each signed in in a browser of their own: the setting of the group
 * suites (polls, chains, read receipts, typing).
 */
export async function groupOfThree(
  server: ServerProcess,
  browser: Browser,
  people: readonly [Three, Three, Three],
  name: string,
): Promise<{ people: [Person, Person, Person]; groupId: string }> {
  const accounts = await registerFriends(
    server,
    people.map(([account, who]) => [account, who] as const),
  );
  const groupId = await startGroup(server, accounts, name);
  const opened: Person[] = [];
  for (const [i, who] of accounts.entries()) opened.push(await openBrowser(server, browser, who, people[i]![2]));
  return { people: opened as [Person, Person, Person], groupId };
}

type Three = readonly [account: string, name: string, language?: 'zh' | 'en'];

/**
 * Opens a phone-sized browser for someone registered, home shown and socket bound: in Chinese,
 * signed in through the login page; in English, signed in by token as a returning user, the
 * language chosen before the app starts.
 */
export async function openBrowser(
  server: ServerProcess,
  browser: Browser,
  who: Account,
  language: 'zh' | 'en' = 'zh',
): Promise<Person> {
  const { account } = who;
  if (language === 'zh') {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await signIn(server, page, account);
    return { ...who, account, context, page };
  }
  const context = await phoneContext(browser, 'en-US');
  await context.addInitScript(
    ([token, id, name]) => {
      if (localStorage.getItem('authToken')) return;
      localStorage.setItem('authToken', token);
      localStorage.setItem('userInfo', JSON.stringify({ user_id: id, id, account: name, realname: name }));
      localStorage.setItem('language', 'en');
    },
    [who.token, who.id, account] as const,
  );
  const page = await context.newPage();
  const bound = socketBound(page);
  await page.goto(`${server.url}/#/pages/index/index`);
  await visible(page.getByRole('navigation', { name: 'Main' }));
  await bound;
  return { ...who, account, context, page };
}

/**
 * The suite's server of its own and its browser, started side by side before its tests (and handed
 * to `use`); a screenshot of everyone's page when a test fails (`<prefix>-failed-…`); the browsers
 * and the server gone once it is over.
 */
export function phoneSuite(
  prefix: string,
  use: (server: ServerProcess, browser: Browser) => void,
  people: () => Array<Person | undefined>,
): void {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
    use(server, browser);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    const step = task.name.slice(0, 24).replace(/\W+/g, '-');
    for (const p of people()) if (p) await shot(p.page, `${prefix}-failed-${step}-${p.account}`).catch(() => {});
  });
  afterAll(async () => {
    for (const p of people()) await p?.context.close();
    await browser?.close();
    await server?.dispose();
  });
}

/** The bubble whose words are exactly `text`. */
export function bubble(page: Page, text: string): Locator {
  return page.locator('.bubble').filter({ has: page.getByText(text, { exact: true }) });
}

/** The message row holding that bubble. */
export function messageRow(page: Page, text: string): Locator {
  return page.locator('.msg').filter({ has: bubble(page, text) });
}

/** Long-presses a message and answers its menu, once shown. */
export async function openMessageMenu(page: Page, target: Locator): Promise<Locator> {
  await longPress(page, target);
  const menu = page.getByRole('menu', { name: /消息操作|Message actions/ });
  await visible(menu);
  return menu;
}

/** Types a text in the open chat's composer, sends it and waits for its bubble. */
export async function sendText(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: /输入消息|Message/ }).fill(text);
  await page
    .locator('.composer')
    .getByRole('button', { name: /^(发送|Send)$/ })
    .click();
  await visible(bubble(page, text));
}

/** A picture of the page and the accessibility audit of what it shows, once toasts are gone. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await noToasts(page);
  await settled(page);
  await shot(page, name);
  await expectAccessible(page);
}

/** Sends a text from `from` to a person (or, with `is_group: 1`, a group) through the API. */
export async function say(
  server: ServerProcess,
  from: { token: string },
  to: number | string,
  content: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await server.post('/enterprise/im/sendMessage', { id: randomUUID(), toContactId: to, content, ...extra }, from.token);
}

/** Uploads a file as `from`, through the API. */
export async function uploadFile(
  server: ServerProcess,
  from: { token: string },
  name: string,
  bytes: Buffer,
  type: string,
): Promise<{ file_id: number; src: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server.url}/common/upload/uploadFile`, {
    method: 'POST',
    headers: { authorization: from.token },
    body: form,
  });
  const up = (await res.json()) as { code: number; data: { file_id: number; src: string } };
  expect(up.code).toBe(0);
  return up.data;
}

/** Uploads a PNG and sends it from `from` to `to` through the API, as another device of theirs would. */
export async function sendPicture(
  server: ServerProcess,
  from: { token: string },
  to: number,
  name: string,
  bytes: Buffer,
): Promise<void> {
  const up = await uploadFile(server, from, name, bytes, 'image/png');
  await say(server, from, to, up.src, { type: 'image', file_id: up.file_id });
}
