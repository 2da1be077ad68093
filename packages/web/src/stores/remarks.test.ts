import { newContact } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { memberName } from './group-rules';
import { remarkOf } from './remarks';

describe('the name a person is shown by', () => {
  const rows = {
    '7': newContact({ id: 7, is_group: 0, displayName: '老同学', realname: 'Bob' }),
    '8': newContact({ id: 8, is_group: 0, displayName: 'Carol', realname: 'Carol' }),
    'group-3': newContact({ id: 'group-3', is_group: 1, displayName: '周末徒步群' }),
  };

  it('is my remark when I gave one, nothing otherwise', () => {
    expect(remarkOf(rows, 7)).toBe('老同学');
    expect(remarkOf(rows, 8)).toBe('');
    expect(remarkOf(rows, 9)).toBe('');
    expect(remarkOf(rows, 'system')).toBe('');
  });

  it('in a group: my remark, else the group nickname, else their own name', () => {
    const member = (nickname: string) =>
      ({ nickname, userInfo: { user_id: 7, realname: 'Bob', displayName: 'Bob', account: 'bob' } }) as Parameters<
        typeof memberName
      >[0];
    expect(memberName(member('Bobby'), remarkOf(rows, 7))).toBe('老同学');
    expect(memberName(member('Bobby'))).toBe('Bobby');
    expect(memberName(member(''))).toBe('Bob');
  });
});
