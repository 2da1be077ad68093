import type { Message } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { msg } from '../chat/test-messages';
import { contactRow } from '../test/fixtures';
import {
  notificationOf,
  notificationTag,
  notifies,
  TAB_STALE_MS,
  tabNotifies,
  titleWithUnread,
  type Attention,
  type TabState,
} from './notification';

const ME = 1;
const away: Attention = { visible: false, focused: false };
/** Words as `key(params)`, so that a test sees which words were asked and with what. */
const t = (key: string, params: Record<string, string> = {}) => `${key}(${Object.values(params).join(',')})`;

describe('the unread count in the page title', () => {
  const word = ({ title, count }: { title: string; count: string }) => `(${count}) ${title}`;

  it('puts the count before the title, capped as the tab bar caps it, and nothing at 0', () => {
    expect(titleWithUnread('首页', 3, word)).toBe('(3) 首页');
    expect(titleWithUnread('首页', 120, word)).toBe('(99+) 首页');
    expect(titleWithUnread('首页', 0, word)).toBe('首页');
  });
});

describe('which messages notify', () => {
  const friend = contactRow(2, { is_notice: 1 });

  it('notifies while the page is hidden or its window unfocused, not while looked at', () => {
    expect(notifies(msg(1), ME, friend, away)).toBe(true);
    expect(notifies(msg(1), ME, friend, { visible: true, focused: false })).toBe(true);
    expect(notifies(msg(1), ME, friend, { visible: false, focused: true })).toBe(true);
    expect(notifies(msg(1), ME, friend, { visible: true, focused: true })).toBe(false);
  });

  it('never for a muted chat, my own message from another device, an event line or my file transfer chat', () => {
    expect(notifies(msg(1), ME, contactRow(2, { is_notice: 0 }), away)).toBe(false);
    expect(notifies(msg(1, { from: ME, to: 2 }), ME, friend, away)).toBe(false);
    expect(notifies({ ...msg(1), type: 'event' }, ME, friend, away)).toBe(false);
    expect(notifies(msg(1, { from: 'system' }), ME, friend, away)).toBe(false);
    expect(notifies({ ...msg(1, { from: ME, to: -1 }), is_group: 3 }, ME, undefined, away)).toBe(false);
  });

  it('notifies in a group that is not muted, and for a chat the list does not hold yet', () => {
    expect(notifies(msg(1, { group: true }), ME, contactRow('group-1', { is_notice: 1 }), away)).toBe(true);
    expect(notifies(msg(1, { group: true }), ME, contactRow('group-1', { is_notice: 0 }), away)).toBe(false);
    expect(notifies(msg(1), ME, undefined, away)).toBe(true);
  });
});

describe('what a notification says', () => {
  it('a person’s message: their name as I named them over the text, tagged by chat as Web Push tags it', () => {
    const row = contactRow(2, { displayName: 'Bobby' });
    expect(notificationOf(msg(1, { content: '周末\n去爬山吗' }), ME, row, true, t)).toEqual({
      chat: '2',
      tag: 'chat-2',
      title: 'Bobby',
      body: '周末 去爬山吗',
    });
    expect(notificationTag('group-7')).toBe('chat-group-7');
  });

  it('a group message: the group over "sender: text"; a picture as its preview word', () => {
    const row = contactRow('group-1', { displayName: '登山队' });
    const image: Message = {
      ...msg(1, { group: true }),
      type: 'image',
      content: '/storage/a.png',
      extends: { width: 10, height: 10, thumb: '', file_id: 1 },
    };
    expect(notificationOf(image, ME, row, true, t)).toMatchObject({
      chat: 'group-1',
      title: '登山队',
      body: 'user 2: preview.image()',
    });
  });

  it('without a preview: only that a message came, under the app’s name', () => {
    const row = contactRow('group-1', { displayName: '登山队' });
    expect(notificationOf(msg(1, { group: true, content: 'secret' }), ME, row, false, t)).toEqual({
      chat: 'group-1',
      tag: 'chat-group-1',
      title: 'Sparrow',
      body: 'push.newMessage()',
    });
  });

  it('a call: who invites me and to what kind of call', () => {
    const call: Message = {
      ...msg(1),
      type: 'webrtc',
      extends: { type: 1, status: 0, event: 'calling', code: 0, callTime: 0, isMobile: false },
    };
    expect(notificationOf(call, ME, contactRow(2, { displayName: 'Bob' }), true, t)).toMatchObject({
      title: 'Bob',
      body: 'push.call(Bob,call.video())',
    });
  });
});

describe('which tab of the user notifies', () => {
  const NOW = 1_000_000;
  const looked: Attention = { visible: true, focused: true };
  const tab = (attention: Attention, ago = 0): TabState => ({ ...attention, at: NOW - ago });

  it('notifies alone, while not looked at', () => {
    expect(tabNotifies('b', away, new Map(), NOW)).toBe(true);
    expect(tabNotifies('b', looked, new Map(), NOW)).toBe(false);
  });

  it('none notifies while another live tab is visible and focused', () => {
    const others = new Map([['c', tab(looked, 5_000)]]);
    expect(tabNotifies('b', away, others, NOW)).toBe(false);
    expect(tabNotifies('b', away, new Map([['c', tab({ visible: true, focused: false })]]), NOW)).toBe(true);
  });

  it('only the live tab with the lowest id notifies when none is looked at', () => {
    const all = new Map([
      ['a', tab(away)],
      ['b', tab(away)],
      ['c', tab({ visible: true, focused: false })],
    ]);
    const notifying = ['a', 'b', 'c'].filter((id) => tabNotifies(id, all.get(id)!, all, NOW));
    expect(notifying).toEqual(['a']);
  });

  it('forgets a tab not heard from within the staleness bound', () => {
    expect(tabNotifies('b', away, new Map([['c', tab(looked, TAB_STALE_MS)]]), NOW)).toBe(false);
    expect(tabNotifies('b', away, new Map([['c', tab(looked, TAB_STALE_MS + 1)]]), NOW)).toBe(true);
    expect(tabNotifies('b', away, new Map([['a', tab(away, TAB_STALE_MS + 1)]]), NOW)).toBe(true);
  });
});
