import {
  DEFAULT_APP_SETTING,
  liveStatus,
  roundLastSeen,
  type LastSeenTo,
  type OldClientSetting,
  type UserInfo,
  type UserProfile,
  type UserStatus,
} from '@sparrow/protocol';
import { parseJson } from '../../lib/text';
import type { UserRow } from './repo';

/**
 * The signed-in user's own record (docs/protocol.md §2 userInfo), with a fresh QR code of theirs: never a
 * password hash.
 */
export function toUserInfo(row: UserRow, code: Pick<UserInfo, 'qrUrl' | 'qrExpire'>, now: number): UserInfo {
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
    status: statusOf(row, now),
    last_seen_to: lastSeenTo(row),
    read_receipt: row.read_receipt ? 1 : 0,
    typing: row.typing ? 1 : 0,
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
  seen?: { now: number; shown: LastSeenShown },
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
    ...(seen && presence(row, seen.now, hidden, seen.shown)),
  };
}

/** A user's status while it lasts (状态), or null. */
export function statusOf(row: UserRow, now: number): UserStatus | null {
  return liveStatus({ text: row.status_text, emoji: row.status_emoji, until: row.status_until }, now);
}

function lastSeenTo(row: UserRow): LastSeenTo {
  return row.last_seen_to === 1 || row.last_seen_to === 2 ? row.last_seen_to : 0;
}

/** What decides whether a reader sees someone's 最近在线. */
export interface Onlooker {
  /** The reader is their friend. */
  friend: boolean;
  /** Either of the two blocked the other (黑名单). */
  blocked: boolean;
}

/**
 * Whether a reader sees someone's 最近在线 and whether they are online (profile, contact row,
 * `isOnline` push): as their `last_seen_to` says (everyone, friends only, nobody), never across a
 * block either way. Hiding one's own does not hide the others' (docs/product.md §3).
 */
export function seesLastSeen(row: UserRow, onlooker: Onlooker): boolean {
  if (onlooker.blocked) return false;
  const to = lastSeenTo(row);
  return to === 0 || (to === 1 && onlooker.friend);
}

/** The last-seen time a reader allowed to see it is shown: rounded down to the minute, absent while online or never seen. */
export function lastSeenOf(row: UserRow, online: boolean): number | undefined {
  return online || row.last_seen === null ? undefined : roundLastSeen(row.last_seen);
}

/**
 * How a profile shows presence: whether the reader sees it, whether the person is online (null when
 * the server shows none), and whether either blocked the other (then no status shows either).
 */
export interface LastSeenShown {
  sees: boolean;
  online: boolean | null;
  blocked?: boolean;
}

function presence(
  row: UserRow,
  now: number,
  hidden: boolean,
  shown: LastSeenShown,
): Pick<UserProfile, 'status' | 'is_online' | 'last_seen'> {
  const status = hidden || shown.blocked ? null : statusOf(row, now);
  const out: Pick<UserProfile, 'status' | 'is_online' | 'last_seen'> = status ? { status } : {};
  if (!shown.sees || shown.online === null) return out;
  out.is_online = shown.online ? 1 : 0;
  const lastSeen = lastSeenOf(row, shown.online);
  if (lastSeen !== undefined) out.last_seen = lastSeen;
  return out;
}

function clampSex(sex: number): 0 | 1 | 2 {
  return sex === 0 || sex === 1 ? sex : 2;
}
