import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { hidden, type Person, visible, WAIT } from './harness';
import { png } from './media-files';
import { bubble, checkPage, openBrowser, phoneSuite, registerFriends, say, uploadFile } from './people';
import type { ServerProcess } from './harness';

const DAY = 86_400_000;
let server!: ServerProcess;
let browser!: Browser;
let owner: Person | undefined;
let member: Person | undefined;

phoneSuite(
  'retention',
  (s, b) => {
    server = s;
    browser = b;
  },
  () => [owner, member],
);

/** Moves messages back in time, as if sent `days` ago (the server's own database, beside it). */
function backdate(contents: string[], days: number): void {
  const db = new Database(path.join(server.dataDir, 'sparrow.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const move = db.prepare('update messages set create_time = create_time - ? where content = ?');
    for (const content of contents) expect(move.run(days * DAY, content).changes).toBe(1);
  } finally {
    db.close();
  }
}

it("the owner keeps the group's messages 30 days; the sweep deletes older ones and expires an old file", async () => {
  const [o, m, third] = await registerFriends(server, [
    ['ret_owner', '王小明'],
    ['ret_member', '张伟'],
    ['ret_third', '陈静'],
  ] as const);
  const { id: gid } = await server.post<{ id: string }>(
    '/enterprise/group/add',
    { user_ids: [m.id, third.id], name: '读书会' },
    o.token,
  );
  // Files are kept 7 days on this server (a policy change runs a sweep at once: nothing is old yet).
  await server.admin('config', 'set', 'chatInfo.fileDays', '7');
  [owner, member] = await Promise.all([openBrowser(server, browser, o), openBrowser(server, browser, m)]);

  // The owner picks 30 days in group info; the member sees the value.
  await owner.page.goto(`${server.url}/#/pages/message/group/info?id=${gid}`);
  const picker = owner.page.getByRole('group', { name: '消息保存时间' });
  await visible(picker);
  const picked = Date.now();
  await picker.getByRole('radio', { name: '30 天' }).check();
  await expect.poll(() => picker.getByRole('radio', { name: '30 天' }).isChecked(), WAIT).toBe(true);
  await checkPage(owner.page, 'retention-zh-01-owner-picker');
  await member.page.goto(`${server.url}/#/pages/message/group/info?id=${gid}`);
  await visible(member.page.getByText('30 天', { exact: true }));
  await checkPage(member.page, 'retention-zh-02-member-sees');

  // Old messages (40 days), a picture of 10 days with files kept 7, and today's words.
  await say(server, m, gid, '四十天前的旧消息', { type: 'text', is_group: 1 });
  await say(server, o, gid, '也是很久以前的', { type: 'text', is_group: 1 });
  const up = await uploadFile(server, m, 'old.png', png(40, 30, [200, 120, 40]), 'image/png');
  await say(server, m, gid, up.src, { type: 'image', file_id: up.file_id, is_group: 1 });
  await say(server, o, gid, '今天的消息', { type: 'text', is_group: 1 });
  // The sweep the owner's choice started (a second later, on the server) is over before they age.
  await expect
    .poll(async () => {
      const started = /last sweep (\S+):/.exec(await server.admin('retention', 'status'))?.[1];
      return started ? Date.parse(started) : 0;
    }, WAIT)
    .toBeGreaterThan(picked);
  backdate(['四十天前的旧消息', '也是很久以前的'], 40);
  backdate([up.src], 10);

  // The operator runs the sweep.
  const out = await server.admin('retention', 'run');
  expect(out).toMatch(/2 messages deleted, 1 files expired, 1 stored files freed/);

  await member.page.goto(`${server.url}/#/pages/message/chat?id=${gid}`);
  await member.page.reload();
  await visible(bubble(member.page, '今天的消息'));
  await hidden(member.page.getByText('四十天前的旧消息'));
  await hidden(member.page.getByText('也是很久以前的'));
  await visible(member.page.getByText('文件已过期或已被清理'));
  await checkPage(member.page, 'retention-zh-03-chat-after-sweep');
  const gone = await fetch(`${server.url}${up.src}`, { headers: { authorization: m.token } });
  expect(gone.ok).toBe(false);
});
