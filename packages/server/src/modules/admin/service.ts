import {
  APP_VERSION,
  password as PASSWORD_RULE,
  CONFIG_KEYS,
  groupNumber,
  isConfigKey,
  PICTURES,
  type AuditAction,
  type AuditRow,
  type ConfigKey,
  type Department,
  type ManagedGroup,
  type ManagedInvite,
  type ManagedMember,
  type ManagedNotice,
  type ManagedUser,
  type ManageStats,
  type RouteInput,
  SocketCloseCodes,
  memberRole,
} from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { hashPassword, randomToken } from '../../lib/crypto';
import type { Realtime } from '../../realtime/realtime';
import type { Session, SessionRepo } from '../auth';
import type { ConfigService, InviteRepo, AnnouncementRepo } from '../system';
import type { GroupRepo } from '../group';
import type { DepartmentRepo, UserRepo, UserRow } from '../user';
import type { AdminRepo } from './repo';

/** Who acts: an admin's user id and address, or the server's command line (id 0). */
export interface Actor {
  adminId: number;
  ip: string;
}

export const COMMAND_LINE: Actor = { adminId: 0, ip: 'cli' };

/** Why an admin ended a user's sessions, as the user's sockets are told (`offline`). */
type EndReason = 'disabled' | 'password' | 'ended';

/** A group operation of the group module, made as the group's owner. */
export interface GroupOwnerOps {
  disband(owner: Session, id: string): Promise<void>;
  changeOwner(owner: Session, body: { id: string; user_id: number }): Promise<void>;
}

/**
 * What only a running server has: live sockets, group pushes, its start time. The command line
 * has none of it: there a disabled user's sockets close at their next heartbeat, when the server
 * finds the session revoked.
 */
export interface LiveParts {
  realtime: Pick<Realtime, 'kick' | 'online'>;
  groups: GroupOwnerOps;
  /** Seconds since the process started. */
  uptimeS: () => number;
  /** Sends a user's contact row again to those who list them (`appendContact`), as a profile change does. */
  announceProfile: (user: UserRow) => Promise<void>;
}

const DAY_MS = 86_400_000;
const CHART_DAYS = 30;
const DEFAULT_LIMIT = 20;

const paging = (body: { page?: number | undefined; limit?: number | undefined }) => {
  const limit = body.limit ?? DEFAULT_LIMIT;
  return { offset: ((body.page ?? 1) - 1) * limit, limit };
};

const utcDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Every rule of administration (docs/protocol.md §8), behind both `npm run admin` and the `/manage/*`
 * routes: users, roles, settings, invite codes, announcements, groups and the dashboard. Every
 * change is written to the audit log with who made it and from where.
 */
export class AdminService {
  private readonly users: UserRepo;
  private readonly sessions: SessionRepo;
  private readonly announcements: AnnouncementRepo;
  private readonly invites: InviteRepo;
  private readonly groups: GroupRepo;
  private readonly repo: AdminRepo;
  private readonly departments: DepartmentRepo;
  private readonly published = new Set<() => Promise<void>>();

  constructor(
    repos: Pick<Repos, 'users' | 'sessions' | 'announcements' | 'invites' | 'groups' | 'admin' | 'departments'>,
    private readonly config: ConfigService,
    private readonly now: () => number = Date.now,
    private readonly live?: LiveParts,
  ) {
    this.users = repos.users;
    this.sessions = repos.sessions;
    this.announcements = repos.announcements;
    this.invites = repos.invites;
    this.groups = repos.groups;
    this.repo = repos.admin;
    this.departments = repos.departments;
  }

  private async audit(actor: Actor, action: AuditAction, target: string, detail: Record<string, unknown> = {}) {
    await this.repo.audit({
      admin_id: actor.adminId,
      action,
      target,
      detail: JSON.stringify(detail),
      ip: actor.ip.slice(0, 64),
      create_time: this.now(),
    });
  }

