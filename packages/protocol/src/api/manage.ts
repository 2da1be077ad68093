import * as z from 'zod';
import { ANNOUNCEMENT_MAX, JSON_FIELD_MAX, KEYWORDS_MAX } from '../limits';
import { account, password, realname, rowId, rowIdOrZero, userId } from './fields';
import { groupId } from './group';

/**
 * The administration console (docs/protocol.md §8, `/manage/*`): bodies of the calls only a user whose role
 * is admin may make, the settings an admin may change with how each is validated, and the answers.
 */

const page = z.coerce.number().int().min(1).max(100_000).optional();
const limit = z.coerce.number().int().min(1).max(100).optional();
const keywords = z.string().trim().max(KEYWORDS_MAX).optional();

/** `/manage/stats`, `/manage/configGet`. */
export const ManageEmptyBody = z.object({});

/** `/manage/userList`, `/manage/groupList`: a page of everyone, or of those matching the words. */
export const ManageListBody = z.object({
  /** Part of an account, name, email or phone (users), or of a name (groups); empty for all. */
  keywords,
  page,
  limit,
});

/** 0 user, 1 administrator. */
const role = z.coerce.number().int().min(0).max(1);

/** `/manage/userCreate`. */
export const ManageUserCreateBody = z.object({
  account,
  password,
  realname,
  /** 0 user (default), 1 administrator. */
  role: role.optional(),
});

/** `/manage/userStatus`. */
export const ManageUserStatusBody = z.object({
  user_id: userId,
  /** 1 enabled, 0 disabled (every session ends at once). */
  status: z.coerce.number().int().min(0).max(1),
});

/** `/manage/userPassword`: the user's sessions end and they choose their own at next login. */
export const ManageUserPasswordBody = z.object({ user_id: userId, password });

/** `/manage/userRole`. */
export const ManageUserRoleBody = z.object({ user_id: userId, role });

/** `/manage/userLogout`: ends every session of the user. */
export const ManageUserIdBody = z.object({ user_id: userId });

/** `/manage/groupDisband`. */
export const ManageGroupBody = z.object({ group_id: groupId });

/** `/manage/groupMembers`: a page of a group's members, owner and administrators first. */
export const ManageGroupMembersBody = z.object({ group_id: groupId, page, limit });

/** `/manage/groupOwner`: the new owner must be a member. */
export const ManageGroupOwnerBody = z.object({ group_id: groupId, user_id: userId });

/** `/manage/configSet`: one setting by its dotted key (one of CONFIG_KEYS). */
export const ManageConfigSetBody = z.object({
  /** Dotted key, e.g. `chatInfo.redoTime`. */
  key: z.string().trim().min(1).max(64),
  /** The new value: a number, a string, or (lists) an array; a string is read as JSON where the setting is not text. */
  value: z.union([z.string().max(JSON_FIELD_MAX), z.number(), z.boolean(), z.array(z.unknown()).max(200)]),
});

/** A department's id; 0 where a body allows "none" (`dep_id`) or "the top level" (`parent_id`). */
const depId = rowIdOrZero;
const depName = z.string().trim().min(1).max(64);

/** `/manage/departmentCreate`. */
export const ManageDepartmentCreateBody = z.object({
  name: depName,
  /** The department it belongs to; 0 (default) for the top level. */
  parent_id: depId.optional(),
  /** Order among its siblings, smallest first. */
  sort: z.coerce.number().int().min(0).max(1_000_000).optional(),
});

/** `/manage/departmentRename`. */
export const ManageDepartmentRenameBody = z.object({ id: rowId, name: depName });

/** `/manage/departmentDel`: only a department with neither people nor departments in it. */
export const ManageDepartmentDelBody = z.object({ id: rowId });

/** `/manage/userDepartment`: 0 takes the user out of any department. */
export const ManageUserDepartmentBody = z.object({ user_id: userId, dep_id: depId });

/** `/manage/inviteList`, `/manage/noticeList`. */
export const ManagePageBody = z.object({ page, limit });

/** `/manage/inviteCreate`. */
export const ManageInviteCreateBody = z.object({
  /** How many registrations the code admits. */
  uses: z.coerce.number().int().min(1).max(10_000),
  /** Days it stays valid. */
  days: z.coerce.number().int().min(1).max(365),
});

/** `/manage/inviteRevoke`. */
export const ManageInviteRevokeBody = z.object({ code: z.string().trim().min(1).max(64) });

/** `/manage/noticePublish`: an announcement to everyone (`admin_notice`). */
export const ManageNoticePublishBody = z.object({
  title: z.string().trim().min(1).max(128),
  notice: z.string().trim().min(1).max(ANNOUNCEMENT_MAX),
});

/** `/manage/noticeDel`: withdraws an announcement. */
export const ManageNoticeDelBody = z.object({ id: rowId });

