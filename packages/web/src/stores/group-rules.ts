import { GroupRoles, type GroupInfo, type GroupMember, type GroupRole, type GroupSetting } from '@sparrow/protocol';

/**
 * Who may do what in a group (docs/protocol.md §3 `/enterprise/group/*`). The server decides every call;
 * these rules only keep the screen from offering what the role cannot do.
 */

/** What I may do to the group itself. */
export interface GroupPermissions {
  /** Name, avatar, announcement, settings (owner and admins). */
  manage: boolean;
  /** Add members: owner and admins, members when the `invite` setting is on. */
  invite: boolean;
  /** Leave: everyone but the owner, who must hand over or disband first. */
  leave: boolean;
  /** Disband and clear the history for everyone: the owner. */
  disband: boolean;
  clearHistory: boolean;
}

export function groupPermissions(role: GroupRole, setting: Pick<GroupSetting, 'invite'>): GroupPermissions {
  const manage = role === GroupRoles.Owner || role === GroupRoles.Admin;
  return {
    manage,
    invite: manage || (role === GroupRoles.Member && setting.invite === 1),
    leave: role === GroupRoles.Admin || role === GroupRoles.Member,
    disband: role === GroupRoles.Owner,
    clearHistory: role === GroupRoles.Owner,
  };
}

/** What I may do to one member; none of it to myself. */
export interface MemberActions {
  setAdmin: boolean;
  unsetAdmin: boolean;
  transfer: boolean;
  mute: boolean;
  unmute: boolean;
  remove: boolean;
}

export const NO_MEMBER_ACTIONS: MemberActions = {
  setAdmin: false,
  unsetAdmin: false,
  transfer: false,
  mute: false,
  unmute: false,
  remove: false,
};

/**
 * setManager and changeOwner: the owner. setNoSpeak: the owner over admins and members, admins
 * over members. removeUser: the owner removes anyone, admins remove members.
 */
export function memberActions(
  myRole: GroupRole,
  myId: number,
  target: Pick<GroupMember, 'user_id' | 'role' | 'no_speak_until'>,
  now: number,
): MemberActions {
  if (target.user_id === myId || myRole === 0) return NO_MEMBER_ACTIONS;
  const owner = myRole === GroupRoles.Owner;
  const overTarget =
    target.role !== GroupRoles.Owner && (owner || (myRole === GroupRoles.Admin && target.role === GroupRoles.Member));
  const muted = isMuted(target.no_speak_until, now);
  return {
    setAdmin: owner && target.role === GroupRoles.Member,
    unsetAdmin: owner && target.role === GroupRoles.Admin,
    transfer: owner,
    mute: overTarget,
    unmute: overTarget && muted,
    remove: overTarget,
  };
}

export function hasAnyAction(actions: MemberActions): boolean {
  return Object.values(actions).some(Boolean);
}

export function isMuted(noSpeakUntil: number, now: number): boolean {
  return noSpeakUntil > now;
}

/** Whether I may send in a group now, and if not why: the server's checks, in its order. */
export type SpeakState =
  | { canSpeak: true }
  | { canSpeak: false; reason: 'notMember' }
  | { canSpeak: false; reason: 'onlyAdmins' }
  | { canSpeak: false; reason: 'onlyOwner' }
  | { canSpeak: false; reason: 'muted'; until: number };

export function speakState(
  info: Pick<GroupInfo, 'isJoin' | 'setting' | 'no_speak_until'> | null,
  now: number,
): SpeakState {
  if (!info || info.isJoin === 0) return { canSpeak: false, reason: 'notMember' };
  const { nospeak } = info.setting;
  if (nospeak === 1 && info.isJoin === GroupRoles.Member) return { canSpeak: false, reason: 'onlyAdmins' };
  if (nospeak === 2 && info.isJoin !== GroupRoles.Owner) return { canSpeak: false, reason: 'onlyOwner' };
  if (isMuted(info.no_speak_until, now)) return { canSpeak: false, reason: 'muted', until: info.no_speak_until };
  return { canSpeak: true };
}

/** Owner, then administrators, then members; within a role, who joined first. */
export function sortMembers(members: readonly GroupMember[]): GroupMember[] {
  return [...members].sort((a, b) => a.role - b.role || a.join_time - b.join_time || a.user_id - b.user_id);
}

/**
 * The one rule for the name a person is shown by in a group: my remark for them (`remark`, from
 * `stores/remarks`), else their group nickname, else their own name.
 */
export function memberName(member: Pick<GroupMember, 'nickname' | 'userInfo'>, remark = ''): string {
  return (
    remark ||
    member.nickname.trim() ||
    member.userInfo.displayName ||
    member.userInfo.realname ||
    member.userInfo.account ||
    String(member.userInfo.user_id)
  );
}

/** Members whose name, nickname or account contains the query, ignoring case. */
export function searchMembers(members: readonly GroupMember[], query: string): GroupMember[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...members];
  return members.filter((m) =>
    [m.nickname, m.userInfo.displayName, m.userInfo.realname, m.userInfo.account].some((v) =>
      v?.toLocaleLowerCase().includes(q),
    ),
  );
}
