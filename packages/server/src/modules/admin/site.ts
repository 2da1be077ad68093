import {
  CONFIG_KEYS,
  isConfigKey,
  type ConfigKey,
  type ManagedInvite,
  type ManagedNotice,
  type RouteInput,
} from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { randomToken } from '../../lib/crypto';
import type { AnnouncementRepo, ConfigService, InviteRepo } from '../system';
import { type Actor, type AuditLog, COMMAND_LINE, paging } from './audit';

const DAY_MS = 86_400_000;

/** The server as a whole: its settings, invite codes and announcements. */
export class AdminSite {
  private readonly announcements: AnnouncementRepo;
  private readonly invites: InviteRepo;
  private readonly published = new Set<() => Promise<void>>();

  constructor(
    repos: Pick<Repos, 'announcements' | 'invites'>,
    private readonly config: ConfigService,
    private readonly audit: AuditLog,
    private readonly now: () => number,
  ) {
    this.announcements = repos.announcements;
    this.invites = repos.invites;
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
    await this.audit.append(actor, 'configSet', key, { from: before, to: next });
    return this.getConfig(key);
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
    await this.audit.append(actor, 'inviteCreate', `invite:${invite.code}`, { uses, days });
    return invite;
  }

  async listInvites(body: RouteInput<'manageInviteList'>): Promise<{ items: ManagedInvite[]; total: number }> {
    const { offset, limit } = paging(body);
    const { rows, total } = await this.invites.page(offset, limit);
    return { items: rows, total };
  }

  async revokeInvite(code: string, actor: Actor): Promise<void> {
    if (!(await this.invites.revoke(code))) throw new AppError('NotFound', {}, { fields: ['code'] });
    await this.audit.append(actor, 'inviteRevoke', `invite:${code}`);
  }

  /** Publishes a system announcement; running servers push it to everyone within seconds. */
  async announce(title: string, notice: string, actor: Actor = COMMAND_LINE): Promise<number> {
    return (await this.publishNotice(title, notice, actor)).id;
  }

  async publishNotice(title: string, notice: string, actor: Actor): Promise<ManagedNotice> {
    const row = { title: title.slice(0, 128), notice, create_time: this.now() };
    const id = await this.announcements.insert(row.title, row.notice, row.create_time);
    await this.audit.append(actor, 'noticePublish', `notice:${id}`, { title: row.title });
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
    await this.audit.append(actor, 'noticeDel', `notice:${id}`);
  }
}
