import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  longPress,
  newPerson,
  noToasts,
  pageArea,
  type Person,
  ServerProcess,
  shot,
  signIn,
  toast,
  visible,
  WAIT,
  WIDE,
} from './harness';

/**
 * Group management in three browsers side by side: the owner, an administrator and a member.
 * Every change one of them makes must show on the others' open pages without a reload.
 */

let server: ServerProcess;
let browser: Browser;

let owner: Person;
let admin: Person;
let member: Person;
let groupId: string;

const signUp = (account: string, name: string) => newPerson(server, browser, account, name, { signedIn: false });

async function open(p: Person, route: string): Promise<void> {
  await p.page.goto(`${server.url}/#${route}`);
}

const infoRoute = () => `/pages/message/group/info?id=${groupId}`;
const membersRoute = () => `/pages/message/group/groupUser?id=${groupId}`;
const chatRoute = () => `/pages/message/chat?id=${groupId}`;

function title(page: Page): Locator {
  return pageArea(page).getByRole('heading', { level: 1 });
}

/** A row of the info page's lists, found by its title. */
function row(page: Page, name: string): Locator {
  return pageArea(page)
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) });
}

async function check(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Toasts fade out; the picture and the audit are of the page itself.
  await noToasts(page);
  await shot(page, name);
  await expectAccessible(page);
}

/** Opens the action sheet of a member on the member management page. */
async function manage(page: Page, name: string): Promise<Locator> {
  await pageArea(page)
    .getByRole('button', { name: new RegExp(name) })
    .click();
  const sheet = page.getByRole('dialog', { name: `管理 ${name}` });
  await visible(sheet);
  return sheet;
}

/** Confirms the Dialog a destructive action asks first. */
async function confirmDialog(page: Page, button: string): Promise<void> {
  const confirm = page.getByRole('dialog').getByRole('button', { name: button, exact: true });
  await visible(confirm);
  await confirm.click();
  await hidden(confirm);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  // runMode 1: anyone may put anyone in a group, so the test needs no friend requests.
  await server.admin('config', 'set', 'sysInfo.runMode', '1');
  await new Promise((r) => setTimeout(r, 1200));
  owner = await signUp('gowner1', '王小明');
  admin = await signUp('gadmin1', '李华');
  member = await signUp('gmember1', '张伟');
  const extra = await signUp('gextra1', '陈静');
  await extra.context.close();
  const group = await server.post<{ id: string }>(
    '/enterprise/group/add',
    { user_ids: [admin.id, member.id, extra.id], name: '周末徒步群' },
    owner.token,
  );
  groupId = group.id;
  await Promise.all([owner, admin, member].map((p) => signIn(server, p.page, p.account)));
});

afterAll(async () => {
  for (const p of [owner, admin, member]) await p?.context.close();
  await browser?.close();
  await server?.dispose();
});

