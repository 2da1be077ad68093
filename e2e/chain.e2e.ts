import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  fitsScreen,
  hidden,
  type Person,
  type ServerProcess,
  settled,
  shot,
  visible,
  WAIT,
} from './harness';
import { groupOfThree, openGroupChat, phoneSuite } from './people';

/**
 * Sign-up chains (接龙) between three people at 375 px: Alice starts one in a group of the three
 * from the + panel; Bob and Carol add their lines from the bubble's 接龙 button; every open chat
 * shows lines 1..3 live; Alice closes it and Bob can no longer add or change his.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;
let groupId: string;

phoneSuite(
  'chain',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carol],
);

const openGroup = (page: Page) => openGroupChat(server, page, groupId, /周末活动/);

/** The chain's bubble on a page. */
const card = (page: Page): Locator => page.getByRole('region', { name: /^(接龙：|Sign-up list: )周五聚餐$/ });

/** The numbered lines a chain's bubble shows. */
const lines = (page: Page) =>
  card(page)
    .getByRole('list')
    .getByRole('listitem')
    .allTextContents()
    .then((items) => items.map((s) => s.trim()));

/** Adds (or changes) my line through the bubble's button and the box it opens. */
async function addLine(page: Page, button: RegExp, text: string, name: string): Promise<void> {
  await card(page).getByRole('button', { name: button }).click();
  const sheet = page.getByRole('dialog', { name: '周五聚餐' });
  await visible(sheet);
  const box = sheet.getByRole('textbox');
  await box.fill(text);
  await shot(page, `chain-line-${name}`);
  await sheet.getByRole('button', { name: /^(提交|Submit)$/ }).click();
  await hidden(sheet);
}

beforeAll(async () => {
  ({
    people: [alice, bob, carol],
    groupId,
  } = await groupOfThree(
    server,
    browser,
    [
      ['alice_chain', 'Alice'],
      ['bob_chain', 'Bob', 'en'],
      ['carol_chain', 'Carol'],
    ],
    '周末活动',
  ));
});

describe('sign-up chains (接龙)', () => {
  it('A starts a chain; B and C add lines and every bubble shows 1..3 live; A closes it and B can add no more', async () => {
    const [a, b, c] = [alice.page, bob.page, carol.page];
    await Promise.all([openGroup(a), openGroup(b), openGroup(c)]);

    // The + panel of a group offers 接龙: a sheet with the title and the example line.
    await a.getByRole('main').getByRole('button', { name: '更多功能', exact: true }).click();
    const panel = a.getByRole('group', { name: '更多功能' });
    await panel.getByRole('button', { name: '接龙' }).click();
    const start = a.getByRole('dialog', { name: '发起接龙' });
    await visible(start);
    await start.getByRole('textbox', { name: '主题' }).fill('周五聚餐');
    await start.getByRole('textbox', { name: '例子（选填）' }).fill('姓名 + 人数');
    await settled(a);
    await expectAccessible(a);
    await shot(a, 'chain-start-sheet');
    await start.getByRole('button', { name: '发起' }).click();
    await hidden(start);

    // Everyone's chat shows it live, with nobody in it yet.
    for (const page of [a, b, c]) await visible(card(page));
    await visible(card(a).getByText('还没有人参与'));
    await visible(card(b).getByText('姓名 + 人数'));

    // Bob's box starts from the example; his line shows everywhere as 1.
    await card(b).getByRole('button', { name: 'Sign up' }).click();
    const bobSheet = b.getByRole('dialog', { name: '周五聚餐' });
    await visible(bobSheet);
    expect(await bobSheet.getByRole('textbox').inputValue()).toBe('姓名 + 人数');
    await expectAccessible(b);
    await bobSheet.getByRole('button', { name: 'Close' }).click();
    await hidden(bobSheet);
    await addLine(b, /^Sign up$/, 'Bob 2 人', 'bob');
    for (const page of [a, b, c]) await expect.poll(() => lines(page), WAIT).toEqual(['Bob Bob 2 人']);

    await addLine(c, /^接龙$/, 'Carol 1 人', 'carol');
    await addLine(a, /^接龙$/, 'Alice 3 人', 'alice');
    const all = ['Bob Bob 2 人', 'Carol Carol 1 人', 'Alice Alice 3 人'];
    for (const page of [a, b, c]) await expect.poll(() => lines(page), WAIT).toEqual(all);
    await visible(card(c).getByText('3 人已参与'));
    await settled(c);
    await fitsScreen(c);
    await expectAccessible(c);
    await shot(c, 'chain-three-lines');

    // Bob changes his own line, in its place.
    await addLine(b, /^Edit$/, 'Bob 4 人', 'bob-edit');
    const changed = ['Bob Bob 4 人', 'Carol Carol 1 人', 'Alice Alice 3 人'];
    for (const page of [a, b, c]) await expect.poll(() => lines(page), WAIT).toEqual(changed);
    // Only the starter (or the owner and admins) closes it: Carol is offered no such button.
    expect(await card(c).getByRole('button', { name: '结束接龙' }).count()).toBe(0);

    await card(a).getByRole('button', { name: '结束接龙' }).click();
    const confirm = a.getByRole('dialog').getByRole('button', { name: '结束接龙', exact: true });
    await visible(confirm);
    await confirm.click();
    for (const page of [a, c]) await visible(card(page).getByText('已结束'));
    await visible(card(b).getByText('Closed'));
    expect(
      await card(b)
        .getByRole('button', { name: /^(Edit|Sign up)$/ })
        .count(),
    ).toBe(0);
    expect(await lines(b)).toEqual(changed);
    await settled(b);
    await fitsScreen(b);
    await expectAccessible(b);
    await shot(b, 'chain-closed-en');
    await settled(a);
    await shot(a, 'chain-closed-zh');

    // History shows the chain as it is now.
    await b.reload();
    await visible(card(b).getByText('Closed'));
    expect(await lines(b)).toEqual(changed);
  });
});
