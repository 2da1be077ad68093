import { randomUUID } from 'node:crypto';
import { MOMENT_NOTICES_PAGE } from '@sparrow/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './media-files';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  pageArea,
  type Person,
  ServerProcess,
  shot,
  socketBound,
  visible,
  befriend,
  WAIT,
  longPress,
} from './harness';

/**
 * Issue 20, browser: A posts text and three pictures to all friends but C; B sees Discover's dot
 * move live, likes and comments; A sees the notices, opens the post from one and replies; C never
 * sees the post; A deletes a comment from its long-press sheet, then the post, and it leaves B's
 * open feed. An operator changes Discover's entries and the open tab follows.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;

/** A finger laid on the element's top and dragged `dy` px down, then lifted. */
async function pullDown(page: Page, selector: string, dy: number) {
  const box = (await page.locator(selector).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + 20;
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', ty?: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: ty === undefined ? [] : [{ x, y: ty }],
    });
  await touch('touchStart', y);
  for (let step = 1; step <= 10; step += 1) await touch('touchMove', y + (dy * step) / 10);
  await visible(page.getByRole('status').filter({ hasText: '松开刷新' }));
  await touch('touchEnd');
  await cdp.detach();
}

async function openDiscover(page: Page) {
  await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: /发现/ }).click();
  await visible(page.getByRole('heading', { level: 1, name: '发现' }));
}

