import { describe, expect, it } from 'vitest';
import { msg } from '../chat/test-messages';
import {
  badgeOf,
  mutedCount,
  contactIdOf,
  conversationKeyOf,
  conversationList,
  groupContacts,
  hasMutedUnread,
  mentionsMe,
  previewOf,
  totalUnread,
} from './conversation-list';
import { contactRow as contact } from '../test/fixtures';

describe('conversation list', () => {
  it('lists conversations with messages, pinned ones and drafts: pinned first, then newest first', () => {
    const rows = [
      contact(1, { lastSendTime: 100 }),
      contact(2, { lastSendTime: 300 }),
      contact(3),
      contact(4, { is_top: 1, lastSendTime: 50 }),
      contact(5, { is_top: 1 }),
      contact('group-1', { lastSendTime: 200 }),
      contact(6),
      contact('admin_notice', { lastSendTime: 999, is_group: 2 }),
    ];
    expect(conversationList(rows, { '6': 'unsent words' }).map((c) => c.id)).toEqual([4, 5, 2, 'group-1', 1, 6]);
  });

  it('shows a muted conversation’s count before its preview, capped at 99+', () => {
    expect(mutedCount({ unread: 12, is_notice: 0 })).toBe('12');
    expect(mutedCount({ unread: 100, is_notice: 0 })).toBe('99+');
    expect(mutedCount({ unread: 1, is_notice: 0 })).toBeNull();
    expect(mutedCount({ unread: 12, is_notice: 1 })).toBeNull();
  });

  it('shows unread as a number, capped at 99+, and as a dot when muted', () => {
    expect(badgeOf({ unread: 0, is_notice: 1 })).toEqual({ kind: 'none' });
    expect(badgeOf({ unread: 3, is_notice: 1 })).toEqual({ kind: 'count', text: '3' });
    expect(badgeOf({ unread: 120, is_notice: 1 })).toEqual({ kind: 'count', text: '99+' });
    expect(badgeOf({ unread: 3, is_notice: 0 })).toEqual({ kind: 'dot' });
  });

  it('totals unread on the tab without muted conversations, friend requests or announcements', () => {
    const rows = [
      contact(1, { unread: 2 }),
      contact('group-1', { unread: 5 }),
      contact('group-2', { unread: 7, is_notice: 0 }),
      contact('system', { unread: 4, is_group: 2 }),
      contact('admin_notice', { unread: 1, is_group: 2 }),
    ];
    expect(totalUnread(rows)).toBe(7);
    expect(hasMutedUnread(rows)).toBe(true);
    expect(hasMutedUnread(rows.slice(0, 2))).toBe(false);
  });

  it('previews a draft first, then a mention of me, then the last message', () => {
    const c = contact('group-1', { lastContent: 'hello', is_at: 1 });
    expect(previewOf(c, 'half a\nthought')).toEqual({ marker: 'draft', text: 'half a thought' });
    expect(previewOf(c, undefined)).toEqual({ marker: 'at', text: 'hello' });
    expect(previewOf({ ...c, is_at: 0 }, '')).toEqual({ marker: null, text: 'hello' });
  });

  it('finds the conversation of a message from my side', () => {
    expect(conversationKeyOf(msg(1, { from: 2, to: 1 }), 1)).toBe('2');
    expect(conversationKeyOf(msg(1, { from: 1, to: 2 }), 1)).toBe('2');
    expect(conversationKeyOf(msg(1, { from: 2, group: true, to: 'group-7' }), 1)).toBe('group-7');
    expect(conversationKeyOf({ ...msg(1, { from: 1, to: -1 }), is_group: 3 }, 1)).toBe('-1');
    expect(conversationKeyOf(msg(0, { from: 'system' }), 1)).toBe('system');
  });

  it('knows mentions of me and of everyone', () => {
    expect(mentionsMe({ at: [3, 1] }, 1)).toBe(true);
    expect(mentionsMe({ at: [0] }, 1)).toBe(true);
    expect(mentionsMe({ at: [3] }, 1)).toBe(false);
  });

  it('turns keys back into ids', () => {
    expect(contactIdOf('5')).toBe(5);
    expect(contactIdOf('-1')).toBe(-1);
    expect(contactIdOf('group-3')).toBe('group-3');
    expect(contactIdOf('system')).toBe('system');
  });

  it('groups users A–Z with # last, by name inside a letter', () => {
    const rows = [
      contact(1, { displayName: '张三', index: 'Z' }),
      contact(2, { displayName: 'Bob', index: 'B' }),
      contact(3, { displayName: '123', index: '#' }),
      contact(4, { displayName: 'alice', index: 'A' }),
      contact(5, { displayName: 'Amy', index: 'a' }),
      contact('group-1', { displayName: 'A group', index: 'A' }),
    ];
    const g = groupContacts(rows);
    expect(g.letters).toEqual(['A', 'B', 'Z', '#']);
    expect(g.counts).toEqual([2, 1, 1, 1]);
    expect(g.items.map((c) => c.id)).toEqual([4, 5, 2, 1, 3]);
  });
});
