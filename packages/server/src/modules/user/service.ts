import {
  STATUS_UNTIL_MAX_MS,
  type PushPayload,
  type RouteInput,
  type UserInfo,
  type UserProfile,
} from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Session } from '../auth';
import { lastSeenOf, seesLastSeen, statusOf, toUserInfo, toUserProfile, type LastSeenShown } from './presenter';
import type { UserStatus } from '@sparrow/protocol';
import { type FriendRepo } from '../friend';
import { profileHidden } from '../group';
import type { QrService } from '../qr';
import type { ConfigService } from '../system';
import { type UserRepo, type UserRow } from './repo';
import type { KeywordScreen } from '../keywords';
import type { Realtime } from '../../realtime/realtime';
import { readersOf } from './readers';

/** What UserService is built from (the groups' rows for `profileHidden`). */
export interface UserParts {
  repos: Pick<Repos, 'users' | 'friends' | 'groups' | 'blocks'>;
  config: ConfigService;
  keywords: Pick<KeywordScreen, 'name'>;
  realtime: Pick<Realtime, 'online' | 'reachable' | 'publish' | 'broadcast'>;
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
    const [friend, hidden, blocked, either] = await Promise.all([
      this.friendOf(session.userId, row.id),
      profileHidden(this.ctx, session.userId, row.id),
      this.ctx.repos.blocks.has(session.userId, row.id),
      this.ctx.repos.blocks.either(session.userId, row.id),
    ]);
    const sees =
      row.id !== session.userId && !hidden && seesLastSeen(row, { friend: friend !== null, blocked: either });
    const shown: LastSeenShown = {
      sees,
      online: this.presenceShown() ? (await this.ctx.realtime.online([row.id])).has(row.id) : null,
      blocked: either,
    };
    return toUserProfile(row, session.userId, friend, hidden, blocked, { now: this.ctx.now(), shown });
  }

  /** Whether the server shows presence at all (chatInfo.online); without it no one's 最近在线 shows either. */
  private presenceShown(): boolean {
    return this.ctx.config.get().chatInfo.online === 1;
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
      ...(body.read_receipt !== undefined && { read_receipt: body.read_receipt }),
      ...(body.last_seen_to !== undefined && { last_seen_to: body.last_seen_to }),
      ...(body.typing !== undefined && { typing: body.typing }),
    };
    const before = values.last_seen_to !== undefined ? await this.lastSeenReaders(session.user) : null;
    await this.users.update(session.userId, { ...values, update_time: this.ctx.now() });
    const row = await this.users.byId(session.userId);
    if (before) await this.tellHidden(row!, before, await this.lastSeenReaders(row!));
    if (values.realname !== undefined && values.realname !== session.user.realname) await this.tellChanged(row!.id);
    return toUserInfo(row!, this.qr.code('user', row!.id, base), this.ctx.now());
  }

  /**
   * Sets my status (状态) as a whole, or clears it (no text and no emoji): one statement writes its
   * three columns, so two changes at once leave one of them whole. My friends and my other devices
   * are told (`userStatus`).
   */
  async setStatus(body: RouteInput<'setStatus'>, session: Session, base: string): Promise<UserInfo> {
    const now = this.ctx.now();
    const cleared = body.text === '' && body.emoji === '';
    // 0, like none, is until I change it.
    const until = body.until || undefined;
    if (!cleared && until !== undefined) {
      if (until <= now) throw new AppError('StatusUntilPast', {}, { fields: ['until'] });
      if (until > now + STATUS_UNTIL_MAX_MS) throw new AppError('Validation', {}, { fields: ['until'] });
    }
    const text = body.text === '' ? '' : this.ctx.keywords.name(body.text, 'text');
    // The row as this statement wrote it, with its version: what is pushed is what was written.
    const row = await this.users.setStatus(
      session.userId,
      { status_text: text, status_emoji: cleared ? '' : body.emoji, status_until: cleared ? null : (until ?? null) },
      now,
    );
    if (!row) throw new AppError('UserNotFound');
    await this.tellStatus(row, false);
    return toUserInfo(row, this.qr.code('user', row.id, base), now);
  }

  /**
   * A user's first socket anywhere came: their 最近在线 is written now too, so that a server that
   * stops without closing their sockets leaves at least when they were last connected.
   */
  async cameOnline(userId: number): Promise<void> {
    await this.users.update(userId, { last_seen: this.ctx.now() });
  }

  /**
   * A user's last socket anywhere went (presence's `remove`, or this server shutting it down): their
   * 最近在线 is now, told to those who may see it. Not if they are back already (a socket of theirs
   * bound meanwhile): their coming online was told and must stay the last word.
   */
  async wentOffline(userId: number): Promise<void> {
    if ((await this.ctx.realtime.reachable([userId])).has(userId)) return;
    await this.users.update(userId, { last_seen: this.ctx.now() });
    const row = await this.users.byId(userId);
    if (row?.status === 1 && this.presenceShown()) await this.tellStatus(row, true);
  }

  /** Those told of `row`'s 最近在线 and whether they are online (nobody while presence is not shown). */
  private async lastSeenReaders(row: UserRow): Promise<number[] | 'everyone'> {
    return this.presenceShown() ? readersOf(this.ctx, row, 'lastSeen') : [];
  }

  /**
   * Those of `before` not in `after` no longer see `row`'s 最近在线: they are told (`last_seen`
   * null, and `isOnline` 0 for Raingad clients while the user is online), so no stale time stays.
   */
  private async tellHidden(row: UserRow, before: number[] | 'everyone', after: number[] | 'everyone'): Promise<void> {
    if (after === 'everyone') return;
    const all = before === 'everyone' ? (await this.users.activeExcept(row.id)).map((u) => u.id) : before;
    const keep = new Set(after);
    const lost = all.filter((id) => !keep.has(id));
    await this.hideFrom(row, lost, statusOf(row, this.ctx.now()));
  }

  /** Tells `readers` that `row`'s 最近在线 (and online state) is not theirs to see, with the status they see. */
  private async hideFrom(row: UserRow, readers: number[], status: UserStatus | null): Promise<void> {
    if (readers.length === 0) return;
    await this.ctx.realtime.publish(readers, {
      type: 'userStatus',
      data: { user_id: row.id, status, last_seen: null },
    });
    if ((await this.ctx.realtime.online([row.id])).has(row.id))
      await this.ctx.realtime.publish(readers, { type: 'isOnline', data: { id: row.id, is_online: 0 } });
  }

  /**
   * One of two people blocked the other: each stops seeing the other's status and 最近在线 at once
   * (as on the profile), without waiting for a reload.
   */
  async blocked(blockerId: number, blockedId: number): Promise<void> {
    const [a, b] = await Promise.all([this.users.byId(blockerId), this.users.byId(blockedId)]);
    if (a) await this.hideFrom(a, [blockedId], null);
    if (b) await this.hideFrom(b, [blockerId], null);
  }

  /**
   * Tells a user's status (with its version), or on going offline their last-seen time: a status to
   * those who list them and their own other devices, a last-seen time to those who may see it
   * (`readersOf`); never across a block.
   */
  private async tellStatus(row: UserRow, offline: boolean): Promise<void> {
    const data: PushPayload<'userStatus'> = {
      user_id: row.id,
      status: statusOf(row, this.ctx.now()),
      version: row.status_at,
    };
    if (offline) {
      const lastSeen = lastSeenOf(row, false);
      if (lastSeen !== undefined)
        await this.tell(await this.lastSeenReaders(row), row.id, { ...data, last_seen: lastSeen });
      return;
    }
    await this.ctx.realtime.publish([row.id], { type: 'userStatus', data });
    await this.tell(await readersOf(this.ctx, row, 'status'), row.id, data);
  }

  private async tell(readers: number[] | 'everyone', userId: number, data: PushPayload<'userStatus'>): Promise<void> {
    // Everyone: one frame for every node rather than a list of all users.
    if (readers === 'everyone') await this.ctx.realtime.broadcast({ type: 'userStatus', data }, userId);
    else await this.ctx.realtime.publish(readers, { type: 'userStatus', data });
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