const TEXT = '周末去爬山了，天气很好';
const LAKE = '湖边散步';

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  // No place search and a map service out of reach, set before the pages load their policy: the
  // location picker then takes a place named by hand, offline.
  await server.admin('config', 'set', 'map.searchUrl', '');
  await server.admin('config', 'set', 'map.tileUrl', 'http://127.0.0.1:9/{z}/{x}/{y}.png');
  await new Promise((r) => setTimeout(r, 1200));
  alice = await newPerson(server, browser, 'alice_mom', 'Alice');
  bob = await newPerson(server, browser, 'bob_mom', 'Bob');
  carol = await newPerson(server, browser, 'carol_mom', 'Carol');
  await befriend(server, alice, bob);
  await befriend(server, alice, carol);
});

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('moments in three browsers', () => {
  it('A posts text and three pictures to all friends but C', async () => {
    const page = alice.page;
    await openDiscover(bob.page);
    await openDiscover(page);
    await shot(page, 'moments-discover');
    await expectAccessible(page);
    await page.getByRole('link', { name: /朋友圈/ }).click();
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈' }));
    await visible(page.getByText('朋友圈还是空的'));
    await shot(page, 'moments-empty');
    await expectAccessible(page);

    await page.getByRole('link', { name: '发表' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '发表动态' }));
    await page.getByLabel('这一刻的想法…').fill(TEXT);
    // The uploads are held until each picture has shown its progress and the post waits for them.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/common/upload/uploadFile', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('添加图片').setInputFiles(
      [
        [200, 60, 60],
        [60, 200, 60],
        [60, 60, 200],
      ].map((rgb, i) => ({
        name: `p${i}.png`,
        mimeType: 'image/png',
        buffer: png(120, 90, rgb as [number, number, number]),
      })),
    );
    await visible(page.getByRole('img', { name: '第 3 张图片' }));
    const progress = page.getByRole('progressbar', { name: /第 \d 张图片的上传进度/ });
    await visible(progress.nth(2));
    await expect(progress.count()).resolves.toBe(3);
    await expect(page.getByRole('button', { name: '发表' }).isDisabled()).resolves.toBe(true);
    await shot(page, 'moments-publish-uploading');
    release();
    await hidden(progress.first());
    await page.unroute('**/common/upload/uploadFile');
    await page.getByRole('radio', { name: '不给谁看' }).check();
    await page.getByRole('checkbox', { name: 'Carol' }).check();
    await shot(page, 'moments-publish');
    await expectAccessible(page);
    await page.getByRole('button', { name: '发表' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈' }));
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(post.getByText(TEXT));
    await expect(post.getByRole('button', { name: /查看第 \d 张图片/ }).count()).resolves.toBe(3);
    // Not for all her friends: her own post says so beside its time.
    await visible(post.getByRole('img', { name: '不给谁看' }));
    await shot(page, 'moments-feed');
  });

  it('B sees the dot live, likes and comments; C never sees the post', async () => {
    const page = bob.page;
    await visible(page.getByRole('link', { name: /朋友圈/ }).locator('.badge-dot'));
    // Beside it, the newest poster's face: Alice has no picture, so the one drawn from her name.
    await visible(
      page
        .getByRole('link', { name: /朋友圈/ })
        .locator('.avatar-fallback')
        .filter({ hasText: 'A' }),
    );
    // The 发现 tab itself carries the dot, as WeChat's does.
    await visible(
      page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: /发现/ }).locator('.badge-dot'),
    );
    await shot(page, 'moments-discover-dot');
    await page.getByRole('link', { name: /朋友圈/ }).click();
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(post.getByText(TEXT));
    // Only its author sees who a post is for.
    await expect(post.getByRole('img', { name: '不给谁看' }).count()).resolves.toBe(0);
    await post.getByRole('button', { name: /查看第 1 张图片/ }).click();
    await visible(page.getByRole('dialog'));
    await page.keyboard.press('Escape');
    await hidden(page.getByRole('dialog'));
    await post.getByRole('button', { name: '更多操作' }).click();
    await post.getByRole('button', { name: '赞' }).click();
    await visible(post.getByText('Bob', { exact: true }));
    await post.getByRole('button', { name: '更多操作' }).click();
    await post.getByRole('button', { name: '评论' }).click();
    await page.getByRole('textbox', { name: '评论' }).fill('真好看！');
    await page.getByRole('button', { name: '发送' }).click();
    await visible(post.getByRole('button', { name: /Bob：真好看！/ }));
    await shot(page, 'moments-liked');
    await expectAccessible(page);

    // Alice's album, from her name on the post: her posts that Bob may see.
    await post.getByRole('link', { name: 'Alice' }).first().click();
    await visible(page.getByRole('article', { name: 'Alice 的动态' }).getByText(TEXT));
    await shot(page, 'moments-album');
    await expectAccessible(page);
    await page.goBack();
    await visible(post.getByText(TEXT));

    await openDiscover(carol.page);
    await carol.page.getByRole('link', { name: /朋友圈/ }).click();
    await visible(carol.page.getByText('朋友圈还是空的'));
    await expect(carol.page.getByText(TEXT).count()).resolves.toBe(0);
  });

  it('A sees the notices, opens the post from one and replies; B sees the reply', async () => {
    const page = alice.page;
    // The feed's own entry to the notices: at a desk Discover's list beside it counts them too.
    const notices = pageArea(page).getByRole('link', { name: '2 条新消息' });
    await visible(notices);
    await notices.click();
    await visible(page.getByRole('heading', { level: 1, name: '消息' }));
    await visible(page.getByText('真好看！'));
    await visible(page.getByText('点赞了你的动态'));
    await shot(page, 'moments-notices');
    await expectAccessible(page);

    // A notice opens its post, with the likes and comments on it.
    await page.getByRole('link', { name: /真好看！/ }).click();
    await visible(page.getByRole('heading', { level: 1, name: '详情' }));
    const single = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(single.getByText(TEXT));
    await visible(single.getByRole('button', { name: /Bob：真好看！/ }));
    await shot(page, 'moments-post');
    await expectAccessible(page);
    await page.getByRole('button', { name: '返回' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '消息' }));
    await page.getByRole('button', { name: '返回' }).click();
    await hidden(notices);
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await post.getByRole('button', { name: /Bob：真好看！/ }).click();
    await page.getByRole('textbox', { name: '评论' }).fill('谢谢');
    await page.getByRole('button', { name: '发送' }).click();
    await visible(post.getByRole('button', { name: /Alice回复Bob：谢谢/ }));

    const bobPost = bob.page.getByRole('article', { name: 'Alice 的动态' });
    await visible(bobPost.getByRole('button', { name: /Alice回复Bob：谢谢/ }));
  });

  it('A long-presses a comment and deletes it from the sheet', async () => {
    const page = alice.page;
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await longPress(page, post.getByRole('button', { name: /Bob：真好看！/ }));
    const sheet = page.getByRole('dialog', { name: 'Bob 的评论' });
    await visible(sheet);
    await visible(sheet.getByRole('button', { name: '回复' }));
    await visible(sheet.getByRole('button', { name: '取消' }));
    await shot(page, 'moments-comment-sheet');
    await expectAccessible(page);
    // 取消 closes it and leaves the comment.
    await sheet.getByRole('button', { name: '取消' }).click();
    await hidden(sheet);
    await expect(page.getByRole('textbox', { name: '评论' }).count()).resolves.toBe(0);
    await longPress(page, post.getByRole('button', { name: /Bob：真好看！/ }));
    await sheet.getByRole('button', { name: '删除' }).click();
    await hidden(sheet);
    await hidden(post.getByRole('button', { name: /Bob：真好看！/ }));
    await visible(post.getByRole('button', { name: /Alice回复Bob：谢谢/ }));
    // Someone else's comment on someone else's post: 回复 only.
    const bobPost = bob.page.getByRole('article', { name: 'Alice 的动态' });
    await longPress(bob.page, bobPost.getByRole('button', { name: /Alice回复Bob：谢谢/ }));
    const bobSheet = bob.page.getByRole('dialog', { name: 'Alice 的评论' });
    await visible(bobSheet.getByRole('button', { name: '回复' }));
    await expect(bobSheet.getByRole('button', { name: '删除' }).count()).resolves.toBe(0);
    await bobSheet.getByRole('button', { name: '取消' }).click();
    await hidden(bobSheet);
  });

  it('A deletes the post and it leaves B’s open feed at once', async () => {
    const page = alice.page;
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(bob.page.getByRole('article', { name: 'Alice 的动态' }).getByText(TEXT));
    await post.getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await visible(page.getByText('朋友圈还是空的'));
    // No reload: the delete push takes it out of the feed Bob has open.
    await visible(bob.page.getByText('朋友圈还是空的'));
    await expect(bob.page.getByText(TEXT).count()).resolves.toBe(0);
  });

  it('pulling the feed down reloads it, and the menu has the same refresh', async () => {
    const page = carol.page;
    await visible(page.getByText('朋友圈还是空的'));
    const listed = () => page.waitForRequest((r) => r.url().endsWith('/enterprise/moments/list'));
    let request = listed();
    await pullDown(page, '.moment-list', 200);
    await request;
    await visible(page.getByText('朋友圈还是空的'));

    request = listed();
    await page.getByRole('button', { name: '朋友圈菜单' }).click();
    await page.getByRole('button', { name: '刷新' }).click();
    await request;
  });

  it('a picture that fails to upload is retried on its own; the place picked is shown and can be removed', async () => {
    const page = alice.page;
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈' }));
    await page.getByRole('link', { name: '发表' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '发表动态' }));
    let refused = false;
    await page.route('**/common/upload/uploadFile', (route) => {
      if (refused) return route.continue();
      refused = true;
      return route.abort('connectionreset');
    });
    await page
      .getByLabel('添加图片')
      .setInputFiles([{ name: 'lake.png', mimeType: 'image/png', buffer: png(120, 90, [40, 120, 200]) }]);
    const retry = page.getByRole('button', { name: '重新上传第 1 张图片' });
    await visible(retry);
    await shot(page, 'moments-publish-failed-upload');
    await expectAccessible(page);
    const postButton = page.getByRole('button', { name: '发表' });
    await expect(postButton.isDisabled()).resolves.toBe(true);
    await retry.click();
    await hidden(retry);
    // Uploaded this time: the picture alone makes the post ready to go.
    await expect.poll(() => postButton.isEnabled(), WAIT).toBe(true);
    await expect(page.getByRole('progressbar', { name: '第 1 张图片的上传进度' }).count()).resolves.toBe(0);
    await page.unroute('**/common/upload/uploadFile');

    await page.getByRole('button', { name: '所在位置' }).click();
    const picker = page.getByRole('dialog', { name: '选择位置' });
    await visible(picker);
    await picker.getByRole('textbox', { name: '名称' }).fill('西湖');
    await picker.getByRole('button', { name: '确定' }).click();
    await hidden(picker);
    await visible(page.getByRole('button', { name: /西湖/ }));
    await page.getByRole('button', { name: '移除所在位置' }).click();
    await hidden(page.getByRole('button', { name: /西湖/ }));
    await page.getByRole('button', { name: '所在位置' }).click();
    await picker.getByRole('textbox', { name: '名称' }).fill('西湖');
    await picker.getByRole('button', { name: '确定' }).click();
    await visible(page.getByRole('button', { name: /西湖/ }));
    await page.getByLabel('这一刻的想法…').fill(LAKE);
    await shot(page, 'moments-publish-location');
    await expectAccessible(page);
    await postButton.click();
    const published = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(published.getByText(LAKE));
    await visible(published.getByRole('button', { name: '查看位置：西湖' }));
    await shot(page, 'moments-feed-location');
  });

  it('the settings screen hides A’s posts from the friend A picks', async () => {
    const page = alice.page;
    await page.getByRole('button', { name: '朋友圈菜单' }).click();
    await shot(page, 'moments-menu');
    await page.getByRole('link', { name: '朋友圈设置' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈设置' }));
    await visible(page.getByRole('radio', { name: '全部' }));
    await expect(page.getByRole('radio', { name: '全部' }).isChecked()).resolves.toBe(true);
    await shot(page, 'moments-settings');
    await expectAccessible(page);

    await page.getByRole('link', { name: /不给他（她）看我的朋友圈/ }).click();
    await visible(page.getByRole('heading', { level: 1, name: '不给他（她）看我的朋友圈' }));
    await page.getByRole('checkbox', { name: 'Bob' }).check();
    await shot(page, 'moments-settings-hide-from');
    await expectAccessible(page);
    await page.getByRole('button', { name: '保存' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈设置' }));
    await visible(page.getByRole('link', { name: /不给他（她）看我的朋友圈\s*1 人/ }));

    // Bob's feed and Alice's album no longer hold her post; Carol's still does, with its place.
    await bob.page.reload();
    await visible(bob.page.getByText('朋友圈还是空的'));
    await expect(bob.page.getByText(LAKE).count()).resolves.toBe(0);
    await carol.page.reload();
    const seen = carol.page.getByRole('article', { name: 'Alice 的动态' });
    await visible(seen.getByText(LAKE));
    await seen.getByRole('button', { name: '查看位置：西湖' }).click();
    await visible(carol.page.getByRole('dialog', { name: '位置：西湖' }));
    await carol.page.keyboard.press('Escape');

    // Back to everyone: Bob sees it again.
    await page.getByRole('link', { name: /不给他（她）看我的朋友圈/ }).click();
    await page.getByRole('checkbox', { name: 'Bob' }).uncheck();
    await page.getByRole('button', { name: '保存' }).click();
    await visible(page.getByRole('link', { name: /不给他（她）看我的朋友圈\s*未设置/ }));
    await bob.page.reload();
    await visible(bob.page.getByRole('article', { name: 'Alice 的动态' }).getByText(LAKE));
  });

  it('B sees A’s own cover on her album, not his', async () => {
    const page = alice.page;
    await page.getByRole('button', { name: '返回' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈' }));
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: '更换封面' }).click();
    await (await chooser).setFiles({ name: 'cover.png', mimeType: 'image/png', buffer: png(400, 240, [220, 130, 40]) });
    const cover = page.getByRole('button', { name: '更换封面' });
    await expect.poll(() => cover.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('/storage/');
    const url = await cover.evaluate((el) => getComputedStyle(el).backgroundImage);

    const bobs = bob.page;
    await bobs.getByRole('article', { name: 'Alice 的动态' }).getByRole('link', { name: 'Alice' }).first().click();
    const albumCover = bobs.getByRole('img', { name: 'Alice 的封面' });
    await visible(albumCover);
    await expect(albumCover.evaluate((el) => getComputedStyle(el).backgroundImage)).resolves.toBe(url);
    await shot(bobs, 'moments-album-cover');
    await expectAccessible(bobs);
    // Bob's own feed keeps his own (unset) cover.
    await bobs.goBack();
    await expect(
      bobs.getByRole('button', { name: '更换封面' }).evaluate((el) => getComputedStyle(el).backgroundImage),
    ).resolves.not.toBe(url);
  });

  it('the open Discover tab follows the operator: a grid, a web page in the in-app browser, then closed', async () => {
    const page = carol.page;
    const bound = socketBound(page);
    await page.goto(`${server.url}/`);
    await bound;
    await openDiscover(page);
    await visible(page.getByRole('link', { name: /朋友圈/ }));
    await expect(page.locator('.compass-grid').count()).resolves.toBe(0);

    await server.admin(
      'config',
      'set',
      'compass.list',
      JSON.stringify([
        { icon: 'moments', name: 'moments', type: 1, url: '/pages/compass/moments' },
        { icon: '', name: '新闻', type: 2, url: 'http://127.0.0.1:9/news' },
      ]),
    );
    await server.admin('config', 'set', 'compass.mode', '2');
    const grid = page.locator('.compass-grid');
    await visible(grid.getByRole('link', { name: '新闻' }));
    await visible(grid.getByRole('link', { name: /朋友圈/ }));
    await shot(page, 'discover-grid');
    await expectAccessible(page);

    await grid.getByRole('link', { name: '新闻' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '127.0.0.1:9' }));
    await page.goBack();
    await openDiscover(page);

    await server.admin('config', 'set', 'compass.status', '0');
    await visible(page.getByText('“发现”页已关闭'));
    await expect(page.getByRole('link', { name: /朋友圈|新闻|扫一扫/ }).count()).resolves.toBe(0);
    await shot(page, 'discover-off');
    await expectAccessible(page);

    await server.admin('config', 'set', 'compass.status', '1');
    await visible(grid.getByRole('link', { name: /朋友圈/ }));
    await visible(page.getByRole('link', { name: '扫一扫' }));
  });

  it('the notices page shows older notices a page at a time', async () => {
    const { id } = await server.post<{ id: number }>(
      '/enterprise/moments/publish',
      { id: randomUUID(), content: '问问大家', visibility: 1 },
      alice.token,
    );
    const total = MOMENT_NOTICES_PAGE + 1;
    for (let i = 1; i <= total; i++)
      await server.post('/enterprise/moments/comment', { id, content: `第${i}条评论` }, bob.token);
    const page = alice.page;
    await page.goto(`${server.url}/#/pages/compass/notices`);
    await visible(page.getByRole('heading', { level: 1, name: '消息' }));
    await visible(page.getByText(`第${total}条评论`));
    await expect(page.locator('.moment-notice-list li').count()).resolves.toBe(MOMENT_NOTICES_PAGE);
    await expect(page.getByText('第1条评论', { exact: true }).count()).resolves.toBe(0);
    await shot(page, 'moments-notices-older');
    await page.getByRole('button', { name: '查看更早的消息' }).click();
    await visible(page.getByText('第1条评论', { exact: true }));
    // Notices of the earlier tests' posts may follow; the newest page held exactly one page.
    expect(await page.locator('.moment-notice-list li').count()).toBeGreaterThanOrEqual(total);
    await hidden(page.getByRole('button', { name: '查看更早的消息' }));
    await expectAccessible(page);
  });
});
