import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hidden, longPress, type Person, type ServerProcess, shot, toast, visible, WAIT } from './harness';
import { pdf, png } from './media-files';
import {
  type Account,
  bubble,
  checkPage as check,
  openBrowser,
  openMessageMenu,
  phoneSuite,
  registerFriends,
  say,
  sendPicture as sendPictureAs,
  uploadFile,
} from './people';

/**
 * Issue 38, favourites (收藏), in the browser at 375 px: Alice saves a text and a picture from a
 * chat, opens Me → 收藏, filters by kind, searches, sends one to another chat (Dave's browser
 * receives it) and deletes one; Dave does the same in English.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: { id: number; token: string; name: string };
let dave: Person;

const TEXT = '周末一起去爬山吧 https://example.com/trail';
const LONG = `路线说明：${'从东门进山，沿着石阶一路向上，经过半山亭后右转，走到观景台休息片刻，再继续向山顶进发。'.repeat(4)}`;

const SUNSET = (): Buffer => png(320, 200, [200, 90, 40]);
const uploadPicture = (from: { token: string }) => uploadFile(server, from, 'sunset.png', SUNSET(), 'image/png');
const sendPicture = (from: { token: string }, to: number) => sendPictureAs(server, from, to, 'sunset.png', SUNSET());

async function messageMenu(page: Page, target: Locator, action: string, picture?: string): Promise<void> {
  const menu = await openMessageMenu(page, target);
  if (picture) await shot(page, picture);
  await menu.getByRole('menuitem', { name: action, exact: true }).click();
}

/** The favourite rows of the page, and the one holding `text`. */
const rows = (page: Page) => page.locator('.fav-row');
const row = (page: Page, text: string | RegExp) => rows(page).filter({ hasText: text });

/** Opens a favourite's menu through its ⋯ button and picks `action`. */
async function favoriteMenu(page: Page, item: Locator, action: string): Promise<void> {
  await item.getByRole('button', { name: /收藏操作|Favorite actions/ }).click();
  const menu = page.getByRole('menu', { name: /收藏操作|Favorite actions/ });
  await visible(menu);
  await menu.getByRole('menuitem', { name: action, exact: true }).click();
}

phoneSuite(
  'favorites',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, dave],
);

beforeAll(async () => {
  let a: Account, d: Account;
  [a, bob, d] = await registerFriends(server, [
    ['alice_fav', 'Alice'],
    ['bob_fav', 'Bob'],
    ['dave_fav', 'Dave'],
  ]);
  alice = await openBrowser(server, browser, a);
  dave = await openBrowser(server, browser, d, 'en');
});

