import { describe, expect, it } from 'vitest';
import { chatPath, groupPath, managePaths, momentPaths, paths, withQuery } from '../nav/paths';
import { wholeWindow } from './desk-screen';
import {
  behindPanel,
  chatToMoveFrom,
  clampListWidth,
  deskLayout,
  homeAddress,
  homeTab,
  LIST_WIDTH,
  listWidthAfterKey,
  maxListWidth,
  panelBase,
  openChatKey,
  openContactId,
  parseMemory,
  placeOf,
  rememberLayout,
  type DeskMemory,
} from './desk-panes';

const none: DeskMemory = { middle: null, rail: null };

/** The layouts of a walk through addresses, each remembered for the next as the shell does. */
function walk(addresses: string[], memory: DeskMemory = none) {
  return addresses.map((address) => {
    const layout = deskLayout(placeOf(address), memory);
    memory = rememberLayout(layout, memory);
    return layout;
  });
}

describe('list width', () => {
  it('keeps a width between the bounds, whole pixels, and reads anything else as the initial one', () => {
    expect(clampListWidth(320.4)).toBe(320);
    expect(clampListWidth(10)).toBe(LIST_WIDTH.min);
    expect(clampListWidth(5000)).toBe(LIST_WIDTH.max);
    expect(clampListWidth(undefined)).toBe(LIST_WIDTH.initial);
    expect(clampListWidth('400')).toBe(LIST_WIDTH.initial);
    expect(clampListWidth(Number.NaN)).toBe(LIST_WIDTH.initial);
  });

  it('moves by a step on the arrow keys, to a bound on Home and End, and leaves other keys', () => {
    expect(listWidthAfterKey(300, 'ArrowRight')).toBe(300 + LIST_WIDTH.step);
    expect(listWidthAfterKey(300, 'ArrowLeft')).toBe(300 - LIST_WIDTH.step);
    expect(listWidthAfterKey(LIST_WIDTH.max, 'ArrowRight')).toBe(LIST_WIDTH.max);
    expect(listWidthAfterKey(300, 'Home')).toBe(LIST_WIDTH.min);
    expect(listWidthAfterKey(300, 'End')).toBe(LIST_WIDTH.max);
    expect(listWidthAfterKey(300, 'Enter')).toBeNull();
  });

  it('leaves the chat 400 px beside the rail, the list and a panel, however narrow the window', () => {
    // 1024 − rail 68 − panel 320 − chat 400 leaves less than the list's minimum: the minimum.
    expect(maxListWidth(1024)).toBe(LIST_WIDTH.min);
    expect(maxListWidth(1100)).toBe(1100 - 68 - 320 - 400);
    expect(maxListWidth(1280)).toBe(LIST_WIDTH.max);
    // A kept 480 is drawn narrower at 1024 and comes back when the window widens.
    expect(clampListWidth(480, maxListWidth(1024))).toBe(LIST_WIDTH.min);
    expect(1024 - 68 - clampListWidth(480, maxListWidth(1024)) - 320).toBeGreaterThanOrEqual(396);
    expect(clampListWidth(480, maxListWidth(1920))).toBe(480);
    expect(listWidthAfterKey(300, 'End', maxListWidth(1100))).toBe(312);
    expect(listWidthAfterKey(304, 'ArrowRight', maxListWidth(1100))).toBe(312);
  });
});

