import type { RouteInput, UserInfo, UserProfile } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Session } from '../auth';
import { toUserInfo, toUserProfile } from './presenter';
import { type FriendRepo } from '../friend';
import { profileHidden } from '../group';
import type { QrService } from '../qr';
import type { ConfigService } from '../system';
import { type UserRepo, type UserRow } from './repo';
import type { KeywordScreen } from '../keywords';

/** What UserService is built from (the groups' rows for `profileHidden`). */
export interface UserParts {
  repos: Pick<Repos, 'users' | 'friends' | 'groups' | 'blocks'>;
  config: ConfigService;
  keywords: Pick<KeywordScreen, 'name'>;
  now: () => number;
}

/** Profiles of users: one's own, and others' as one may see them. */
export class UserService {
  private readonly users: UserRepo;
  private readonly friends: FriendRepo;

  /** Told when a user's name or avatar changed, so that those who show them can be updated. */
  private readonly changed: Array<(user: UserRow) => Promise<void>> = [];

  constructor(
    private readonly ctx: UserParts,
    private readonly qr: QrService,
  ) {
    this.users = ctx.repos.users;
    this.friends = ctx.repos.friends;
  }

  onChanged(listener: (user: UserRow) => Promise<void>): void {
    this.changed.push(listener);
  }

  private async tellChanged(userId: number): Promise<void> {
    const user = await this.users.byId(userId);
    if (!user) return;
    for (const listener of this.changed) await listener(user);
  }

  /** My friendship record with a user, as profiles show it. */
  private async friendOf(viewerId: number, userId: number) {
    const row = await this.friends.row(viewerId, userId);
    return row ? { friend_id: row.id, nickname: row.nickname } : null;
  }

  async profile(userId: number, session: Session): Promise<UserProfile> {
    const row = await this.users.byId(userId);
    if (!row || (row.status !== 1 && row.id !== session.userId)) throw new AppError('UserNotFound');
    const [friend, hidden, blocked] = await Promise.all([
      this.friendOf(session.userId, row.id),
      profileHidden(this.ctx, session.userId, row.id),
      this.ctx.repos.blocks.has(session.userId, row.id),
    ]);
    return toUserProfile(row, session.userId, friend, hidden, blocked);
  }

  /** Exact matches on account, email or phone: never a listing, never a partial match. */
  async search(keywords: string, session: Session): Promise<UserProfile[]> {
    const rows = await this.users.searchExact(keywords);
    return Promise.all(
      rows.map(async (row) =>
        toUserProfile(
          row,
          session.userId,
          await this.friendOf(session.userId, row.id),
          false,
          await this.ctx.repos.blocks.has(session.userId, row.id),
        ),
      ),
    );
  }

  /** Changes my profile; answers my record with links naming `base` (http/public-url.ts). */
  async update(body: RouteInput<'updateUserInfo'>, session: Session, base: string): Promise<UserInfo> {
    if (
      body.realname !== undefined &&
      body.realname !== session.user.realname &&
      this.ctx.config.get().sysInfo.diyName !== 1
    ) {
      throw new AppError('RenameDisabled', {}, { fields: ['realname'] });
    }
    // An address one can log in with must not be claimable by another user.
    if (body.email && (await this.users.taken(body.email, session.userId))) {
      throw new AppError('AccountTaken', {}, { fields: ['email'] });
    }
    const values = {
      ...(body.realname !== undefined && {
        realname:
          body.realname === session.user.realname ? body.realname : this.ctx.keywords.name(body.realname, 'realname'),
      }),
      ...(body.email !== undefined && { email: body.email.toLowerCase() }),
      ...(body.motto !== undefined && {
        motto: body.motto === session.user.motto ? body.motto : this.ctx.keywords.name(body.motto, 'motto'),
      }),
      ...(body.sex !== undefined && { sex: body.sex }),
      ...(body.pat_suffix !== undefined && {
        pat_suffix:
          body.pat_suffix === session.user.pat_suffix
            ? body.pat_suffix
            : this.ctx.keywords.name(body.pat_suffix, 'pat_suffix'),
      }),
    };
    await this.users.update(session.userId, { ...values, update_time: this.ctx.now() });
    const row = await this.users.byId(session.userId);
    if (values.realname !== undefined && values.realname !== session.user.realname) await this.tellChanged(row!.id);
    return toUserInfo(row!, this.qr.code('user', row!.id, base));
  }

  /**
   * Keeps what a Raingad client's settings dialog saved, beside what it saved before; it reads them
   * back from userInfo.setting at login.
   */
  async saveSetting(body: RouteInput<'userSetting'>, session: Session): Promise<void> {
    // Merged into what is saved, and written only if that is still what was read: two dialogs
    // saving different keys at once both keep theirs (the loser of a write reads again).
    for (;;) {
      const row = await this.users.byId(session.userId);
      if (!row) return;
      const saved = { ...parseJson(row.setting) };
      for (const [key, value] of Object.entries(body)) if (value !== undefined) saved[key] = value;
      if (await this.users.replaceSetting(session.userId, row.setting, JSON.stringify(saved), this.ctx.now())) return;
    }
  }

  /** Sets a user's avatar URL. */
  async setAvatar(userId: number, url: string): Promise<void> {
    await this.users.update(userId, { avatar: url, update_time: this.ctx.now() });
    await this.tellChanged(userId);
  }
}
