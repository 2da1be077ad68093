import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { png } from './media-files';
import {
  expectAccessible,
  hidden,
  launchBrowser,
  newPerson,
  type Person,
  ServerProcess,
  shot,
  visible,
} from './harness';

/**
 * Issue 20, browser: A posts text and three pictures to all friends but C; B sees Discover's dot
 * move live, likes and comments; A sees the notices and replies; C never sees the post; A deletes
 * it and it is gone for B.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;

async function befriend(a: Person, b: Person) {
  await server.post('/enterprise/friend/add', { user_id: b.id, remark: '' }, a.token);
  const requests = await server.post<Array<{ friend_id: number }>>('/enterprise/friend/index', { is_mine: 0 }, b.token);
  await server.post('/enterprise/friend/update', { friend_id: requests[0]!.friend_id, status: 1 }, b.token);
}

async function openDiscover(page: Page) {
  await page.getByRole('navigation', { name: '主导航' }).getByRole('button', { name: /发现/ }).click();
  await visible(page.getByRole('heading', { level: 1, name: '发现' }));
}

const TEXT = '周末去爬山了，天气很好';

beforeAll(async () => {
  [server, browser] = await Promise.all([ServerProcess.start(), launchBrowser()]);
  alice = await newPerson(server, browser, 'alice_mom', 'Alice');
  bob = await newPerson(server, browser, 'bob_mom', 'Bob');
  carol = await newPerson(server, browser, 'carol_mom', 'Carol');
  await befriend(alice, bob);
  await befriend(alice, carol);
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
    await hidden(page.getByText('上传中…').first());
    await page.getByRole('radio', { name: '不给谁看' }).check();
    await page.getByRole('checkbox', { name: 'Carol' }).check();
    await shot(page, 'moments-publish');
    await expectAccessible(page);
    await page.getByRole('button', { name: '发表' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '朋友圈' }));
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(post.getByText(TEXT));
    await expect(post.getByRole('button', { name: /查看第 \d 张图片/ }).count()).resolves.toBe(3);
    await shot(page, 'moments-feed');
  });

  it('B sees the dot live, likes and comments; C never sees the post', async () => {
    const page = bob.page;
    await visible(page.getByRole('link', { name: /朋友圈/ }).locator('.badge-dot'));
    await shot(page, 'moments-discover-dot');
    await page.getByRole('link', { name: /朋友圈/ }).click();
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await visible(post.getByText(TEXT));
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

  it('A sees the notices and replies; B sees the reply', async () => {
    const page = alice.page;
    await visible(page.getByRole('button', { name: '2 条新消息' }));
    await page.getByRole('button', { name: '2 条新消息' }).click();
    await visible(page.getByRole('heading', { level: 1, name: '消息' }));
    await visible(page.getByText('真好看！'));
    await visible(page.getByText('点赞了你的动态'));
    await shot(page, 'moments-notices');
    await expectAccessible(page);
    await page.getByRole('button', { name: '返回' }).click();
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await post.getByRole('button', { name: /Bob：真好看！/ }).click();
    await page.getByRole('textbox', { name: '评论' }).fill('谢谢');
    await page.getByRole('button', { name: '发送' }).click();
    await visible(post.getByRole('button', { name: /Alice回复Bob：谢谢/ }));

    const bobPost = bob.page.getByRole('article', { name: 'Alice 的动态' });
    await visible(bobPost.getByRole('button', { name: /Alice回复Bob：谢谢/ }));
  });

  it('A deletes the post and it is gone for B', async () => {
    const page = alice.page;
    const post = page.getByRole('article', { name: 'Alice 的动态' });
    await post.getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    await visible(page.getByText('朋友圈还是空的'));
    await bob.page.reload();
    await visible(bob.page.getByText('朋友圈还是空的'));
  });
});