describe('favourites', () => {
  it('saves a text and a picture from a chat; Me → 收藏 lists them newest first', async () => {
    await say(server, bob, alice.id, TEXT);
    await sendPicture(bob, alice.id);
    const a = alice.page;
    await a.goto(`${server.url}/#/pages/message/chat?id=${bob.id}`);
    await visible(bubble(a, TEXT));
    await messageMenu(a, bubble(a, TEXT), '收藏', 'favorites-00-chat-menu-zh');
    await visible(toast(a, '已收藏'));
    const picture = a.getByRole('button', { name: '查看图片' }).last();
    await visible(picture);
    await messageMenu(a, picture, '收藏');
    await visible(toast(a, '已收藏'));

    await a.goto(`${server.url}/#/pages/index/index`);
    await a.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '我' }).click();
    await a.getByRole('link', { name: '收藏' }).click();
    await visible(a.getByRole('heading', { level: 1, name: '收藏' }));
    await expect.poll(() => rows(a).count(), WAIT).toBe(2);
    // Newest first: the picture, then the text.
    await visible(rows(a).first().getByRole('button', { name: '查看图片' }));
    await visible(rows(a).nth(1).getByText(TEXT));
    await check(a, 'favorites-01-list-zh');
  });

  it('filters by kind and searches Chinese without spaces, the words marked', async () => {
    const a = alice.page;
    const kinds = a.getByRole('group', { name: '收藏类型' });
    await kinds.getByRole('button', { name: '图片与视频' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(1);
    await visible(rows(a).getByRole('button', { name: '查看图片' }));
    await kinds.getByRole('button', { name: '链接' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(1);
    await visible(row(a, TEXT));
    await kinds.getByRole('button', { name: '全部' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(2);

    await a.getByRole('searchbox', { name: '搜索收藏' }).fill('爬山');
    await expect.poll(() => rows(a).count(), WAIT).toBe(1);
    await expect.poll(() => rows(a).locator('mark').first().textContent(), WAIT).toBe('爬山');
    await check(a, 'favorites-02-search-zh');
    await a.getByRole('searchbox', { name: '搜索收藏' }).fill('');
    await expect.poll(() => rows(a).count(), WAIT).toBe(2);
  });

  it('sends a favourite to another chat, which Dave receives; deletes one', async () => {
    const a = alice.page;
    await favoriteMenu(a, row(a, TEXT), '发送给朋友');
    await visible(a.getByRole('heading', { level: 1, name: '转发给' }));
    await a.locator('.select-row').filter({ hasText: 'Dave' }).click();
    await a.getByRole('button', { name: /^发送\(1\)$/ }).click();
    const sheet = a.getByRole('dialog', { name: '发送给' });
    await visible(sheet);
    await sheet.getByRole('button', { name: '发送', exact: true }).click();
    await visible(a.getByRole('heading', { level: 1, name: '收藏' }));

    const d = dave.page;
    const conv = d.getByRole('link', { name: /^Alice,/ });
    await visible(conv);
    await conv.click();
    await visible(bubble(d, TEXT));

    await favoriteMenu(a, rows(a).first(), '删除');
    const confirm = a.getByRole('dialog');
    await visible(confirm);
    await confirm.getByRole('button', { name: '删除' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(1);
    await visible(row(a, TEXT));
    await check(a, 'favorites-03-after-delete-zh');
  });

  it('saves a moments post from its menu; files, places and posts each show what they keep', async () => {
    const a = alice.page;
    const up = await uploadPicture(bob);
    await server.post(
      '/enterprise/moments/publish',
      { id: randomUUID(), content: '山顶的日落，值得早起', file_ids: [up.file_id] },
      bob.token,
    );
    const file = await uploadFile(server, bob, 'trail-map.pdf', pdf(4096), 'application/pdf');
    const sent = [
      await server.post<{ msg_id: number }>(
        '/enterprise/im/sendMessage',
        { id: randomUUID(), toContactId: alice.id, type: 'file', content: file.src, file_id: file.file_id },
        bob.token,
      ),
      await server.post<{ msg_id: number }>(
        '/enterprise/im/sendMessage',
        {
          id: randomUUID(),
          toContactId: alice.id,
          type: 'location',
          content: '',
          extends: { name: '香山公园', address: '北京市海淀区买卖街40号', latitude: 39.99, longitude: 116.19 },
        },
        bob.token,
      ),
    ];
    // A merged record of the two, in Alice's own chat.
    await server.post(
      '/enterprise/im/forwardMessages',
      { msg_ids: sent.map((m) => m.msg_id), user_ids: [-1], mode: 'merge' },
      alice.token,
    );
    const own = await server.post<Array<{ msg_id: number; type: string }>>(
      '/enterprise/im/getMessageList',
      { toContactId: -1, limit: 5 },
      alice.token,
    );
    const record = own.filter((m) => m.type === 'record').at(-1)!;
    const long = await server.post<{ msg_id: number }>(
      '/enterprise/im/sendMessage',
      { id: randomUUID(), toContactId: alice.id, content: LONG },
      bob.token,
    );
    // Saved from another device of Alice's: the open list follows the push.
    await server.post(
      '/enterprise/favorite/add',
      { msg_ids: [...sent.map((m) => m.msg_id), record.msg_id, long.msg_id] },
      alice.token,
    );
    await expect.poll(() => rows(a).count(), WAIT).toBe(5);

    await a.goto(`${server.url}/#/pages/compass/moments`);
    const post = a.getByRole('article', { name: 'Bob 的动态' });
    await visible(post.getByText('山顶的日落，值得早起'));
    await post.getByRole('button', { name: '更多操作' }).click();
    await shot(a, 'favorites-06-post-menu-zh');
    await post.getByRole('button', { name: '收藏' }).click();
    await visible(toast(a, '已收藏'));

    await a.goto(`${server.url}/#/pages/index/index`);
    await a.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: '我' }).click();
    await visible(a.getByRole('link', { name: '收藏' }));
    await check(a, 'favorites-07-me-tab-zh');
    await a.getByRole('link', { name: '收藏' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(6);
    await visible(row(a, '山顶的日落').getByText('Bob 的朋友圈'));
    await visible(rows(a).getByRole('link', { name: /^打开.*聊天记录/ }));
    await visible(rows(a).getByRole('link', { name: /trail-map\.pdf/ }));
    await visible(rows(a).getByRole('button', { name: /香山公园/ }));
    await check(a, 'favorites-08-kinds-zh');
    // A long text is folded behind 全文.
    const folded = row(a, '路线说明');
    await folded.getByRole('button', { name: '全文' }).click();
    await visible(folded.getByRole('button', { name: '收起' }));
    await folded.scrollIntoViewIfNeeded();
    await shot(a, 'favorites-10-unfolded-zh');
    await a.getByRole('group', { name: '收藏类型' }).getByRole('button', { name: '朋友圈' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(1);
    await row(a, '山顶的日落')
      .getByRole('button', { name: /查看第 1 张图片/ })
      .click();
    await visible(a.getByRole('dialog'));
    await a.keyboard.press('Escape');
    await a.getByRole('group', { name: '收藏类型' }).getByRole('button', { name: '聊天记录' }).click();
    await expect.poll(() => rows(a).count(), WAIT).toBe(1);
    await rows(a)
      .getByRole('link', { name: /^打开.*聊天记录/ })
      .click();
    await visible(a.getByText('香山公园'));
    await shot(a, 'favorites-09-record-opened-zh');
  });

  it('in English: Dave saves what he received, opens Me → Favorites, searches and deletes it', async () => {
    const d = dave.page;
    await messageMenu(d, bubble(d, TEXT), 'Favorite');
    await visible(toast(d, 'Added to Favorites'));
    await d.goto(`${server.url}/#/pages/index/index`);
    await d.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Me', exact: true }).click();
    await d.getByRole('link', { name: 'Favorites' }).click();
    await visible(d.getByRole('heading', { level: 1, name: 'Favorites' }));
    await expect.poll(() => rows(d).count(), WAIT).toBe(1);
    await visible(row(d, TEXT).getByText(/Alice/));
    await d.getByRole('searchbox', { name: 'Search favorites' }).fill('EXAMPLE');
    await expect.poll(() => rows(d).locator('mark').first().textContent(), WAIT).toBe('example');
    await check(d, 'favorites-04-search-en');
    await d.getByRole('searchbox', { name: 'Search favorites' }).fill('');
    await expect.poll(() => rows(d).locator('mark').count(), WAIT).toBe(0);
    // A long press opens the same menu as the ⋯ button.
    await longPress(d, rows(d).first().locator('.fav-meta'));
    const menu = d.getByRole('menu', { name: 'Favorite actions' });
    await visible(menu);
    await menu.getByRole('menuitem', { name: 'Delete', exact: true }).click();
    const confirm = d.getByRole('dialog');
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await visible(d.getByText('No favorites yet'));
    await hidden(rows(d).first());
    await check(d, 'favorites-05-empty-en');
  });
});
