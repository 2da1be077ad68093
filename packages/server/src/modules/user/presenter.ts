import { DEFAULT_APP_SETTING, type OldClientSetting, type UserInfo, type UserProfile } from '@sparrow/protocol';
import { parseJson } from '../../lib/text';
import type { UserRow } from './repo';

/**
 * The signed-in user's own record (docs/protocol.md §2 userInfo), with a fresh QR code of theirs: never a
 * password hash.
 */
export function toUserInfo(row: UserRow, code: Pick<UserInfo, 'qrUrl' | 'qrExpire'>): UserInfo {
  return {
    user_id: row.id,
    id: row.id,
    account: row.account,
    realname: row.realname,
    displayName: row.realname,
    avatar: row.avatar,
    email: row.email,
    phone: row.phone,
    sex: clampSex(row.sex),
    motto: row.motto,
    pat_suffix: row.pat_suffix,
    is_auth: row.is_auth ? 1 : 0,
    role: row.role ? 1 : 0,
    setting: { ...DEFAULT_APP_SETTING, ...oldClientSetting(row.setting), language: row.language },
    qrUrl: code.qrUrl,
    qrExpire: code.qrExpire,
    ...(row.must_change_password ? { must_change_password: 1 as const } : {}),
  };
}

/**
 * The settings a Raingad client saved, as it reads them: flags as booleans, `sendKey` a number
 * (docs/raingad.md: the original turned its stored strings into these); nothing else of the JSON.
 */
function oldClientSetting(json: string): Partial<OldClientSetting> {
  const saved = parseJson(json);
  const out: Partial<OldClientSetting> = {};
  if (typeof saved.theme === 'string') out.theme = saved.theme;
  if (typeof saved.sendKey === 'number') out.sendKey = saved.sendKey;
  for (const key of ['isVoice', 'avatarCricle', 'hideMessageName', 'hideMessageTime'] as const)
    if (saved[key] === 0 || saved[key] === 1) out[key] = saved[key] === 1;
  return out;
}

/** Masks an account as the first 3 characters + `******` + the last 2. */
export function maskAccount(account: string): string {
  if (account.length <= 5) return `${account.slice(0, 1)}******`;
  return `${account.slice(0, 3)}******${account.slice(-2)}`;
}

/**
 * Another user's profile as `viewer` may see it; `hidden` (a group's `profile` setting) leaves
 * only the name and the avatar the group already shows.
 */
export function toUserProfile(
  row: UserRow,
  viewerId: number,
  friend: { friend_id: number; nickname: string } | null,
  hidden = false,
  blocked = false,
): UserProfile {
  const me = row.id === viewerId;
  return {
    user_id: row.id,
    id: row.id,
    account: hidden ? '' : me ? row.account : maskAccount(row.account),
    realname: row.realname,
    displayName: friend?.nickname || row.realname,
    avatar: row.avatar,
    sex: hidden ? 2 : clampSex(row.sex),
    motto: hidden ? '' : row.motto,
    pat_suffix: hidden ? '' : row.pat_suffix,
    friend,
    is_friend: friend ? 1 : 0,
    profile: hidden ? 0 : 1,
    blocked: blocked ? 1 : 0,
  };
}

function clampSex(sex: number): 0 | 1 | 2 {
  return sex === 0 || sex === 1 ? sex : 2;
}