/** `/manage/auditList`: newest first, of one admin or one action when given. */
export const ManageAuditListBody = z.object({
  page,
  limit,
  /** The admin's user id; 0 for the server's command line. */
  admin_id: rowIdOrZero.optional(),
  /** One of AUDIT_ACTIONS; an unknown name finds nothing. */
  action: z.string().trim().max(32).optional(),
});

const flag = z.union([z.literal(0), z.literal(1)]);
const seconds = (max: number) => z.number().int().min(0).max(max);
const text = (max: number) => z.string().trim().max(max);
const url = z
  .string()
  .trim()
  .max(512)
  .refine((s) => s === '' || /^https?:\/\//i.test(s), 'url');

/**
 * Every setting an admin may change (docs/protocol.md §2 globalConfig and the rate limits of §1), with its
 * validation. Its description is the server message `config.<key>`.
 */
export const CONFIG_KEYS = {
  'sysInfo.name': text(64).min(1),
  'sysInfo.logo': url,
  'sysInfo.diyName': flag,
  'sysInfo.regauth': z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  'sysInfo.regtype': z.union([z.literal(1), z.literal(2)]),
  'sysInfo.runMode': z.union([z.literal(1), z.literal(2)]),
  'sysInfo.ipregion': flag,
  'sysInfo.multipleLogin': flag,
  'sysInfo.registerInterval': seconds(86_400),
  'chatInfo.online': flag,
  'chatInfo.webrtc': flag,
  'chatInfo.dbDelMsg': flag,
  'chatInfo.redoTime': seconds(30 * 86_400),
  'chatInfo.editTime': seconds(30 * 86_400),
  'chatInfo.groupChat': flag,
  'chatInfo.simpleChat': flag,
  'chatInfo.groupUserMax': z.number().int().min(0).max(100_000),
  'chatInfo.sendInterval': seconds(3600),
  'chatInfo.messageDays': z.number().int().min(0).max(36_500),
  'chatInfo.fileDays': z.number().int().min(0).max(36_500),
  'chatInfo.stun': z
    .array(
      z.object({
        urls: z.union([text(512).min(1), z.array(text(512).min(1)).min(1).max(10)]),
        username: text(256).optional(),
        credential: text(256).optional(),
      }),
    )
    .max(10),
  'fileUpload.size': z.number().int().min(1).max(4096),
  'fileUpload.fileExt': z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9]{1,10}$/),
    )
    .min(1)
    .max(200),
  'fileUpload.emojiSize': z.number().int().min(1).max(50),
  'map.tileUrl': url,
  'map.attribution': text(256),
  'map.searchUrl': url,
  'compass.status': flag,
  'compass.mode': z.union([z.literal(1), z.literal(2)]),
  'compass.list': z
    .array(
      z.object({
        icon: text(512),
        name: text(64).min(1),
        type: z.union([z.literal(1), z.literal(2)]),
        url: text(512).min(1),
      }),
    )
    .max(20),
  demon_mode: flag,
  'rateLimits.sendMessage.burst': z.number().int().min(1).max(100_000),
  'rateLimits.sendMessage.perSecond': z.number().int().min(1).max(100_000),
  'rateLimits.anyCall.perMinute': z.number().int().min(1).max(1_000_000),
  'rateLimits.loginFailures.max': z.number().int().min(1).max(1000),
  'rateLimits.loginFailures.windowS': seconds(86_400),
  'rateLimits.sendCode.intervalS': seconds(86_400),
  'rateLimits.manage.perMinute': z.number().int().min(1).max(1_000_000),
  'rateLimits.qrLogin.perMinute': z.number().int().min(1).max(1_000_000),
  /** 1: a deleted account's messages are removed for everyone; 0 (the default): kept, shown as from 已注销用户. */
  'account.removeMessages': flag,
  /** Days a deleted account's name stays taken (0: freed at once). */
  'account.nameHoldDays': z.number().int().min(0).max(3650),
  /** Days a finished data export stays downloadable. */
  'account.exportDays': z.number().int().min(1).max(90),
  /** Who must have a second factor (两步验证): 0 no one, 1 administrators, 2 everyone. */
  'account.twoStepRequired': z.union([z.literal(0), z.literal(1), z.literal(2)]),
} as const;
export type ConfigKey = keyof typeof CONFIG_KEYS;

/** True when `key` names a setting an admin may change. */
export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, key);
}

/** The unit of a number setting, where it has one. */
const CONFIG_UNITS: Partial<Record<ConfigKey, 'seconds' | 'megabytes'>> = {
  'sysInfo.registerInterval': 'seconds',
  'chatInfo.redoTime': 'seconds',
  'chatInfo.editTime': 'seconds',
  'chatInfo.sendInterval': 'seconds',
  'fileUpload.size': 'megabytes',
  'fileUpload.emojiSize': 'megabytes',
  'rateLimits.loginFailures.windowS': 'seconds',
  'rateLimits.sendCode.intervalS': 'seconds',
};

