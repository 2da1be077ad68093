import type { Repos } from '../../repos';
import { hashPassword, randomToken } from '../../lib/crypto';
import type { ConfigService } from './config-service';
import { type SessionRepo } from '../auth';
import { type UserRepo } from '../user';
import { type AnnouncementRepo } from './announcement-repo';
import { type InviteRepo } from './repo';

/** Operator tasks behind `npm run admin`: configuration, users, invite codes. */
export class AdminService {
  private readonly users: UserRepo;
  private readonly sessions: SessionRepo;
  private readonly announcements: AnnouncementRepo;
  private readonly invites: InviteRepo;

  constructor(
    repos: Pick<Repos, 'users' | 'sessions' | 'announcements' | 'invites'>,
    private readonly config: ConfigService,
    private readonly now: () => number = Date.now,
  ) {
    this.users = repos.users;
    this.sessions = repos.sessions;
    this.announcements = repos.announcements;
    this.invites = repos.invites;
  }

  getConfig(dottedPath?: string): unknown {
    let value: unknown = this.config.get();
    for (const key of dottedPath ? dottedPath.split('.') : []) {
      if (typeof value !== 'object' || value === null || !(key in value))
        throw new Error(`no such setting: ${dottedPath}`);
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }

  async setConfig(dottedPath: string, value: string): Promise<unknown> {
    await this.config.set(dottedPath, value);
    return this.getConfig(dottedPath);
  }

  async createUser(account: string, password: string, realname: string, admin: boolean): Promise<number> {
    if (await this.users.taken(account)) throw new Error(`account already exists: ${account}`);
    const now = this.now();
    const row = await this.users.insert({
      account: account.toLowerCase(),
      password_hash: await hashPassword(password),
      realname,
      email: '',
      phone: '',
      avatar: '',
      sex: 2,
      motto: '',
      is_auth: 0,
      role: admin ? 1 : 0,
      status: 1,
      language: '',
      create_time: now,
      update_time: now,
    });
    return row.id;
  }

  private async require(account: string) {
    const user = await this.users.byLogin(account);
    if (!user) throw new Error(`no such account: ${account}`);
    return user;
  }

  /** Disables (or enables) a user; disabling revokes every session at once. */
  async setStatus(account: string, enabled: boolean): Promise<void> {
    const user = await this.require(account);
    await this.users.update(user.id, { status: enabled ? 1 : 0, update_time: this.now() });
    if (!enabled) await this.sessions.revokeAllOf(user.id, this.now());
  }

  async setRole(account: string, role: 'admin' | 'user'): Promise<void> {
    const user = await this.require(account);
    await this.users.update(user.id, { role: role === 'admin' ? 1 : 0, update_time: this.now() });
  }

  /** Publishes a system announcement; running servers push it to everyone within seconds. */
  async announce(title: string, notice: string): Promise<number> {
    return this.announcements.insert(title.slice(0, 128), notice, this.now());
  }

  /** Creates an invite code usable `uses` times within `days` days. */
  async createInvite(uses: number, days: number): Promise<string> {
    const code = randomToken(6);
    const now = this.now();
    await this.invites.insert({
      code,
      created_by: 0,
      uses_left: uses,
      expires_at: now + days * 86_400_000,
      create_time: now,
    });
    return code;
  }
}