describe('group management across owner, admin and member', () => {
  it('shows each role the group info it may act on', async () => {
    await Promise.all([open(owner, infoRoute()), open(admin, infoRoute()), open(member, infoRoute())]);
    for (const p of [owner, admin, member])
      await expect.poll(() => title(p.page).textContent(), WAIT).toBe('聊天信息（4）');

    await visible(owner.page.getByRole('heading', { name: '群管理' }));
    await visible(owner.page.getByRole('button', { name: '解散群聊' }));
    await expect(owner.page.getByRole('button', { name: '删除并退出' }).count()).resolves.toBe(0);
    await visible(row(owner.page, '我的身份').getByText('群主'));
    await check(owner.page, 'group-zh-01-info-owner');

    await visible(member.page.getByRole('button', { name: '删除并退出' }));
    await expect(member.page.getByRole('heading', { name: '群管理' }).count()).resolves.toBe(0);
    await expect(member.page.getByRole('button', { name: '解散群聊' }).count()).resolves.toBe(0);
    await check(member.page, 'group-zh-02-info-member');
  });

  it('owner makes an admin; the new admin sees the management settings appear', async () => {
    await open(owner, membersRoute());
    await visible(owner.page.getByRole('heading', { name: '群聊成员（4）' }));
    await check(owner.page, 'group-zh-03-members-owner');
    const sheet = await manage(owner.page, admin.name);
    await shot(owner.page, 'group-zh-04-member-actions-owner');
    await expectAccessible(owner.page);
    await sheet.getByRole('button', { name: '设为管理员' }).click();

    await visible(
      pageArea(owner.page)
        .getByRole('button', { name: new RegExp(admin.name) })
        .getByText('管理员'),
    );
    await visible(row(admin.page, '我的身份').getByText('管理员'));
    await visible(admin.page.getByRole('heading', { name: '群管理' }));
    await check(admin.page, 'group-zh-05-info-admin');
  });

  it('admin mutes the member for 10 minutes; the member sees it at once', async () => {
    await open(admin, membersRoute());
    // An admin manages members only: the owner's row offers nothing.
    await visible(admin.page.getByRole('heading', { name: '群聊成员（4）' }));
    await expect(
      pageArea(admin.page)
        .getByRole('button', { name: new RegExp(owner.name) })
        .count(),
    ).resolves.toBe(0);
    const sheet = await manage(admin.page, member.name);
    await expect(sheet.getByRole('button', { name: '设为管理员' }).count()).resolves.toBe(0);
    await expect(sheet.getByRole('button', { name: '转让群主' }).count()).resolves.toBe(0);
    await sheet.getByRole('button', { name: '禁言', exact: true }).click();
    const durations = admin.page.getByRole('dialog', { name: `禁言 ${member.name}` });
    await visible(durations);
    const options = await durations.getByRole('listitem').allTextContents();
    expect(options).toEqual(['10 分钟', '1 小时', '3 小时', '1 天']);
    await durations.getByRole('button', { name: '10 分钟' }).click();

    await visible(
      pageArea(admin.page)
        .getByRole('button', { name: new RegExp(member.name) })
        .getByText(/^禁言至/),
    );
    await check(admin.page, 'group-zh-06-members-admin');

    const banner = pageArea(member.page).getByRole('status').filter({ hasText: '你已被禁言' });
    await visible(banner);
    const text = (await banner.textContent()) ?? '';
    const match = /(\d{2}):(\d{2})/.exec(text);
    expect(match, text).not.toBeNull();
    const end = new Date();
    end.setHours(Number(match![1]), Number(match![2]), 59);
    // Ten minutes before midnight the end is tomorrow.
    if (end.getTime() < Date.now()) end.setDate(end.getDate() + 1);
    const minutes = (end.getTime() - Date.now()) / 60_000;
    // Ten minutes from now, give or take the clock's minute boundary.
    expect(minutes).toBeGreaterThan(8);
    expect(minutes).toBeLessThan(11);
    await visible(row(member.page, '禁言状态'));
    await check(member.page, 'group-zh-07-info-member-muted');

    // The chat says the same and has no input to type into.
    await open(member, chatRoute());
    await visible(pageArea(member.page).getByRole('status').filter({ hasText: '你已被禁言' }));
    await expect(member.page.getByRole('textbox', { name: '输入消息' }).count()).resolves.toBe(0);
    await shot(member.page, 'group-zh-08-chat-member-muted');
    await open(member, infoRoute());
    await visible(row(member.page, '禁言状态'));
  });

  it('owner lets only the owner speak; admin and member see it live', async () => {
    await Promise.all([open(owner, infoRoute()), open(admin, infoRoute())]);
    await visible(owner.page.getByRole('heading', { name: '群管理' }));
    await visible(admin.page.getByRole('heading', { name: '群管理' }));
    await owner.page.getByRole('radio', { name: '仅群主', exact: true }).click();
    await expect
      .poll(() => owner.page.getByRole('radio', { name: '仅群主', exact: true }).isChecked(), WAIT)
      .toBe(true);
    await visible(pageArea(member.page).getByRole('status').filter({ hasText: '本群仅群主可发言' }));
    await visible(pageArea(admin.page).getByRole('status').filter({ hasText: '本群仅群主可发言' }));
    await expect
      .poll(() => admin.page.getByRole('radio', { name: '仅群主', exact: true }).isChecked(), WAIT)
      .toBe(true);
    await check(member.page, 'group-zh-09-info-member-only-owner');
  });

  it('owner writes the announcement with formatting and undo; members read it live', async () => {
    await owner.page.getByRole('link', { name: /群公告/ }).click();
    await visible(owner.page.getByText('暂无群公告'));
    await owner.page.getByRole('link', { name: '编辑' }).click();
    const editor = owner.page.getByRole('textbox', { name: '群公告内容' });
    await visible(editor);
    const publish = owner.page.getByRole('button', { name: '发布' });
    await expect(publish.isDisabled()).resolves.toBe(true);

    await editor.click();
    await owner.page.keyboard.type('周六 8 点集合');
    // Past the history's 1000 ms merge window: what follows is a step of its own.
    await owner.page.waitForTimeout(1200);
    await owner.page.keyboard.press('Enter');
    await owner.page.getByRole('button', { name: '粗体' }).click();
    await expect(owner.page.getByRole('button', { name: '粗体' }).getAttribute('aria-pressed')).resolves.toBe('true');
    // One input, as an input method commits it: typed key by key on a busy machine, the words could
    // stretch past the merge window and take two undos.
    await owner.page.keyboard.insertText('带够饮用水');
    await expect.poll(() => editor.locator('strong').textContent(), WAIT).toBe('带够饮用水');

    await owner.page.getByRole('button', { name: '撤销' }).click();
    await expect.poll(() => editor.locator('strong').count(), WAIT).toBe(0);
    await expect(editor.textContent()).resolves.toBe('周六 8 点集合');
    await owner.page.getByRole('button', { name: '重做' }).click();
    await expect.poll(() => editor.locator('strong').textContent(), WAIT).toBe('带够饮用水');

    await owner.page.getByRole('button', { name: '项目符号列表' }).click();
    await expect.poll(() => editor.locator('li[data-list="bullet"]').count(), WAIT).toBe(1);
    await owner.page.waitForTimeout(1200);
    // Indenting stops at eight levels.
    for (let i = 0; i < 10; i += 1) {
      const indent = owner.page.getByRole('button', { name: '增加缩进' });
      if (await indent.isDisabled()) break;
      await indent.click();
    }
    await expect(editor.locator('li.ql-indent-8').count()).resolves.toBe(1);
    await expect(owner.page.getByRole('button', { name: '增加缩进' }).isDisabled()).resolves.toBe(true);
    await owner.page.getByRole('button', { name: '撤销' }).click();
    await expect.poll(() => editor.locator('li.ql-indent-8').count(), WAIT).toBe(0);

    // A javascript: link is refused in the link box.
    await owner.page.getByRole('button', { name: '链接' }).click();
    await owner.page.getByLabel('链接地址').fill('javascript:alert(1)');
    await owner.page.getByRole('button', { name: '确定' }).click();
    await visible(owner.page.getByRole('alert').filter({ hasText: '只支持 http、https、mailto 和 tel 链接' }));
    await owner.page.getByRole('button', { name: '取消' }).click();
    await check(owner.page, 'group-zh-10-notice-editor');

    await publish.click();
    await confirmDialog(owner.page, '发布');
    await visible(owner.page.getByRole('heading', { name: '群公告', level: 1 }));
    await visible(owner.page.getByRole('article').locator('strong').filter({ hasText: '带够饮用水' }));

    const preview = row(member.page, '群公告');
    await visible(preview.getByText(/周六 8 点集合\s*带够饮用水/));
    await preview.getByRole('link').click();
    await visible(member.page.getByRole('article').locator('strong').filter({ hasText: '带够饮用水' }));
    await expect(member.page.getByRole('link', { name: '编辑' }).count()).resolves.toBe(0);
    await check(member.page, 'group-zh-11-notice-member');

    // At the top of the chat, once: closed, it stays closed until the announcement changes.
    await open(member, chatRoute());
    const banner = member.page.getByRole('region', { name: '群公告' });
    await visible(banner.getByText(/周六 8 点集合/));
    await shot(member.page, 'group-zh-12-chat-notice-banner');
    await banner.getByRole('button', { name: '关闭群公告' }).click();
    await hidden(banner);
    await member.page.reload();
    await visible(pageArea(member.page).getByRole('status').filter({ hasText: '本群仅群主可发言' }));
    await expect(banner.count()).resolves.toBe(0);
    await open(member, infoRoute());
    await visible(row(member.page, '群公告'));
  });

  it('chat info offers the group QR code, my nickname in the group and 删除并退出; a group that hides its members keeps their cards closed', async () => {
    const m = member.page;
    // Members' cards are a matter of friendship, so this part runs as friends-only (runMode 2).
    await server.admin('config', 'set', 'sysInfo.runMode', '2');
    try {
      await new Promise((r) => setTimeout(r, 1200));
      await server.post('/enterprise/group/groupSetting', { id: groupId, setting: { profile: 0 } }, owner.token);
      await open(member, `/pages/message/detail?id=${groupId}`);
      await visible(m.getByRole('link', { name: /群二维码/ }));
      await m.getByRole('link', { name: /我在本群的昵称/ }).click();
      await expect.poll(() => title(m).textContent(), WAIT).toBe('我在本群的昵称');
      await m.getByRole('textbox', { name: '我在本群的昵称', exact: true }).fill('小张');
      await m.getByRole('button', { name: '保存' }).click();
      await visible(m.getByRole('link', { name: /我在本群的昵称/ }).getByText('小张'));
      await check(m, 'group-zh-chat-info');

      // The member list offers no way into a closed card: the owner shows by name and face only…
      const members = m.getByRole('region', { name: '聊天成员' });
      await visible(members.getByText(owner.name, { exact: true }));
      await expect(members.getByRole('link', { name: owner.name }).count()).resolves.toBe(0);
      // …and the card itself, reached from a message, says why it shows no more.
      await open(member, `/pages/contacts/detail?id=${owner.id}`);
      await visible(m.getByText('群主已禁止群成员互相查看资料和添加好友'));
      await expect(m.getByRole('button', { name: '发送' }).count()).resolves.toBe(0);
      await check(m, 'group-zh-profile-hidden');

      await server.post('/enterprise/group/groupSetting', { id: groupId, setting: { profile: 1 } }, owner.token);
      await m.reload();
      await visible(m.getByRole('button', { name: '发送' }));
    } finally {
      await server.admin('config', 'set', 'sysInfo.runMode', '1');
      await new Promise((r) => setTimeout(r, 1200));
    }

    // 删除并退出 at the bottom of chat info leaves a group and takes its chat off the list.
    const other = await server.post<{ id: string }>(
      '/enterprise/group/add',
      { user_ids: [admin.id, member.id], name: '读书会' },
      owner.token,
    );
    await open(member, `/pages/message/detail?id=${other.id}`);
    await m.getByRole('button', { name: '删除并退出' }).click();
    await confirmDialog(m, '退出');
    await m.waitForURL(/#\/pages\/index\/index$/, WAIT);
    await visible(toast(m, '你已退出该群聊'));
    await hidden(m.getByRole('link', { name: /读书会/ }));
  });

  it('owner hands the group to the admin; both see their new roles', async () => {
    await open(owner, membersRoute());
    const sheet = await manage(owner.page, admin.name);
    await sheet.getByRole('button', { name: '转让群主' }).click();
    await confirmDialog(owner.page, '转让');

    await visible(owner.page.getByRole('listitem').filter({ hasText: admin.name }).getByText('群主'));
    await visible(row(admin.page, '我的身份').getByText('群主'));
    await visible(admin.page.getByRole('button', { name: '解散群聊' }));
    // The old owner is an admin now, and an admin has nothing to offer about the owner.
    await expect(
      pageArea(owner.page)
        .getByRole('button', { name: new RegExp(admin.name) })
        .count(),
    ).resolves.toBe(0);
    await open(owner, infoRoute());
    await visible(row(owner.page, '我的身份').getByText('管理员'));
    await visible(owner.page.getByRole('button', { name: '删除并退出' }));
  });

  it('the new owner removes the member, whose open chat closes; then disbands: the group pages close, the chat stays read-only', async () => {
    await open(member, chatRoute());
    await visible(pageArea(member.page).getByRole('status').filter({ hasText: '本群仅群主可发言' }));
    await open(admin, membersRoute());
    // The member goes by the group nickname set in chat info (the list was fetched again when the
    // profile setting changed).
    const sheet = await manage(admin.page, '小张');
    await sheet.getByRole('button', { name: '移出群聊' }).click();
    await confirmDialog(admin.page, '移出');
    await member.page.waitForURL(/pages\/index\/index/, WAIT);
    await visible(toast(member.page, '你已被移出该群聊'));
    await visible(admin.page.getByRole('heading', { name: '群聊成员（3）' }));
    await visible(owner.page.getByRole('heading', { name: '聊天信息（3）' }));

    await open(admin, infoRoute());
    await admin.page.getByRole('button', { name: '解散群聊' }).click();
    await confirmDialog(admin.page, '解散');
    for (const p of [owner, admin]) {
      // A phone closes the group's page to home; at a desk the panel closes onto the group's chat beside it.
      await p.page.waitForURL(WIDE ? new RegExp(`pages/message/chat\\?id=${groupId}$`) : /pages\/index\/index/, WAIT);
      await visible(toast(p.page, '该群聊已解散'));
    }

    // As in WeChat the chat stays on the list, read-only, with a line saying so.
    const listed = owner.page.getByRole('link', { name: /解散了该群聊/ });
    await visible(listed);
    await listed.click();
    await owner.page.waitForURL(/pages\/message\/chat/, WAIT);
    await visible(owner.page.locator('.chat-event').filter({ hasText: /解散了该群聊$/ }));
    await visible(pageArea(owner.page).getByRole('status').filter({ hasText: '该群聊已解散' }));
    await expect(pageArea(owner.page).getByRole('textbox').count()).resolves.toBe(0);
    await expect(pageArea(owner.page).getByRole('button', { name: '群聊信息' }).count()).resolves.toBe(0);
    await check(owner.page, 'group-zh-disbanded-chat');
    // Out of the chat, back to the list (at a desk: the chat closes, the list stays beside it).
    await pageArea(owner.page).getByRole('button', { name: '返回' }).click();
    await owner.page.waitForURL(/pages\/index\/index/, WAIT);

    // Each member deletes it when they like.
    await longPress(owner.page, owner.page.getByRole('link', { name: /解散了该群聊/ }));
    // The row leaves at once; the page is read again once the server has the deletion.
    const deleted = owner.page.waitForResponse((r) => r.url().includes('/enterprise/im/delChat'));
    await owner.page.getByRole('menuitem', { name: '删除' }).click();
    await hidden(owner.page.getByRole('link', { name: /解散了该群聊/ }));
    expect((await (await deleted).json()).code).toBe(0);
    await owner.page.reload();
    await visible(owner.page.getByRole('heading', { level: 1 }).first());
    await expect(owner.page.getByRole('link', { name: /解散了该群聊/ }).count()).resolves.toBe(0);
  });

  it('everyone sees who is online in Contacts, and follows a sign-out and a sign-in without a reload', async () => {
    // runMode 1: each change is announced to everyone, in batches; the owner's list follows them.
    const page = owner.page;
    await page.goto(`${server.url}/#/pages/contacts/index`);
    await visible(page.getByRole('heading', { level: 1, name: '通讯录' }));
    const memberRow = (online: boolean) =>
      page.getByRole('link', { name: online ? `${member.name}, 在线` : member.name, exact: true });
    await visible(memberRow(true));
    await visible(page.getByRole('link', { name: `${admin.name}, 在线`, exact: true }));
    await check(page, 'group-zh-contacts-online');

    await member.page.close();
    await visible(memberRow(false));
    await check(page, 'group-zh-contacts-offline');

    member.page = await member.context.newPage();
    await signIn(server, member.page, member.account);
    await visible(memberRow(true));
  });

  it('a broken link to a group shows that it cannot be found, with a way back, on both group pages', async () => {
    const page = member.page;
    for (const [route, title] of [
      ['info', '群信息'],
      ['groupUser', '群聊成员'],
    ] as const) {
      await page.goto(`${server.url}/#/pages/message/group/${route}?id=not-a-group`);
      await visible(page.getByRole('heading', { name: '找不到这个群聊' }));
      await visible(page.getByText(title, { exact: true }));
      await check(page, `group-zh-not-found-${route}`);
      // The page's own button, below the message (the header's back arrow is the first).
      await page.getByRole('button', { name: '返回', exact: true }).last().click();
      await page.waitForURL((url) => !url.hash.includes('not-a-group'), WAIT);
    }
  });
});
