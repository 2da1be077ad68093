import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  noToasts,
  pageArea,
  type Person,
  ServerProcess,
  settled,
  shot,
  toast,
  visible,
  WAIT,
} from './harness';
import { messageRow, sendText } from './people';

/**
 * 机器人, browser: a user makes a bot on Settings → 开发者 → 机器人 and reads its token and webhook
 * secret off the page, points its webhook at a receiver here, chats with it; the receiver gets the
 * message signed (Standard Webhooks) after a first 500 and a retry, the bot answers with its token
 * and the chat shows the answer tagged 机器人; the delivery log shows both tries. Ten failures in a
 * row turn the webhook off and saving the URL again turns it on; an address the server refuses is
 * said under the field; a reset token kills the old one; a deleted bot's token works no more.
 */

let server: ServerProcess;
let browser: Browser;
let owner: Person;

/** One POST the receiver got. */
interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/** The bot's program, as far as the test needs one: it keeps what it gets and answers `status`. */
const receiver = {
  server: http.createServer(),
  got: [] as Delivery[],
  /** What the next POSTs are answered; the very first is answered 500 whatever this says. */
  status: 200,
  url: '',
};

beforeAll(async () => {
  [server, browser] = await Promise.all([
    // Webhooks at this machine's http address, as the receiver below is. Only 127.0.0.1 is allowed,
    // so that an address inside a network (10.0.0.1) is still refused as it would be in production.
    ServerProcess.start({
      BOT_WEBHOOK_ALLOW_HTTP: '1',
      BOT_WEBHOOK_ALLOW_INTERNAL: '1',
      BOT_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    }),
    launchBrowser(),
  ]);
  receiver.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      receiver.got.push({ body: Buffer.concat(chunks).toString('utf8'), headers });
      res.statusCode = receiver.got.length === 1 ? 500 : receiver.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  owner = await newPerson(server, browser, 'bot_maker', '李娜');
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  await shot(owner.page, 'bots-failed').catch(() => {});
});

afterAll(async () => {
  await owner?.context.close();
  await browser?.close();
  await server?.dispose();
  await new Promise((resolve) => receiver.server.close(resolve));
});

/** The page's own heading (the middle pane's in the wide layout). */
const title = (page: Page) => pageArea(page).getByRole('heading', { level: 1 });

/** A picture of the page, audited: toasts gone, animations done. */
async function check(page: Page, name: string): Promise<void> {
  await noToasts(page);
  await settled(page);
  await shot(page, `bots-${name}`);
  await expectAccessible(page);
}

