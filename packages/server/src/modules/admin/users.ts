import {
  password as PASSWORD_RULE,
  PICTURES,
  type ManagedUser,
  type RouteInput,
  SocketCloseCodes,
} from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { DELETED_STATUS } from '../account';
import { hashPassword } from '../../lib/crypto';
import { ROBOT_STATUS, type UserRepo, type UserRow } from '../user';
import type { SessionRepo } from '../auth';
import { type Actor, type AuditLog, COMMAND_LINE, paging } from './audit';
import type { LiveParts } from './live';
import type { AdminRepo } from './repo';

/** Why an admin ended a user's sessions, as the user's sockets are told (`offline`). */
type EndReason = 'disabled' | 'password' | 'ended';

/** Users as an admin manages them: accounts, status, role, password and sessions, by id or (command line) account. */
export class AdminUsers {
  private readonly users: UserRepo;
  private readonly sessions: SessionRepo;
  private readonly repo: AdminRepo;

  constructor(
    repos: Pick<Repos, 'users' | 'sessions' | 'admin'>,
    private readonly audit: AuditLog,
    private readonly now: () => number,
    private readonly live?: Pick<LiveParts, 'realtime'>,
  ) {
    this.users = repos.users;
    this.sessions = repos.sessions;
    this.repo = repos.admin;
  }

  /** A user by id; UserNotFound otherwise. */
  async byId(userId: number): Promise<UserRow> {
    const user = await this.users.byId(userId);
    // An account its user deleted is listed, as deleted, and nothing more: no action brings it back.
    if (!user || user.status === DELETED_STATUS || user.status === ROBOT_STATUS)
      throw new AppError('UserNotFound', {}, { fields: ['user_id'] });
    return user;
  }

  /** A user by account (the command line names users so); UserNotFound otherwise. */
  async byAccount(account: string): Promise<UserRow> {
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
        status: r.status === 1 ? 1 : r.status === DELETED_STATUS ? 2 : 0,
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
    await this.audit.append(actor, 'userCreate', `user:${row.id}`, { account: row.account, role: row.role });
    return row.id;
  }

  /** `/manage/userCreate`: the new user as the user list shows it. */
  async createManagedUser(body: RouteInput<'manageUserCreate'>, actor: Actor): Promise<ManagedUser> {
    const id = await this.createUser(body.account, body.password, body.realname, body.role === 1, actor);
    const row = await this.byId(id);
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
    const user = await this.byId(userId);
    if (enabled) {
      await this.users.update(user.id, { status: 1, update_time: this.now() });
    } else {
      if (user.id === actor.adminId) throw new AppError('AdminSelf', {}, { fields: ['user_id'] });
      if (!(await this.repo.disableUnlessLastAdmin(user.id, this.now())))
        throw new AppError('LastAdmin', {}, { fields: ['user_id'] });
      await this.endSessions(user.id, 'disabled');
    }
    await this.audit.append(actor, enabled ? 'userEnable' : 'userDisable', `user:${user.id}`, {
      account: user.account,
    });
  }

  /** The command line's form: by account. */
  async setStatus(account: string, enabled: boolean, actor: Actor = COMMAND_LINE): Promise<void> {
    await this.setUserStatus((await this.byAccount(account)).id, enabled, actor);
  }

  /** Gives or takes the admin role; the last enabled admin keeps it. */
  async setUserRole(userId: number, admin: boolean, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.byId(userId);
    if (admin) await this.users.update(user.id, { role: 1, update_time: this.now() });
    else if (user.role === 1 && !(await this.repo.demoteUnlessLast(user.id, this.now())))
      throw new AppError('LastAdmin', {}, { fields: ['user_id'] });
    await this.audit.append(actor, 'userRole', `user:${user.id}`, { account: user.account, role: admin ? 1 : 0 });
  }

  /** The command line's form: by account. */
  async setRole(account: string, role: 'admin' | 'user', actor: Actor = COMMAND_LINE): Promise<void> {
    await this.setUserRole((await this.byAccount(account)).id, role === 'admin', actor);
  }

  /** The command line's form: by account. */
  async setPassword(account: string, password: string, actor: Actor = COMMAND_LINE): Promise<void> {
    if (!PASSWORD_RULE.safeParse(password).success) throw new AppError('Validation', {}, { fields: ['password'] });
    await this.setUserPassword((await this.byAccount(account)).id, password, actor);
  }

  /** The command line's form: by account. */
  async endSessionsOf(account: string, actor: Actor = COMMAND_LINE): Promise<void> {
    await this.endUserSessions((await this.byAccount(account)).id, actor);
  }

  /** Sets a user's password: their sessions end, and they are asked to choose their own at next login. */
  async setUserPassword(userId: number, password: string, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.byId(userId);
    await this.users.update(user.id, {
      password_hash: await hashPassword(password),
      must_change_password: 1,
      update_time: this.now(),
    });
    await this.endSessions(user.id, 'password');
    await this.audit.append(actor, 'userPassword', `user:${user.id}`, { account: user.account });
  }

  /** Ends every session of a user (signed out everywhere). */
  async endUserSessions(userId: number, actor: Actor = COMMAND_LINE): Promise<void> {
    const user = await this.byId(userId);
    await this.endSessions(user.id, 'ended');
    await this.audit.append(actor, 'userLogout', `user:${user.id}`, { account: user.account });
  }
}
