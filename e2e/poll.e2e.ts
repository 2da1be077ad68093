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
 * Polls (投票) between three people at 375 px: Alice starts a named single-choice poll in a group
 * of the three from the + panel; Bob and Carol vote; all three see the counts live; Bob changes his
 * vote; Alice reads who chose an option, then ends the poll, and Carol can no longer vote.
 */

let server: ServerProcess;
let browser: Browser;
let alice: Person;
let bob: Person;
let carol: Person;
let groupId: string;

phoneSuite(
  'poll',
  (s, b) => ([server, browser] = [s, b]),
  () => [alice, bob, carol],
);

const openGroup = (page: Page) => openGroupChat(server, page, groupId, /午饭小组/);

/** The poll's bubble on a page. */
const card = (page: Page): Locator => page.getByRole('region', { name: /^(投票：|Poll: )今天午饭吃什么$/ });

/** Each option's count as a bubble showing results says it ("面，1 票"). */
const results = (page: Page) =>
  card(page)
    .getByRole('list')
    .getByRole('listitem')
    .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''));

beforeAll(async () => {
  ({
    people: [alice, bob, carol],
    groupId,
  } = await groupOfThree(
    server,
    browser,
    [
      ['alice_poll', 'Alice'],
      ['bob_poll', 'Bob'],
      ['carol_poll', 'Carol'],
    ],
    '午饭小组',
  ));
});

describe('polls (投票)', () => {
  it('A starts a poll; B and C vote and all see the counts live; B changes his vote; A reads the voters and ends it', async () => {
    const [a, b, c] = [alice.page, bob.page, carol.page];
    await Promise.all([openGroup(a), openGroup(b), openGroup(c)]);

    // The + panel of a group offers 投票: the question, options added and removed, 多选, 匿名, a deadline.
    await a.getByRole('main').getByRole('button', { name: '更多功能', exact: true }).click();
    await a.getByRole('group', { name: '更多功能' }).getByRole('button', { name: '投票' }).click();
    const sheet = a.getByRole('dialog', { name: '发起投票' });
    await visible(sheet);
    await sheet.getByRole('textbox', { name: '投票主题' }).fill('今天午饭吃什么');
    await sheet.getByRole('textbox', { name: '选项 1' }).fill('面');
    await sheet.getByRole('textbox', { name: '选项 2' }).fill('饭');
    await sheet.getByRole('button', { name: '添加选项' }).click();
    await sheet.getByRole('textbox', { name: '选项 3' }).fill('粥');
    await sheet.getByRole('button', { name: '添加选项' }).click();
    await sheet.getByRole('textbox', { name: '选项 4' }).fill('不吃');
    await sheet.getByRole('button', { name: '删除选项 4' }).click();
    expect(await sheet.getByRole('textbox', { name: '选项 4' }).count()).toBe(0);
    await sheet.getByText('1 天').click();
    await settled(a);
    await expectAccessible(a);
    await shot(a, 'poll-create-sheet');
    await sheet.getByRole('button', { name: '发起', exact: true }).click();
    await hidden(sheet);

    // Everyone's chat shows it live, to vote on.
    for (const page of [a, b, c]) await visible(card(page));
    await visible(card(b).getByText('0 人参与'));
    await settled(b);
    await fitsScreen(b);
    await expectAccessible(b);
    await shot(b, 'poll-before-vote');

    // A single-choice poll is a radio group named by its question.
    await visible(card(b).getByRole('radiogroup', { name: '今天午饭吃什么' }));
    await card(b).getByRole('radio', { name: '饭', exact: true }).click();
    await visible(card(b).getByText('1 人参与'));
    await card(c).getByRole('radio', { name: '面', exact: true }).click();
    const afterTwo = ['面，1 票', '饭，1 票', '粥，0 票'];
    const mine = (label: string) => `${label}，已选`;
    await expect.poll(() => results(b), WAIT).toEqual([afterTwo[0], mine(afterTwo[1]!), afterTwo[2]]);
    await expect.poll(() => results(c), WAIT).toEqual([mine(afterTwo[0]!), afterTwo[1], afterTwo[2]]);
    // Alice has not voted: she is offered the options, and sees the count live.
    await expect.poll(() => card(a).getByText('2 人参与').count(), WAIT).toBe(1);
    await settled(c);
    await fitsScreen(c);
    await expectAccessible(c);
    await shot(c, 'poll-two-votes');

    // Bob changes his vote to 粥: everyone's counts follow.
    // Changing shows the current choice, and may be cancelled.
    await card(b).getByRole('button', { name: '修改投票' }).click();
    expect(await card(b).getByRole('radio', { name: '饭', exact: true }).getAttribute('aria-checked')).toBe('true');
    expect(await card(b).getByRole('radio', { name: '粥', exact: true }).getAttribute('aria-checked')).toBe('false');
    await settled(b);
    await expectAccessible(b);
    await shot(b, 'poll-changing');
    await card(b).getByRole('button', { name: '取消', exact: true }).click();
    await expect.poll(() => results(b), WAIT).toEqual(['面，1 票', mine('饭，1 票'), '粥，0 票']);
    await card(b).getByRole('button', { name: '修改投票' }).click();
    await card(b).getByRole('radio', { name: '粥', exact: true }).click();
    await expect.poll(() => results(b), WAIT).toEqual(['面，1 票', '饭，0 票', mine('粥，1 票')]);
    await expect.poll(() => results(c), WAIT).toEqual([mine('面，1 票'), '饭，0 票', '粥，1 票']);

    // Alice votes too, then reads who chose 面.
    await card(a).getByRole('radio', { name: '面', exact: true }).click();
    await expect.poll(() => results(a), WAIT).toEqual([mine('面，2 票'), '饭，0 票', '粥，1 票']);
    await expect.poll(() => results(b), WAIT).toEqual(['面，2 票', '饭，0 票', mine('粥，1 票')]);
    await card(a).getByRole('button', { name: '查看投票人' }).click();
    const voters = a.getByRole('dialog', { name: '投票人' });
    await visible(voters);
    const noodles = voters.getByRole('region', { name: '面' });
    await visible(noodles.getByText('Carol'));
    await visible(noodles.getByText('Alice'));
    await visible(voters.getByRole('region', { name: '粥' }).getByText('Bob'));
    await settled(a);
    await expectAccessible(a);
    await shot(a, 'poll-voters');
    await voters.getByRole('button', { name: '关闭' }).click();
    await hidden(voters);

    // Only the starter (and the owner and admins) ends it: Carol is offered no such button.
    expect(await card(c).getByRole('button', { name: '结束投票' }).count()).toBe(0);
    await card(a).getByRole('button', { name: '结束投票' }).click();
    const confirm = a.getByRole('dialog').getByRole('button', { name: '结束投票', exact: true });
    await visible(confirm);
    await confirm.click();
    for (const page of [a, b, c]) await visible(card(page).getByText(/已结束/));
    expect(await card(c).getByRole('radio').count()).toBe(0);
    expect(await card(c).getByRole('button', { name: '修改投票' }).count()).toBe(0);
    expect(await results(c)).toEqual([mine('面，2 票'), '饭，0 票', '粥，1 票']);
    await settled(c);
    await fitsScreen(c);
    await expectAccessible(c);
    await shot(c, 'poll-closed');

    // History shows the poll as it is now, with my own choice.
    await c.reload();
    await visible(card(c).getByText(/已结束/));
    expect(await results(c)).toEqual([mine('面，2 票'), '饭，0 票', '粥，1 票']);
  });
});
