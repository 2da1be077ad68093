import { describe, expect, it } from 'vitest';
import { GroupRoles } from './entities';
import { needsFriendship, withdrawal, type WithdrawCase } from './rules';

const { Owner, Admin, Member } = GroupRoles;
const WINDOW_S = 120;
const base: WithdrawCase = {
  mine: true,
  inGroup: false,
  myRole: Member,
  authorRole: Member,
  age: 0,
  redoTimeS: WINDOW_S,
};

describe('shared rules', () => {
  it('asks for friendship in a community, not in an organisation', () => {
    expect([needsFriendship(1), needsFriendship(2)]).toEqual([false, true]);
  });

  it.each([
    // [case, in time, past the window]
    ['my private message', {}, 'allowed', 'tooLate'],
    ['my group message, as a member', { inGroup: true }, 'allowed', 'tooLate'],
    ['my group message, as an administrator', { inGroup: true, myRole: Admin }, 'allowed', 'allowed'],
    ['my group message, as the owner', { inGroup: true, myRole: Owner }, 'allowed', 'allowed'],
    ["the peer's private message", { mine: false }, 'notYours', 'notYours'],
    ["a member's, as a member", { mine: false, inGroup: true }, 'notYours', 'notYours'],
    ["a member's, as an administrator", { mine: false, inGroup: true, myRole: Admin }, 'allowed', 'allowed'],
    [
      "an administrator's, as an administrator",
      { mine: false, inGroup: true, myRole: Admin, authorRole: Admin },
      'notYours',
      'notYours',
    ],
    [
      "the owner's, as an administrator",
      { mine: false, inGroup: true, myRole: Admin, authorRole: Owner },
      'notYours',
      'notYours',
    ],
    [
      "an administrator's, as the owner",
      { mine: false, inGroup: true, myRole: Owner, authorRole: Admin },
      'allowed',
      'allowed',
    ],
  ] as const)('withdraws %s', (_name, over, inTime, late) => {
    expect(withdrawal({ ...base, ...over, age: WINDOW_S * 1000 })).toBe(inTime);
    expect(withdrawal({ ...base, ...over, age: WINDOW_S * 1000 + 1 })).toBe(late);
  });
});