/** Settings whose text is a web address (http or https, or empty). */
const CONFIG_URLS: ReadonlySet<ConfigKey> = new Set(['sysInfo.logo', 'map.tileUrl', 'map.searchUrl']);

/**
 * How a setting is edited, read from its rule in CONFIG_KEYS: on or off (0/1), one of a few values
 * (each named by the server message `configOption.<key>.<value>`), a number within bounds, a line
 * of text, or a list written as JSON.
 */
export type ConfigControl =
  | { kind: 'switch' }
  | { kind: 'choice'; values: number[] }
  | { kind: 'number'; min: number; max: number; unit?: 'seconds' | 'megabytes' }
  | { kind: 'text'; max: number; url?: true }
  | { kind: 'json' };

export function configControl(key: ConfigKey): ConfigControl {
  const rule = CONFIG_KEYS[key] as z.ZodType;
  if (rule instanceof z.ZodUnion) {
    const values = (rule.options as z.ZodType[]).map((o) => (o instanceof z.ZodLiteral ? o.value : undefined));
    const numbers = values.filter((v): v is number => typeof v === 'number');
    if (numbers.length === 2 && numbers[0] === 0 && numbers[1] === 1) return { kind: 'switch' };
    return { kind: 'choice', values: numbers };
  }
  if (rule instanceof z.ZodNumber) {
    const unit = CONFIG_UNITS[key];
    return {
      kind: 'number',
      min: rule.minValue ?? 0,
      max: rule.maxValue ?? Number.MAX_SAFE_INTEGER,
      ...(unit && { unit }),
    };
  }
  if (rule instanceof z.ZodString)
    return { kind: 'text', max: rule.maxLength ?? 512, ...(CONFIG_URLS.has(key) && { url: true as const }) };
  return { kind: 'json' };
}

/** One row of `/manage/userList`. */
export interface ManagedUser {
  user_id: number;
  account: string;
  realname: string;
  avatar: string;
  /** 0 user, 1 administrator. */
  role: 0 | 1;
  /** 1 enabled, 0 disabled, 2 deleted by its user (注销: anonymised, no action applies). */
  status: 0 | 1 | 2;
  create_time: number;
  /** When the user last signed in, ms; 0 never. */
  last_login_time: number;
  /** The user's department, 0 for none. */
  dep_id: number;
}

/** One department (`/manage/departmentList`, `getDepartments`). */
export interface Department {
  id: number;
  name: string;
  /** 0 at the top level. */
  parent_id: number;
  sort: number;
  create_time: number;
  /** How many users are in it. */
  user_count: number;
}

/** One row of `/manage/groupList`. */
export interface ManagedGroup {
  group_id: string;
  name: string;
  avatar: string;
  owner: { user_id: number; realname: string; account: string };
  member_count: number;
  create_time: number;
}

/** One member in `/manage/groupMembers`. */
export interface ManagedMember {
  user_id: number;
  account: string;
  realname: string;
  /** 1 owner, 2 group administrator, 3 member. */
  role: 1 | 2 | 3;
}

/** `/manage/stats`: the dashboard. */
export interface ManageStats {
  users: number;
  online: number;
  groups: number;
  messagesToday: number;
  /** The last 30 days (UTC), oldest first; `day` is `YYYY-MM-DD`. */
  messagesPerDay: { day: string; count: number }[];
  storageBytes: number;
  version: string;
  uptimeS: number;
}

/** One setting in `/manage/configGet`. */
export interface ManagedSetting {
  key: ConfigKey;
  value: unknown;
  /** Its name, in the caller's language. */
  label: string;
  /** What it does, in the caller's language. */
  description: string;
  /** How it is edited; a choice's values come with their names in the caller's language. */
  control: Exclude<ConfigControl, { kind: 'choice' }> | { kind: 'choice'; options: { value: number; label: string }[] };
}

/** `/manage/configGet` and `/manage/configSet`. */
export interface ManagedConfig {
  settings: ManagedSetting[];
}

/** One invite code (registration with sysInfo.regtype 2). */
export interface ManagedInvite {
  code: string;
  uses_left: number;
  expires_at: number;
  create_time: number;
  created_by: number;
}

/** One announcement. */
export interface ManagedNotice {
  id: number;
  title: string;
  notice: string;
  create_time: number;
}

/** One audit row: who did what to what, when and from where. */
export interface AuditRow {
  id: number;
  admin_id: number;
  /** The admin's name then; '' for the server's command line (admin_id 0). */
  admin_name: string;
  /** One of AUDIT_ACTIONS (a string, so that an older client shows a newer server's rows). */
  action: string;
  target: string;
  detail: string;
  ip: string;
  create_time: number;
}
