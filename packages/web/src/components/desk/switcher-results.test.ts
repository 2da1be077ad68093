import { describe, expect, it } from 'vitest';
import { contactRow as contact } from '../../test/fixtures';
import { SWITCHER_SHOWN, switcherResults } from './switcher-results';

describe('switcherResults', () => {
  const rows = [
    contact(1, { displayName: '陈静', account: 'chenjing', lastSendTime: 100 }),
    contact(2, { displayName: '王小明', realname: '王小明', lastSendTime: 300 }),
    contact(3, { displayName: '老陈', account: 'laochen' }),
    contact('group-1', { displayName: '陈家群', lastSendTime: 200 }),
    contact('admin_notice', { displayName: '陈 announcements', lastSendTime: 999, is_group: 2 }),
  ];

  it('finds chats and contacts by name or account, the recent conversations first', () => {
    expect(switcherResults(rows, '陈').map((c) => c.id)).toEqual(['group-1', 1, 3]);
    expect(switcherResults(rows, ' LAOCHEN ').map((c) => c.id)).toEqual([3]);
    expect(switcherResults(rows, '没有这个人')).toEqual([]);
  });

  it('lists the recent conversations when nothing is typed, never the announcement row', () => {
    expect(switcherResults(rows, '').map((c) => c.id)).toEqual([2, 'group-1', 1]);
  });

  it('lists a few at most', () => {
    const many = Array.from({ length: 20 }, (_, i) => contact(i + 10, { displayName: `陈${i}` }));
    expect(switcherResults(many, '陈')).toHaveLength(SWITCHER_SHOWN);
  });
});
