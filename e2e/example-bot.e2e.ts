import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  expectAccessible,
  launchBrowser,
  newPerson,
  type Person,
  ServerProcess,
  settled,
  shot,
  visible,
} from './harness';
import { bubble, messageRow } from './people';

/**
 * The example bot (examples/echo-bot), run as its README says against a server, answers in a
 * browser: in a private chat, and in a group where it is named, with a reminder that comes later.
 * The server delivers to it over its webhook, signed; the bot checks the signature and answers
 * through the API with its token.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bot: { id: number; token: string; webhook_secret: string };
let program: ChildProcess;
/** Where the bot listens. */
let botUrl: string;
const output: string[] = [];

/** Starts the example bot with `npm run example:bot`; answers the address it listens on. */
async function startBot(): Promise<string> {
  program = spawn('npm', ['run', '--silent', 'example:bot'], {
    cwd: root,
    env: {
      ...process.env,
      SPARROW_URL: server.url,
      SPARROW_BOT_TOKEN: bot.token,
      SPARROW_WEBHOOK_SECRET: bot.webhook_secret,
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot did not start:\n${output.join('')}`)), 20_000);
    const read = (d: Buffer) => {
      output.push(String(d));
      const found = /listening on (http:\/\/\S+)/.exec(output.join(''));
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    program.stdout?.on('data', read);
    program.stderr?.on('data', read);
  });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([
    ServerProcess.start({ BOT_WEBHOOK_ALLOW_HTTP: '1', BOT_WEBHOOK_ALLOW_INTERNAL: '1' }),
    launchBrowser(),
  ]);
  // runMode 1: anyone may put anyone in a group, so the test needs no friend requests.
  await server.admin('config', 'set', 'sysInfo.runMode', '1');
  await new Promise((r) => setTimeout(r, 1200));
  alice = await newPerson(server, browser, 'bot_owner', '王小明');
  bot = await server.post('/enterprise/bot/create', { name: '回声' }, alice.token);
  botUrl = await startBot();
  await server.post('/enterprise/bot/edit', { bot_id: bot.id, name: '回声', webhook_url: botUrl }, alice.token);
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') {
    await shot(alice.page, 'example-bot-failed').catch(() => {});
    console.log(output.join(''));
  }
});

afterAll(async () => {
  if (program?.pid) process.kill(-program.pid, 'SIGTERM');
  await alice?.context.close();
  await browser?.close();
  await server?.dispose();
});

async function send(text: string): Promise<void> {
  const { page } = alice;
  await page.getByRole('textbox', { name: '输入消息' }).fill(text);
  await page.locator('.composer').getByRole('button', { name: '发送' }).click();
  await visible(bubble(page, text));
}

it('answers in a private chat and, named, in a group, and reminds later', async () => {
  const { page } = alice;
  await page.goto(`${server.url}/#/pages/message/chat?id=${bot.id}`);
  await visible(page.getByRole('textbox', { name: '输入消息' }));
  // Mine, then the bot's echo of it.
  await send('你好，机器人');
  await expect.poll(() => bubble(page, '你好，机器人').count(), { timeout: 15_000 }).toBe(2);

  await send('/remind 2 喝水');
  await visible(bubble(page, '好的，2 秒后提醒你'));
  await visible(bubble(page, '⏰ 喝水'));
  await settled(page);
  await shot(page, 'example-bot-01-private');
  await expectAccessible(page);

  // In a group: named, it answers naming the sender; not named, it keeps quiet.
  const carol = await server.register('bot_carol', '陈静');
  const group = await server.post<{ id: string }>(
    '/enterprise/group/add',
    { user_ids: [bot.id, carol.id], name: '机器人试验群' },
    alice.token,
  );
  await page.goto(`${server.url}/#/pages/message/chat?id=${group.id}`);
  await visible(page.getByRole('textbox', { name: '输入消息' }));
  await send('大家好');
  await server.post(
    '/enterprise/im/sendMessage',
    { id: crypto.randomUUID(), toContactId: group.id, type: 'text', content: '@回声 部署好了吗', at: [bot.id] },
    alice.token,
  );
  const answer = messageRow(page, '@王小明 部署好了吗');
  await visible(answer);
  await visible(answer.getByText('机器人', { exact: true }));
  await settled(page);
  await shot(page, 'example-bot-02-group');
  await expectAccessible(page);
  expect(await bubble(page, '@王小明 大家好').count()).toBe(0);

  // Every delivery went once, at the first try: private ×2, the group's naming one.
  const log = await server.post<Array<{ status: string; attempts: number }>>(
    '/enterprise/bot/deliveries',
    { bot_id: bot.id },
    alice.token,
  );
  expect(log.map((d) => [d.status, d.attempts])).toEqual([
    ['delivered', 1],
    ['delivered', 1],
    ['delivered', 1],
  ]);
});

it('refuses a delivery it cannot verify, and answers nothing to it', async () => {
  const forged = JSON.stringify({
    type: 'message',
    bot_id: bot.id,
    timestamp: Date.now(),
    data: {
      reply_to: alice.id,
      is_group: 0,
      message: {
        msg_id: 1,
        id: 'x',
        type: 'text',
        content: '伪造的',
        at: [],
        sendTime: Date.now(),
        from: { id: alice.id, name: 'x' },
      },
    },
  });
  const headers = {
    'content-type': 'application/json',
    'webhook-id': 'msg_forged',
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
  };
  expect((await fetch(botUrl, { method: 'POST', headers, body: forged })).status).toBe(401);
  expect(
    (await fetch(botUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forged })).status,
  ).toBe(401);
  await alice.page.waitForTimeout(500);
  const history = await server.post<Array<{ content: string }>>(
    '/enterprise/im/getMessageList',
    { toContactId: bot.id, is_group: 0 },
    alice.token,
  );
  expect(history.some((m) => m.content.includes('伪造的'))).toBe(false);
});