/** Calls the API as a script does with a token; answers the envelope's code and data. */
async function callWith(token: string, urlPath: string, body: unknown): Promise<{ code: number; data: unknown }> {
  const res = await fetch(`${server.url}${urlPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: unknown };
}

/** Whether a token still lets its bot read (a messages:read route). */
async function tokenWorks(token: string): Promise<boolean> {
  return (await callWith(token, '/enterprise/im/getContacts', {})).code === 0;
}

/** What the bot's page shows in its boxes: the token and the secret on the page shown once. */
const secrets = (page: Page): Locator => pageArea(page).locator('.bot-secret');

const webhookField = (page: Page) => pageArea(page).getByRole('textbox', { name: 'Webhook 地址' });

/** The webhook's state as the bot's page says it. */
const stateTag = (page: Page) => pageArea(page).locator('.bot-state .bot-tag');

describe('开发者 → 机器人', () => {
  it('makes a bot whose webhook gets the chat, signed, answers as it, and resets and deletes it', async () => {
    const page = owner.page;
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });

    // Settings → 开发者 → 机器人.
    await page.goto(`${server.url}/#/pages/mine/setting`);
    await pageArea(page).getByRole('link', { name: '机器人', exact: true }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人');
    await visible(pageArea(page).getByText('还没有机器人'));
    await check(page, '01-empty');

    await pageArea(page).getByRole('button', { name: '新建机器人' }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('新建机器人');
    // An empty name is refused on the spot.
    await pageArea(page).getByRole('button', { name: '创建', exact: true }).click();
    await visible(pageArea(page).getByText('请填写机器人名称'));
    await pageArea(page).getByRole('textbox', { name: '名称' }).fill('回声');
    await check(page, '02-create');
    await pageArea(page).getByRole('button', { name: '创建', exact: true }).click();

    // The token and the secret, shown this once, with the command that runs the example bot.
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人已创建');
    const token = (await secrets(page).nth(0).textContent())!.trim();
    const secret = (await secrets(page).nth(1).textContent())!.trim();
    expect(token).toMatch(/^spt_[\w-]{43}$/);
    expect(secret).toMatch(/^whsec_[\w+/=]+$/);
    const command = (await pageArea(page).locator('.bot-usage').textContent())!;
    for (const part of [
      `SPARROW_URL=${server.url}`,
      `SPARROW_BOT_TOKEN=${token}`,
      `SPARROW_WEBHOOK_SECRET=${secret}`,
      'HOST=0.0.0.0 PORT=8787 npm run example:bot',
    ])
      expect(command).toContain(part);
    await visible(pageArea(page).getByText(/http:\/\/<运行它的主机>:8787\//));
    await pageArea(page).getByRole('button', { name: '复制令牌' }).click();
    await visible(toast(page, '已复制'));
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(token);
    await check(page, '03-shown-once');
    expect(await tokenWorks(token)).toBe(true);

    // Its page: no webhook yet; then the receiver's address.
    await pageArea(page).getByRole('button', { name: '我已保存' }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人信息');
    const botId = Number(/[?&]bot=(\d+)/.exec(page.url())?.[1]);
    expect(botId).toBeGreaterThan(0);
    await expect(stateTag(page).textContent()).resolves.toBe('未设置');
    await visible(pageArea(page).getByText('还没有投递记录', { exact: false }));
    await expect(secrets(page).textContent()).resolves.toBe(secret);
    await expect(pageArea(page).getByText(token).count()).resolves.toBe(0);
    await webhookField(page).fill(receiver.url);
    await pageArea(page).getByRole('button', { name: '保存地址' }).click();
    await visible(toast(page, 'Webhook 地址已保存'));
    await expect.poll(() => stateTag(page).textContent(), WAIT).toBe('正常');
    await check(page, '04-detail');

    // 发消息: the private chat with the bot.
    await pageArea(page).getByRole('link', { name: '发消息' }).click();
    await visible(page.getByRole('textbox', { name: '输入消息' }));
    await sendText(page, '你好');

    // The receiver is POSTed the message, signed with the page's secret; its first answer is a 500.
    await expect.poll(() => receiver.got.length, WAIT).toBeGreaterThanOrEqual(1);
    const first = receiver.got[0]!;
    const event = new Webhook(secret).verify(first.body, first.headers) as {
      type: string;
      bot_id: number;
      data: { reply_to: number; is_group: number; message: { content: string; from: { id: number; name: string } } };
    };
    expect(event).toMatchObject({
      type: 'message',
      bot_id: botId,
      data: { reply_to: owner.id, is_group: 0, message: { content: '你好', from: { id: owner.id, name: '李娜' } } },
    });
    // Anyone else's secret does not verify it.
    expect(() =>
      new Webhook('whsec_' + Buffer.from('not the secret').toString('base64')).verify(first.body, first.headers),
    ).toThrow();

    // The bot answers with its token, as its program would.
    const reply = await callWith(token, '/enterprise/im/sendMessage', {
      id: randomUUID(),
      toContactId: event.data.reply_to,
      type: 'text',
      content: '你好！',
    });
    expect(reply.code).toBe(0);
    const answer = messageRow(page, '你好！');
    await visible(answer);
    await visible(answer.getByText('机器人', { exact: true }));
    await check(page, '05-chat');

    // The delivery log: the first try failed with HTTP 500; the server tries again 5 s later.
    await page.goto(`${server.url}/#/pages/mine/bots?bot=${botId}`);
    const log = pageArea(page).getByRole('list', { name: '投递记录' });
    const row = log.getByRole('listitem').first();
    await visible(row);
    await expect.poll(() => row.textContent(), WAIT).toMatch(/等待重试|已送达/);
    if ((await row.textContent())!.includes('等待重试')) {
      await visible(row.getByText(/已尝试 1 次 · HTTP 500/));
      await visible(row.getByText(/^下次尝试：/));
      await shot(page, 'bots-06-retrying');
    }
    // The page reads the log again by itself while a delivery waits.
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/已送达/);
    await visible(row.getByText(/已尝试 2 次 · HTTP 200/));
    await expect(log.getByRole('listitem').count()).resolves.toBe(1);
    // Both tries of one delivery: one webhook-id, each signed again.
    expect(receiver.got).toHaveLength(2);
    expect(receiver.got[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(new Webhook(secret).verify(receiver.got[1]!.body, receiver.got[1]!.headers)).toMatchObject({
      bot_id: botId,
    });
    await row.scrollIntoViewIfNeeded();
    await check(page, '07-delivered');

    // Ten failures in a row turn the webhook off; the page says so and how to turn it back on.
    receiver.status = 503;
    for (let i = 1; i <= 10; i++)
      await server.post(
        '/enterprise/im/sendMessage',
        { id: randomUUID(), toContactId: botId, type: 'text', content: `第 ${i} 条` },
        owner.token,
      );
    await expect
      .poll(async () => {
        const bots = await server.post<Array<{ id: number; webhook_state: string }>>(
          '/enterprise/bot/list',
          {},
          owner.token,
        );
        return bots.find((b) => b.id === botId)?.webhook_state;
      }, WAIT)
      .toBe('disabled');
    await pageArea(page).getByRole('button', { name: '刷新' }).click();
    await expect.poll(() => stateTag(page).textContent(), WAIT).toBe('已停用（连续失败 10 次）');
    const stopped = pageArea(page).getByRole('note');
    await visible(stopped.getByText(/连续失败 10 次后已停止推送.*再次保存地址即可恢复推送/));
    // Each of them failed once, and what was left to try was given up with the webhook.
    await visible(log.getByText(/已尝试 1 次 · HTTP 503 · 连续失败后已停用/).first());
    await stateTag(page).scrollIntoViewIfNeeded();
    await check(page, '08-disabled');
    // The log shows the newest five until asked for all.
    await expect(log.getByRole('listitem').count()).resolves.toBe(5);
    await pageArea(page).getByRole('button', { name: '查看全部 11 条' }).click();
    await expect.poll(() => log.getByRole('listitem').count(), WAIT).toBe(11);
    receiver.status = 200;
    await pageArea(page).getByRole('button', { name: '保存地址' }).click();
    await visible(toast(page, 'Webhook 地址已保存'));
    await expect.poll(() => stateTag(page).textContent(), WAIT).toBe('正常');
    await hidden(stopped);

    // An address the server refuses: its reason under the field, the webhook left as it was.
    await webhookField(page).fill('https://10.0.0.1/x');
    await pageArea(page).getByRole('button', { name: '保存地址' }).click();
    await visible(
      pageArea(page)
        .locator('.field-error')
        .getByText(/webhook 地址不可用：须为 https 公网地址，不能指向内网/),
    );
    await expect(webhookField(page).getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(stateTag(page).textContent()).resolves.toBe('正常');
    await webhookField(page).scrollIntoViewIfNeeded();
    await check(page, '09-refused');

    // 重置令牌: asked first; then the new token, shown once; the old one and the old secret are dead.
    await pageArea(page).getByRole('button', { name: '重置令牌' }).click();
    const dialog = page.getByRole('dialog');
    await visible(dialog.getByText('重置后旧令牌和旧签名密钥立即失效，机器人程序需改用新的令牌和密钥。'));
    await expectAccessible(page);
    await shot(page, 'bots-10-reset-confirm');
    await dialog.getByRole('button', { name: '重置', exact: true }).click();
    await hidden(dialog);
    await expect.poll(() => title(page).textContent(), WAIT).toBe('新的令牌');
    const fresh = (await secrets(page).nth(0).textContent())!.trim();
    const freshSecret = (await secrets(page).nth(1).textContent())!.trim();
    expect(fresh).toMatch(/^spt_/);
    expect(fresh).not.toBe(token);
    expect(freshSecret).not.toBe(secret);
    expect(await tokenWorks(token)).toBe(false);
    expect(await tokenWorks(fresh)).toBe(true);
    await check(page, '11-reset-shown-once');
    await pageArea(page).getByRole('button', { name: '我已保存' }).click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人信息');
    await expect(secrets(page).textContent()).resolves.toBe(freshSecret);

    // The list: the bot, its account and its webhook's state.
    await page.goto(`${server.url}/#/pages/mine/bots`);
    const bots = pageArea(page).getByRole('list', { name: '我的机器人' });
    const item = bots.getByRole('link', { name: /回声/ });
    await visible(item);
    await visible(item.getByText(/^bot_\w+$/));
    await visible(item.getByText('正常', { exact: true }));
    await check(page, '12-list');

    // 删除机器人: asked first; gone from the list, its token dead.
    await item.click();
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人信息');
    await pageArea(page).getByRole('button', { name: '删除机器人' }).click();
    await visible(dialog.getByText(/删除后“回声”的账号、令牌和 Webhook 立即失效/));
    await expectAccessible(page);
    await shot(page, 'bots-13-delete-confirm');
    await dialog.getByRole('button', { name: '删除', exact: true }).click();
    await hidden(dialog);
    await visible(toast(page, '已删除机器人'));
    await expect.poll(() => title(page).textContent(), WAIT).toBe('机器人');
    await visible(pageArea(page).getByText('还没有机器人'));
    expect(await tokenWorks(fresh)).toBe(false);
  });
});
