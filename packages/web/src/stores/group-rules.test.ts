import { MUTE_OPTIONS, type GroupMember, type GroupRole } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { groupMember } from '../test/fixtures';
import { MUTE_TIMERS } from './group';
import {
  NO_MEMBER_ACTIONS,
  groupPermissions,
  memberActions,
  memberName,
  searchMembers,
  sortMembers,
  speakState,
  type MemberActions,
} from './group-rules';

const NOW = 1_750_000_000_000;
const ME = 1;

const member = (id: number, role: 1 | 2 | 3, extra: Partial<GroupMember> = {}) =>
  groupMember(id, role, extra, { name: `user${id}`, account: `acct${id}` });

const only = (...keys: (keyof MemberActions)[]): MemberActions => ({
  ...NO_MEMBER_ACTIONS,
  ...Object.fromEntries(keys.map((k) => [k, true])),
});

describe('what my role may do to a member (docs/protocol.md §3)', () => {
  const owner = member(10, 1);
  const admin = member(11, 2);
  const plain = member(12, 3);
  const mutedAdmin = member(13, 2, { no_speak_until: NOW + 60_000 });
  const mutedMember = member(14, 3, { no_speak_until: NOW + 60_000 });
  const expired = member(15, 3, { no_speak_until: NOW - 1 });

  // Every (my role, target) pair, with exactly the actions the table allows.
  const matrix: [GroupRole, GroupMember, MemberActions][] = [
    [1, admin, only('unsetAdmin', 'transfer', 'mute', 'remove')],
    [1, plain, only('setAdmin', 'transfer', 'mute', 'remove')],
    [1, mutedAdmin, only('unsetAdmin', 'transfer', 'mute', 'unmute', 'remove')],
    [1, mutedMember, only('setAdmin', 'transfer', 'mute', 'unmute', 'remove')],
    [1, expired, only('setAdmin', 'transfer', 'mute', 'remove')],
    [2, owner, NO_MEMBER_ACTIONS],
    [2, admin, NO_MEMBER_ACTIONS],
    [2, mutedAdmin, NO_MEMBER_ACTIONS],
    [2, plain, only('mute', 'remove')],
    [2, mutedMember, only('mute', 'unmute', 'remove')],
    [3, owner, NO_MEMBER_ACTIONS],
    [3, admin, NO_MEMBER_ACTIONS],
    [3, plain, NO_MEMBER_ACTIONS],
    [3, mutedMember, NO_MEMBER_ACTIONS],
    [0, plain, NO_MEMBER_ACTIONS],
  ];

  for (const [role, target, expected] of matrix) {
    it(`role ${role} over user ${target.user_id} (role ${target.role}${target.no_speak_until > NOW ? ', muted' : ''})`, () => {
      expect(memberActions(role, ME, target, NOW)).toEqual(expected);
    });
  }

  it('offers nothing about myself, whatever my role', () => {
    for (const role of [1, 2, 3] as const) {
      expect(memberActions(role, ME, member(ME, role), NOW)).toEqual(NO_MEMBER_ACTIONS);
    }
  });
});

describe('what my role may do to the group', () => {
  it('lets owner and admins manage, members invite only when the setting allows', () => {
    expect(groupPermissions(1, { invite: 0 })).toEqual({
      manage: true,
      invite: true,
      leave: false,
      disband: true,
      clearHistory: true,
    });
    expect(groupPermissions(2, { invite: 0 })).toEqual({
      manage: true,
      invite: true,
      leave: true,
      disband: false,
      clearHistory: false,
    });
    expect(groupPermissions(3, { invite: 0 })).toEqual({
      manage: false,
      invite: false,
      leave: true,
      disband: false,
      clearHistory: false,
    });
    expect(groupPermissions(3, { invite: 1 }).invite).toBe(true);
    expect(groupPermissions(0, { invite: 1 })).toEqual({
      manage: false,
      invite: false,
      leave: false,
      disband: false,
      clearHistory: false,
    });
  });
});

describe('whether I may speak', () => {
  const info = (isJoin: 0 | 1 | 2 | 3, nospeak: 0 | 1 | 2, no_speak_until = 0) => ({
    isJoin,
    no_speak_until,
    setting: {
      invite: 1 as const,
      history: 1 as const,
      profile: 1 as const,
      nospeak,
      manage: 0 as const,
      pin: 0 as const,
      reaction: 1 as const,
      receipt: 1 as const,
      retention: 0 as const,
    },
  });

  it('follows the server: group setting first, then my own mute', () => {
    expect(speakState(info(3, 0), NOW)).toEqual({ canSpeak: true });
    expect(speakState(info(3, 1), NOW)).toEqual({ canSpeak: false, reason: 'onlyAdmins' });
    expect(speakState(info(2, 1), NOW)).toEqual({ canSpeak: true });
    expect(speakState(info(2, 2), NOW)).toEqual({ canSpeak: false, reason: 'onlyOwner' });
    expect(speakState(info(1, 2), NOW)).toEqual({ canSpeak: true });
    expect(speakState(info(3, 0, NOW + 600_000), NOW)).toEqual({
      canSpeak: false,
      reason: 'muted',
      until: NOW + 600_000,
    });
    expect(speakState(info(3, 1, NOW + 600_000), NOW)).toEqual({ canSpeak: false, reason: 'onlyAdmins' });
  });

  it('lets a mute end on time', () => {
    expect(speakState(info(3, 0, NOW), NOW)).toEqual({ canSpeak: true });
    expect(speakState(info(3, 0, NOW + 1), NOW)).toMatchObject({ canSpeak: false, reason: 'muted' });
  });

  it('refuses someone who is not a member', () => {
    expect(speakState(info(0, 0), NOW)).toEqual({ canSpeak: false, reason: 'notMember' });
    expect(speakState(null, NOW)).toEqual({ canSpeak: false, reason: 'notMember' });
  });
});

describe('member lists', () => {
  it('puts the owner first, then admins, then members by join time', () => {
    const list = [
      member(5, 3, { join_time: 1 }),
      member(4, 2, { join_time: 9 }),
      member(3, 1),
      member(2, 2, { join_time: 3 }),
    ];
    expect(sortMembers(list).map((m) => m.user_id)).toEqual([3, 2, 4, 5]);
  });

  it('names a member by the group nickname first', () => {
    expect(memberName(member(7, 3, { nickname: '  Boss ' }))).toBe('Boss');
    expect(memberName(member(7, 3))).toBe('user7');
  });

  it('searches names, nicknames and accounts, ignoring case', () => {
    const list = [member(1, 1, { nickname: 'Alpha' }), member(2, 3), member(3, 3)];
    expect(searchMembers(list, 'alp').map((m) => m.user_id)).toEqual([1]);
    expect(searchMembers(list, 'ACCT3').map((m) => m.user_id)).toEqual([3]);
    expect(searchMembers(list, '  ')).toHaveLength(3);
  });
});

describe('mute options', () => {
  it('offers exactly the product’s durations, in order', () => {
    expect([...MUTE_TIMERS]).toEqual(Object.keys(MUTE_OPTIONS).map(Number));
    expect(MUTE_TIMERS.map((t) => MUTE_OPTIONS[t])).toEqual([600, 3600, 10_800, 86_400]);
  });
});