  /** The configuration, or one setting of it by dotted path. */
  getConfig(dottedPath?: string): unknown {
    let value: unknown = this.config.get();
    for (const key of dottedPath ? dottedPath.split('.') : []) {
      if (typeof value !== 'object' || value === null || !(key in value))
        throw new AppError('Validation', {}, { fields: ['key'] });
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }

  /** Every setting an admin may change, with its current value. */
  settings(): { key: ConfigKey; value: unknown }[] {
    return (Object.keys(CONFIG_KEYS) as ConfigKey[]).map((key) => ({ key, value: this.getConfig(key) }));
  }

  /**
   * Changes one setting after checking it against its rule; running servers push the new
   * configuration as `updateConfig` (this one at once, others when they see its version move).
   * From the command line every value is text: a setting that is not text is read as JSON.
   */
  async setConfig(key: string, value: unknown, actor: Actor = COMMAND_LINE): Promise<unknown> {
    if (!isConfigKey(key)) throw new AppError('Validation', {}, { fields: ['key'] });
    const schema = CONFIG_KEYS[key];
    let parsed = schema.safeParse(value);
    if (!parsed.success && typeof value === 'string') {
      try {
        parsed = schema.safeParse(JSON.parse(value));
      } catch {
        // Not JSON either: the first answer stands.
      }
    }
    if (!parsed.success) throw new AppError('Validation', {}, { fields: ['value'] });
    const before = this.getConfig(key);
    const next = parsed.data;
    await this.config.set(key, typeof next === 'string' ? next : JSON.stringify(next));
    await this.audit(actor, 'configSet', key, { from: before, to: next });
    return this.getConfig(key);
  }

  private async userById(userId: number): Promise<UserRow> {
    const user = await this.users.byId(userId);
    if (!user) throw new AppError('UserNotFound', {}, { fields: ['user_id'] });
    return user;
  }

  private async userByAccount(account: string): Promise<UserRow> {
    const user = await this.users.byLogin(account);
    if (!user) throw new AppError('UserNotFound', {}, { fields: ['account'] });
    return user;
  }

  /** A page of users, or of those whose account, name, email or phone contains the words. */
  async listUsers(body: RouteInput<'manageUserList'>): Promise<{ items: ManagedUser[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.repo.userPage(body.keywords ?? '', offset, limit);
    return {
      items: rows.map((r) => ({
        user_id: r.id,
        account: r.account,
        realname: r.realname,
        avatar: r.avatar,
        role: r.role === 1 ? 1 : 0,
        status: r.status === 1 ? 1 : 0,
        create_time: r.create_time,
        last_login_time: Number(r.last_login_time ?? 0),
        dep_id: r.dep_id,
      })),
      total,
    };
  }

  /** Creates an enabled user; the account is stored lower-case and must be free. */
  async createUser(
    account: string,
    password: string,
    realname: string,
    admin: boolean,
    actor: Actor = COMMAND_LINE,
  ): Promise<number> {
    if (await this.users.taken(account)) throw new AppError('AccountTaken', {}, { fields: ['account'] });
    const now = this.now();
    const row = await this.users.insert({
      account: account.toLowerCase(),
      password_hash: await hashPassword(password),
      realname,
      email: '',
      phone: '',
      avatar: PICTURES.person,
      sex: 2,
      motto: '',
      is_auth: 0,
      role: admin ? 1 : 0,
      status: 1,
      language: '',
      create_time: now,
      update_time: now,
    });
    if (!row) throw new AppError('AccountTaken', {}, { fields: ['account'] });
    await this.audit(actor, 'userCreate', `user:${row.id}`, { account: row.account, role: row.role });
    return row.id;
  }

  /** `/manage/userCreate`: the new user as the user list shows it. */
  async createManagedUser(body: RouteInput<'manageUserCreate'>, actor: Actor): Promise<ManagedUser> {
    const id = await this.createUser(body.account, body.password, body.realname, body.role === 1, actor);
    const row = await this.userById(id);
    return {
      user_id: row.id,
      account: row.account,
      realname: row.realname,
      avatar: row.avatar,
      role: row.role === 1 ? 1 : 0,
      status: 1,
      create_time: row.create_time,
      last_login_time: 0,
      dep_id: row.dep_id,
    };
  }

  /** Revokes every session of a user and closes their sockets, telling them why. */
  private async endSessions(userId: number, reason: EndReason): Promise<void> {
    const now = this.now();
    const live = await this.sessions.liveIdsOf(userId, 0, now);
    await this.sessions.revokeAllOf(userId, now);
    if (!this.live || live.length === 0) return;
    await this.live.realtime.kick(userId, live, SocketCloseCodes.SessionEnded, {
      type: 'offline',
      data: { id: userId, client_id: '', isMobile: false, reason },
    });
  }

  /**
   * Enables or disables a user. Disabling ends every session at once; an admin cannot disable
   * themselves, and the last enabled admin stays enabled.
   */
  async setUserStatus(userId: number, enabled: boolean, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.userById(userId);
    if (enabled) {
      await this.users.update(user.id, { status: 1, update_time: this.now() });
    } else {
      if (user.id === actor.adminId) throw new AppError('AdminSelf', {}, { fields: ['user_id'] });
      if (!(await this.repo.disableUnlessLastAdmin(user.id, this.now())))
        throw new AppError('LastAdmin', {}, { fields: ['user_id'] });
      await this.endSessions(user.id, 'disabled');
    }
    await this.audit(actor, enabled ? 'userEnable' : 'userDisable', `user:${user.id}`, { account: user.account });
  }

  /** The command line's form: by account. */
  async setStatus(account: string, enabled: boolean, actor: Actor = COMMAND_LINE): Promise<void> {
    await this.setUserStatus((await this.userByAccount(account)).id, enabled, actor);
  }

  /** Gives or takes the admin role; the last enabled admin keeps it. */
  async setUserRole(userId: number, admin: boolean, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.userById(userId);
    if (admin) await this.users.update(user.id, { role: 1, update_time: this.now() });
    else if (user.role === 1 && !(await this.repo.demoteUnlessLast(user.id, this.now())))
      throw new AppError('LastAdmin', {}, { fields: ['user_id'] });
    await this.audit(actor, 'userRole', `user:${user.id}`, { account: user.account, role: admin ? 1 : 0 });
  }

  /** The command line's form: by account. */
  async setRole(account: string, role: 'admin' | 'user', actor: Actor = COMMAND_LINE): Promise<void> {
    await this.setUserRole((await this.userByAccount(account)).id, role === 'admin', actor);
  }

  /** The command line's form: by account. */
  async setPassword(account: string, password: string, actor: Actor = COMMAND_LINE): Promise<void> {
    if (!PASSWORD_RULE.safeParse(password).success) throw new AppError('Validation', {}, { fields: ['password'] });
    await this.setUserPassword((await this.userByAccount(account)).id, password, actor);
  }

  /** The command line's form: by account. */
  async endSessionsOf(account: string, actor: Actor = COMMAND_LINE): Promise<void> {
    await this.endUserSessions((await this.userByAccount(account)).id, actor);
  }

  /** Sets a user's password: their sessions end, and they are asked to choose their own at next login. */
  async setUserPassword(userId: number, password: string, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.userById(userId);
    await this.users.update(user.id, {
      password_hash: await hashPassword(password),
      must_change_password: 1,
      update_time: this.now(),
    });
    await this.endSessions(user.id, 'password');
    await this.audit(actor, 'userPassword', `user:${user.id}`, { account: user.account });
  }

  /** Ends every session of a user (signed out everywhere). */
  async endUserSessions(userId: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.userById(userId);
    await this.endSessions(user.id, 'ended');
    await this.audit(actor, 'userLogout', `user:${user.id}`, { account: user.account });
  }

  /** A page of live groups, or of those whose name contains the words. */
  async listGroups(body: RouteInput<'manageGroupList'>): Promise<{ items: ManagedGroup[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.repo.groupPage(body.keywords ?? '', offset, limit);
    return {
      items: rows.map((r) => ({
        group_id: `group-${r.id}`,
        name: r.name,
        avatar: r.avatar,
        owner: { user_id: r.owner_id, realname: r.realname, account: r.account },
        member_count: Number(r.member_count ?? 0),
        create_time: r.create_time,
      })),
      total,
    };
  }

  private async group(groupId: string) {
    const group = await this.groups.byId(groupNumber(groupId));
    if (!group) throw new AppError('GroupNotFound', {}, { fields: ['group_id'] });
    return group;
  }

  /** A page of a live group's members, owner and administrators first. */
  async groupMembers(body: RouteInput<'manageGroupMembers'>): Promise<{ items: ManagedMember[]; total: number }> {
    const group = await this.group(body.group_id);
    const { offset, limit } = paging(body);
    const { rows, total } = await this.repo.memberPage(group.id, offset, limit);
    return {
      items: rows.map((r) => ({
        user_id: r.user_id,
        account: r.account,
        realname: r.realname,
        role: memberRole(r.role),
      })),
      total,
    };
  }

  /** The group's owner, as the group module's operations take their caller. */
  private async ownerSession(ownerId: number): Promise<Session> {
    const owner = await this.userById(ownerId);
    return { id: 0, userId: owner.id, isMobile: false, user: owner };
  }

  private requireLive(): LiveParts {
    if (!this.live) throw new Error('group operations need a running server');
    return this.live;
  }

  /** Disbands a group as its owner would: it disappears for every member (`removeGroup`). */
  async disbandGroup(groupId: string, actor: Actor): Promise<void> {
    const live = this.requireLive();
    const group = await this.group(groupId);
    await live.groups.disband(await this.ownerSession(group.owner_id), groupId);
    await this.audit(actor, 'groupDisband', groupId, { name: group.name });
  }

  /** Hands a group to one of its members, as its owner would. */
  async changeGroupOwner(groupId: string, userId: number, actor: Actor): Promise<void> {
    const live = this.requireLive();
    const group = await this.group(groupId);
    if (group.owner_id !== userId)
      await live.groups.changeOwner(await this.ownerSession(group.owner_id), { id: groupId, user_id: userId });
    await this.audit(actor, 'groupOwner', groupId, { from: group.owner_id, to: userId });
  }

  /** Creates an invite code usable `uses` times within `days` days. */
  async createInvite(uses: number, days: number, actor: Actor = COMMAND_LINE): Promise<string> {
    return (await this.createManagedInvite(uses, days, actor)).code;
  }

  async createManagedInvite(uses: number, days: number, actor: Actor): Promise<ManagedInvite> {
    if (!Number.isInteger(uses) || uses < 1 || !Number.isInteger(days) || days < 1)
      throw new AppError('Validation', {}, { fields: [uses >= 1 ? 'days' : 'uses'] });
    const now = this.now();
    const invite = {
      code: randomToken(6),
      created_by: actor.adminId,
      uses_left: uses,
      expires_at: now + days * DAY_MS,
      create_time: now,
    };
    await this.invites.insert(invite);
    await this.audit(actor, 'inviteCreate', `invite:${invite.code}`, { uses, days });
    return invite;
  }

  async listInvites(body: RouteInput<'manageInviteList'>): Promise<{ items: ManagedInvite[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.invites.page(offset, limit);
    return { items: rows, total };
  }

  async revokeInvite(code: string, actor: Actor): Promise<void> {
    if (!(await this.invites.revoke(code))) throw new AppError('NotFound', {}, { fields: ['code'] });
    await this.audit(actor, 'inviteRevoke', `invite:${code}`);
  }

  /** Publishes a system announcement; running servers push it to everyone within seconds. */
  async announce(title: string, notice: string, actor: Actor = COMMAND_LINE): Promise<number> {
    return (await this.publishNotice(title, notice, actor)).id;
  }

  async publishNotice(title: string, notice: string, actor: Actor): Promise<ManagedNotice> {
    const row = { title: title.slice(0, 128), notice, create_time: this.now() };
    const id = await this.announcements.insert(row.title, row.notice, row.create_time);
    await this.audit(actor, 'noticePublish', `notice:${id}`, { title: row.title });
    for (const listener of this.published) await listener();
    return { id, ...row };
  }

  /**
   * Calls `listener` after each announcement published in this process, so that the server
   * pushes it at once instead of at its next look at the table.
   */
  onNoticePublished(listener: () => Promise<void>): void {
    this.published.add(listener);
  }

  async listNotices(body: RouteInput<'manageNoticeList'>): Promise<{ items: ManagedNotice[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.announcements.page(offset, limit);
    return { items: rows, total };
  }

  /** Withdraws an announcement: it leaves the announcements conversation of everyone. */
  async withdrawNotice(id: number, actor: Actor): Promise<void> {
    if (!(await this.announcements.remove(id))) throw new AppError('NotFound', {}, { fields: ['id'] });
    await this.audit(actor, 'noticeDel', `notice:${id}`);
  }

  /** Every department with how many people are in it, by parent, `sort`, then id. */
  listDepartments(): Promise<Department[]> {
    return this.departments.list();
  }

  private async department(id: number, field: string) {
    const dep = await this.departments.byId(id);
    if (!dep) throw new AppError('NotFound', {}, { fields: [field] });
    return dep;
  }

  /** Creates a department, at the top level or inside another one. */
  async createDepartment(
    body: { name: string; parent_id?: number | undefined; sort?: number | undefined },
    actor: Actor = COMMAND_LINE,
  ): Promise<Department> {
    const parentId = body.parent_id ?? 0;
    if (parentId) await this.department(parentId, 'parent_id');
    const row = { name: body.name, parent_id: parentId, sort: body.sort ?? 0, create_time: this.now() };
    const id = await this.departments.insert(row);
    await this.audit(actor, 'departmentCreate', `department:${id}`, { name: row.name, parent_id: parentId });
    return { id, ...row, user_count: 0 };
  }

  async renameDepartment(id: number, name: string, actor: Actor = COMMAND_LINE): Promise<void> {
    const dep = await this.department(id, 'id');
    await this.departments.rename(dep.id, name);
    await this.audit(actor, 'departmentRename', `department:${dep.id}`, { from: dep.name, to: name });
  }

  /** Deletes a department; refused while anyone or any department is in it. */
  async deleteDepartment(id: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const dep = await this.department(id, 'id');
    if (!(await this.departments.removeIfEmpty(dep.id)))
      throw new AppError('DepartmentNotEmpty', {}, { fields: ['id'] });
    await this.audit(actor, 'departmentDel', `department:${dep.id}`, { name: dep.name });
  }

  /** Puts a user in a department, or (0) in none. */
  async setUserDepartment(userId: number, depId: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.userById(userId);
    if (depId) await this.department(depId, 'dep_id');
    await this.departments.assign(user.id, depId, this.now());
    await this.live?.announceProfile({ ...user, dep_id: depId });
    await this.audit(actor, 'userDepartment', `user:${user.id}`, {
      account: user.account,
      from: user.dep_id,
      to: depId,
    });
  }

  /** The command line's form: by account. */
  async setDepartment(account: string, depId: number, actor: Actor = COMMAND_LINE): Promise<void> {
    await this.setUserDepartment((await this.userByAccount(account)).id, depId, actor);
  }

  /** Audit rows newest first. */
  async auditLog(body: RouteInput<'manageAuditList'>): Promise<{ items: AuditRow[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.repo.auditPage({ adminId: body.admin_id, action: body.action }, offset, limit);
    return { items: rows.map((r) => ({ ...r, admin_name: r.admin_name ?? '' })), total };
  }

  /** The dashboard: users (all, online now), groups, messages per day for 30 days, storage, version, uptime. */
  async stats(): Promise<ManageStats> {
    const live = this.requireLive();
    const now = this.now();
    const today = Math.floor(now / DAY_MS);
    const first = today - CHART_DAYS + 1;
    const [totals, perDay, signedIn] = await Promise.all([
      this.repo.totals(),
      this.repo.messagesPerDay(first * DAY_MS),
      this.repo.withLiveSessions(now),
    ]);
    const online = signedIn.length ? (await live.realtime.online(signedIn)).size : 0;
    const messagesPerDay = Array.from({ length: CHART_DAYS }, (_, i) => ({
      day: utcDay(first + i),
      count: perDay.get(first + i) ?? 0,
    }));
    return {
      ...totals,
      online,
      messagesToday: perDay.get(today) ?? 0,
      messagesPerDay,
      version: APP_VERSION,
      uptimeS: Math.floor(live.uptimeS()),
    };
  }
}