describe('which pane a page goes to', () => {
  it('leaves signing in, the console and a call over the whole window', () => {
    for (const path of [paths.login, paths.register, paths.entry, managePaths.console, '/pages/message/call'])
      expect(wholeWindow(path)).toBe(true);
    expect(wholeWindow('/no/such/page')).toBe(true);
    expect(deskLayout(placeOf(paths.login), none)).toEqual({ kind: 'whole' });
    expect(wholeWindow(paths.chat)).toBe(false);
  });

  it('shows a tab’s list with an empty middle on the home and contacts addresses', () => {
    expect(deskLayout(placeOf(paths.home), none)).toEqual({
      kind: 'panes',
      rail: 'messages',
      middle: null,
      panel: null,
    });
    expect(deskLayout(placeOf(paths.contacts), none)).toMatchObject({ rail: 'contacts', middle: null });
    expect(deskLayout(placeOf(withQuery(paths.home, { tab: 'me' })), none)).toMatchObject({ rail: 'me' });
    expect(deskLayout(placeOf(withQuery(paths.home, { tab: 'nonsense' })), none)).toMatchObject({ rail: 'messages' });
    // The phone's home page picks its tab by the same rule, paths in any case.
    expect(homeTab(placeOf('/pages/CONTACTS/index'))).toBe('contacts');
    expect(homeTab(placeOf(withQuery(paths.home, { tab: 'discover' })))).toBe('discover');
  });

  it('opens a chat in the middle beside the Messages list', () => {
    const [layout] = walk([chatPath('5')]);
    expect(layout).toEqual({ kind: 'panes', rail: 'messages', middle: placeOf(chatPath('5')), panel: null });
  });

  it('opens a chat’s info and a group’s pages beside that chat, from a link or after it', () => {
    const [info] = walk([withQuery(paths.chatDetail, { id: '5' })]);
    expect(info).toMatchObject({ middle: placeOf(chatPath('5')), panel: placeOf('/pages/message/detail?id=5') });
    const [, members] = walk([chatPath('group-3'), groupPath('members', 'group-3')]);
    expect(members).toMatchObject({
      middle: placeOf(chatPath('group-3')),
      panel: { pathname: '/pages/message/group/groupUser' },
    });
    const [, , robot] = walk([
      chatPath('group-3'),
      groupPath('robots', 'group-3'),
      groupPath('robots', 'group-3', { robot: '4' }),
    ]);
    expect(robot).toMatchObject({
      middle: placeOf(chatPath('group-3')),
      panel: { pathname: '/pages/message/group/robots', search: '?id=group-3&robot=4' },
    });
    // Another chat's info does not sit beside the chat that was open.
    const [, other] = walk([chatPath('7'), withQuery(paths.chatDetail, { id: '5' })]);
    expect(other).toMatchObject({ middle: placeOf(chatPath('5')) });
  });

  it('opens a profile beside the chat it came from, and in the middle from the contacts list', () => {
    const profile = withQuery(paths.contactDetail, { id: 9 });
    const [, fromChat] = walk([chatPath('group-3'), profile]);
    expect(fromChat).toMatchObject({ rail: 'messages', middle: placeOf(chatPath('group-3')), panel: placeOf(profile) });
    const [, fromContacts] = walk([paths.contacts, profile]);
    expect(fromContacts).toMatchObject({ rail: 'contacts', middle: placeOf(profile), panel: null });
    // A link to a profile with nothing before it: in the middle, under the Contacts tab.
    expect(walk([profile])[0]).toMatchObject({ rail: 'contacts', middle: placeOf(profile), panel: null });
  });

  it('pairs a panel with the middle page its history entry recorded, before the last one shown', () => {
    const info = placeOf(withQuery(paths.chatDetail, { id: '5' }));
    const lastShown: DeskMemory = {
      middle: placeOf(withQuery(paths.chat, { id: '5', msg_id: 900 })),
      rail: 'messages',
    };
    const recorded = placeOf(withQuery(paths.chat, { id: '5', msg_id: 12 }));
    // Back into the info of chat 5 after chat 5 was opened again at another message.
    expect(deskLayout(info, lastShown, recorded)).toMatchObject({ middle: recorded, panel: info });
    // A record of another chat is not this panel's.
    expect(deskLayout(info, lastShown, placeOf(chatPath('7')))).toMatchObject({ middle: lastShown.middle });
    // Back into a profile opened from a chat, after another chat was shown since.
    const profile = placeOf(withQuery(paths.contactDetail, { id: 9 }));
    const other: DeskMemory = { middle: placeOf(chatPath('7')), rail: 'messages' };
    expect(deskLayout(profile, other, placeOf(chatPath('group-3')))).toMatchObject({
      middle: placeOf(chatPath('group-3')),
      panel: profile,
    });
  });

  it('opens a profile in the middle from the Contacts list picked beside an open chat', () => {
    const profile = placeOf(withQuery(paths.contactDetail, { id: 9 }));
    const picked: DeskMemory = { middle: placeOf(chatPath('5')), rail: 'contacts' };
    expect(deskLayout(profile, picked)).toMatchObject({ rail: 'contacts', middle: profile, panel: null });
  });

  it('keeps the rail where it was for pages that belong to no tab, and picks one for a link', () => {
    const [, favourites] = walk([withQuery(paths.home, { tab: 'me' }), '/pages/mine/favorites']);
    expect(favourites).toMatchObject({ rail: 'me', middle: placeOf('/pages/mine/favorites') });
    expect(walk([momentPaths.moments])[0]).toMatchObject({ rail: 'discover' });
    expect(walk([paths.setting])[0]).toMatchObject({ rail: 'me' });
    // Settings → 开发者: a bot's page opened by a link stands in the middle with Me on the rail.
    const bot = withQuery(paths.bots, { bot: 12 });
    expect(walk([bot])[0]).toEqual({ kind: 'panes', rail: 'me', middle: placeOf(bot), panel: null });
    expect(walk([paths.tokens])[0]).toMatchObject({ rail: 'me' });
    expect(walk([paths.search])[0]).toMatchObject({ rail: 'messages' });
    const [, , search] = walk([paths.contacts, paths.friend, paths.search]);
    expect(search).toMatchObject({ rail: 'contacts' });
  });

  it('closes a panel to the page beside it', () => {
    const [, panel] = walk([chatPath('5'), withQuery(paths.chatDetail, { id: '5' })]);
    expect(behindPanel(panel!)).toBe(chatPath('5'));
    expect(behindPanel(walk([chatPath('5')])[0]!)).toBeNull();
  });
});

