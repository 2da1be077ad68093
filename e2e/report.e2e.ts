import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hidden, noToasts, type Person, type ServerProcess, toast, visible, WAIT } from './harness';
import { bubble, checkPage as check, openBrowser, openMessageMenu, phoneSuite, registerFriends, say } from './people';

/**
 * Issue 39, reports (投诉) and the report queue, in the browser at 375 px: Bob reports a message of
 * Alice's from their chat with a reason and a few words; the admin opens the queue, sees the
 * message with those around it, and takes it down; both chats then read "该内容已被管理员删除", and
 * Bob is told the outcome, which 我的投诉 keeps.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let root: Person;

const BEFORE = '周末的活动定了吗';
const BAD = '加我微信领红包，先转 100 元激活';
const AFTER = '晚点再聊';
const TAKEN_DOWN = '该内容已被管理员删除';

phoneSuite(
  'report',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, root],
);

beforeAll(async () => {
  const [b, a, r] = await registerFriends(server, [
    ['bob_report', 'Bob'],
    ['alice_report', 'Alice'],
    ['root_report', '管理员'],
  ]);
  await server.admin('user', 'role', 'root_report', 'admin');
  [alice, bob, root] = [
    await openBrowser(server, browser, a),
    await openBrowser(server, browser, b),
    await openBrowser(server, browser, r),
  ];
  for (const text of [BEFORE, BAD, AFTER]) await say(server, alice, bob.id, text);
});

describe('reporting a message and taking it down', () => {
  it('Bob reports Alice’s message from the chat: a reason, a few words, and a confirmation', async () => {
    const p = bob.page;
    await p.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await visible(bubble(p, BAD));
    const menu = await openMessageMenu(p, bubble(p, BAD));
    await menu.getByRole('menuitem', { name: '投诉', exact: true }).click();
    await visible(p.getByRole('heading', { level: 1, name: '投诉' }));
    await visible(p.getByRole('heading', { name: '投诉该消息' }));
    const submit = p.getByRole('button', { name: '提交', exact: true });
    // No reason chosen yet: nothing to send.
    expect(await submit.isDisabled()).toBe(true);
    await p.getByRole('radio', { name: '欺诈骗钱' }).check();
    await p.getByLabel('补充说明（选填）').fill('冒充客服骗钱');
    await check(p, 'report-01-form');
    await submit.click();
    await visible(toast(p, '已提交，我们会尽快核实处理'));
    await visible(p.getByRole('heading', { name: '投诉已提交' }));
    await check(p, 'report-02-sent');
  });

  it('the admin opens the queue, sees the message and its context, and takes it down', async () => {
    const p = root.page;
    await p.goto(`${server.url}/#/manage/index?tab=reports`);
    const row = p.locator('.manage-row').filter({ hasText: '消息 · 欺诈骗钱' });
    await visible(row);
    await visible(row.getByText('投诉人：Bob'));
    await visible(row.getByText('被投诉：Alice'));
    await check(p, 'report-03-queue');
    await row.getByRole('button', { name: /^查看投诉 #\d+$/ }).click();

    const evidence = p.getByRole('list', { name: '被投诉的内容（投诉时投诉人所见）' });
    await visible(evidence);
    await visible(evidence.getByText(BEFORE));
    await visible(evidence.getByText(AFTER));
    const reported = evidence.locator('[aria-current="true"]');
    await visible(reported.getByText(BAD));
    await visible(reported.getByText('被投诉的消息'));
    await visible(p.getByText('冒充客服骗钱'));
    // Opened: in review, with the admin as its handler.
    await visible(p.getByText('处理中'));
    await check(p, 'report-04-detail');

    await p.getByRole('group', { name: '处理' }).getByRole('button', { name: '删除内容' }).click();
    const confirm = p.getByRole('dialog');
    await visible(confirm);
    await confirm.getByRole('button', { name: '删除内容' }).click();
    await visible(toast(p, '已处理，已通知投诉人'));
    await noToasts(p);
  });

  it('both chats read the message as removed, and Bob is told the outcome', async () => {
    const b = bob.page;
    // Bob is still on the report page: the notice reaches him wherever he is.
    await visible(toast(b, '你投诉的消息已核实并处理，感谢你的反馈'));
    await b.goto(`${server.url}/#/pages/message/chat?id=${alice.id}`);
    await visible(b.getByText(TAKEN_DOWN));
    await hidden(b.getByText(BAD));
    await visible(bubble(b, BEFORE));

    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await visible(a.getByText(TAKEN_DOWN));
    await hidden(a.getByText(BAD));
    await check(a, 'report-05-removed');

    await b.goto(`${server.url}/#/pages/mine/setting`);
    await b.getByRole('link', { name: '我的投诉' }).click();
    await visible(b.getByRole('heading', { level: 1, name: '我的投诉' }));
    const item = b.getByRole('list', { name: '我的投诉' }).getByRole('listitem').first();
    await visible(item.getByText('投诉消息：欺诈骗钱'));
    await visible(item.getByText('已处理'));
    await expect.poll(() => item.getByText('已核实并处理').count(), WAIT).toBe(1);
    await check(b, 'report-06-mine');
  });
});