describe('closing the panel', () => {
  it('steps back to the entry the panel was opened from, Back and Forward alike', () => {
    // Opened by a link from the chat at 3: the chat's entry is the base.
    expect(panelBase(4, null, null, true)).toBe(3);
    // A member's profile followed inside the panel: the same base, two steps to close.
    expect(panelBase(5, null, 3, true)).toBe(3);
    // Back to the info, then Forward to the profile again: what the entries recorded.
    expect(panelBase(4, 3, 3, false)).toBe(3);
    expect(panelBase(5, 3, 3, false)).toBe(3);
    // Forward into the info from the chat (a POP, no panel before): its own record.
    expect(panelBase(4, 3, null, false)).toBe(3);
    // A link from outside or a reload: nothing of the app's behind it.
    expect(panelBase(0, null, null, false)).toBe(0);
    expect(panelBase(7, null, null, false)).toBe(7);
    // A record from past this entry (the entry was replaced) is not used.
    expect(panelBase(2, 5, null, true)).toBe(1);
  });
});

describe('moving between chats', () => {
  it('moves from the chat at the address, or from the chat beside an open panel', () => {
    expect(chatToMoveFrom(placeOf(chatPath('5')), null)).toBe('5');
    expect(chatToMoveFrom(placeOf(withQuery(paths.chatDetail, { id: '5' })), placeOf(chatPath('5')))).toBe('5');
    expect(chatToMoveFrom(placeOf(withQuery(paths.contactDetail, { id: 9 })), placeOf(chatPath('group-3')))).toBe(
      'group-3',
    );
    expect(chatToMoveFrom(placeOf(paths.setting), placeOf(paths.setting))).toBeNull();
    expect(chatToMoveFrom(placeOf(withQuery(paths.chatDetail, { id: '5' })), null)).toBeNull();
  });
});

describe('the rail', () => {
  it('leads each tab to its home address', () => {
    expect(homeAddress('messages')).toBe(paths.home);
    expect(homeAddress('contacts')).toBe(paths.contacts);
    expect(homeTab(placeOf(homeAddress('me')))).toBe('me');
    expect(homeTab(placeOf(homeAddress('discover')))).toBe('discover');
  });
});

describe('what the list marks', () => {
  it('marks the chat shown or shown the info of, and the profile shown', () => {
    expect(openChatKey(placeOf(chatPath('group-3')))).toBe('group-3');
    expect(openChatKey(placeOf(groupPath('info', 'group-3')))).toBe('group-3');
    expect(openChatKey(placeOf(paths.setting))).toBeNull();
    expect(openContactId(placeOf(withQuery(paths.contactDetail, { id: 9 })))).toBe('9');
    expect(openContactId(placeOf(chatPath('9')))).toBeNull();
  });
});

describe('the remembered layout', () => {
  it('reads back what was written and drops anything it cannot use', () => {
    const memory: DeskMemory = { middle: placeOf(chatPath('5')), rail: 'contacts' };
    expect(parseMemory(JSON.stringify(memory))).toEqual(memory);
    expect(parseMemory('not json')).toEqual(none);
    expect(parseMemory(null)).toEqual(none);
    expect(parseMemory(JSON.stringify({ middle: { pathname: paths.login, search: '' }, rail: 'x' }))).toEqual(none);
  });

  it('leaves the memory alone for a whole-window page', () => {
    const memory: DeskMemory = { middle: placeOf(chatPath('5')), rail: 'messages' };
    expect(rememberLayout({ kind: 'whole' }, memory)).toBe(memory);
  });
});
