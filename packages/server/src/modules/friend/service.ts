import { negotiateLocale, translate, type Contact, type FriendRequest, type RouteInput } from '@sparrow/protocol';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import type { Session } from '../auth';
import type { QrService } from '../qr';
import { lastSeenOf, readersOf, seesLastSeen, statusOf, type UserRepo, type UserRow } from '../user';
import type { EventPort } from '../events';
import { profileHidden } from '../group';
import type { ConfigService } from '../system';
import { toFriendRequest, toUserContact } from './presenter';
import { type FriendRepo, RequestStatus } from './repo';

/** What FriendService is built from (the groups' rows for `profileHidden`). */
export interface FriendParts {
  repos: Pick<Repos, 'friends' | 'users' | 'departments' | 'groups' | 'blocks'>;
  realtime: Realtime;
  config: ConfigService;
  now: () => number;
}

/** Friends and friend requests (docs/protocol.md §3 `/enterprise/friend/*`), and the contact list. */
export class FriendService {
  readonly friends: FriendRepo;
  private readonly users: UserRepo;

  /** Told when two people stop being friends (their call, if any, ends). */
  private readonly unfriended: Array<(a: number, b: number) => Promise<void>> = [];
  /** Told when two people become friends (each one's moments feed gets the other's posts). */
  private readonly befriended: Array<(a: number, b: number) => Promise<void>> = [];

  constructor(
    private readonly ctx: FriendParts,
    private readonly qr: QrService,
    private readonly events: EventPort,
  ) {
    this.friends = ctx.repos.friends;
    this.users = ctx.repos.users;
  }

  private async activeUser(id: number): Promise<UserRow> {
    const user = await this.users.byId(id);
    if (!user || user.status !== 1) throw new AppError('UserNotFound', {}, { fields: ['user_id'] });
    return user;
  }

  /** `user` as a contact row of `viewerId`'s list. */
  async contactOf(viewerId: number, user: UserRow): Promise<Contact> {
    const [friend, online, department, blocked, hidden] = await Promise.all([
      this.friends.row(viewerId, user.id),
      this.ctx.realtime.online([user.id]),
      this.departmentNames(user.dep_id ? [user] : []),
      this.ctx.repos.blocks.either(viewerId, user.id),
      profileHidden(this.ctx, viewerId, user.id),
    ]);
    const presence = this.presenceOf(user, { friend: friend !== undefined, blocked, hidden }, online.has(user.id));
    return toUserContact(user, friend, presence.online, department?.get(user.dep_id), presence);
  }

  /**
   * A contact row's presence as the reader may see it, as on the profile (users/presenter.ts): the
   * status unless a block or a group hiding the profile stands between them; whether they are
   * online and their last-seen time only where their 最近在线 is the reader's to see.
   */
  private presenceOf(user: UserRow, to: { friend: boolean; blocked: boolean; hidden: boolean }, online: boolean) {
    const shown = !to.hidden && this.ctx.config.get().chatInfo.online === 1 && seesLastSeen(user, to);
    return {
      status: to.hidden || to.blocked ? null : statusOf(user, this.ctx.now()),
      online: shown && online,
      ...(shown && { lastSeen: lastSeenOf(user, online) }),
    };
  }

  /** In runMode 1, the names of departments by id (the contact list groups people by them); else undefined. */
  private async departmentNames(users: UserRow[]): Promise<Map<number, string> | undefined> {
    if (this.ctx.config.get().sysInfo.runMode !== 1) return undefined;
    return users.some((u) => u.dep_id) ? this.ctx.repos.departments.names() : new Map();
  }

  /** Tells both new friends, each with the other as a contact row. */
  private async announceFriendship(a: UserRow, b: UserRow): Promise<void> {
    await this.ctx.realtime.publish([a.id], { type: 'appendContact', data: await this.contactOf(a.id, b) });
    await this.ctx.realtime.publish([b.id], { type: 'appendContact', data: await this.contactOf(b.id, a) });
  }

  /**
   * Asks a user to be friends; if they already asked me, we become friends at once. With `token`
   * (their scanned QR code) the code must be genuine, unexpired and theirs. Someone who blocked me
   * gets nothing, and I am answered as if the request were sent.
   */
  async add(body: RouteInput<'friendAdd'>, session: Session): Promise<'requested' | 'friends'> {
    const me = session.user;
    if (body.token && this.qr.userId(body.token) !== body.user_id)
      throw new AppError('QrInvalid', {}, { fields: ['token'] });
    if (body.user_id === me.id) throw new AppError('FriendSelf', {}, { fields: ['user_id'] });
    const them = await this.activeUser(body.user_id);
    // A scanned QR code is the person's own invitation; a group that hides its members is not.
    // Read before the pair's lock is taken: only the lock's own queries may run under it.
    const hidden = !body.token && (await profileHidden(this.ctx, me.id, them.id));
    const blockedByThem = await this.ctx.repos.blocks.has(them.id, me.id);
    const now = this.ctx.now();
    const outcome = await this.friends.pair(me.id, them.id, async (f) => {
      if (await f.row(me.id, them.id)) throw new AppError('AlreadyFriends');
      if (blockedByThem) {
        if (await f.pending(me.id, them.id)) throw new AppError('RequestPending');
        if (hidden) throw new AppError('ProfileHidden');
        return { kind: 'ignored' as const };
      }
      // A bot takes every request at once (it cannot answer one): whoever finds it may talk to it.
      if (them.is_bot === 1 || (await f.pending(them.id, me.id))) {
        await f.befriend(me.id, them.id, now);
        return { kind: 'friends' as const };
      }
      if (await f.pending(me.id, them.id)) throw new AppError('RequestPending');
      if (hidden) throw new AppError('ProfileHidden');
      return { kind: 'requested' as const, id: await f.createRequest(me.id, them.id, body.remark, now) };
    });
    if (outcome.kind === 'friends') {
      for (const listener of this.befriended) await listener(me.id, them.id);
      await this.announceFriendship(me, them);
      return 'friends';
    }
    if (outcome.kind === 'ignored') return 'requested';
    const { id } = outcome;
    await this.events.postEvent(
      { kind: 'system', recipient: them },
      {
        type: 'event',
        line: { event: 'friendRequest', friend_id: id, user_id: me.id, name: me.realname },
        content: '',
      },
    );
    return 'requested';
  }

  async list(body: RouteInput<'friendIndex'>, session: Session): Promise<{ items: FriendRequest[]; total: number }> {
    const { rows, total } = await this.friends.list(session.userId, body.is_mine === 1, body.page, body.limit);
    const users = await this.users.byIds(rows.flatMap((r) => [r.create_user, r.user_id]));
    return { items: rows.map((r) => toFriendRequest(r, users)), total };
  }

  /** The addressee accepts or refuses; anyone else is answered as if there were no such request. */
  async answer(body: RouteInput<'friendUpdate'>, session: Session): Promise<void> {
    const request = await this.friends.request(body.friend_id);
    if (!request || request.user_id !== session.userId) throw new AppError('NotFound', {}, { fields: ['friend_id'] });
    if (request.status !== RequestStatus.Pending) throw new AppError('RequestHandled');
    const now = this.ctx.now();
    const requester = body.status === 0 ? undefined : await this.activeUser(request.create_user);
    // Answered once: under the pair's lock the request must still be waiting, or this answer lost to another.
    await this.friends.pair(session.userId, request.create_user, async (f) => {
      if ((await f.request(request.id))?.status !== RequestStatus.Pending) throw new AppError('RequestHandled');
      if (requester) await f.befriend(session.userId, requester.id, now);
      else await f.setRequestStatus(request.id, RequestStatus.Refused, now);
    });
    if (!requester) return;
    for (const listener of this.befriended) await listener(session.userId, requester.id);
    await this.announceFriendship(session.user, requester);
    await this.events.postEvent(
      { kind: 'system', recipient: requester },
      {
        type: 'event',
        line: { event: 'friendAccepted', friend_id: request.id, user_id: session.userId, name: session.user.realname },
        content: '',
      },
    );
    // As in WeChat, the chat opens with the one who accepted saying so, in their words (where
    // private chats are allowed at all).
    if (this.ctx.config.get().chatInfo.simpleChat !== 1) return;
    await this.events.postEvent(
      { kind: 'private', from: session.user, to: requester },
      { type: 'text', content: translate(negotiateLocale(session.user.language || undefined), 'friend.greeting') },
    );
  }

  onUnfriended(listener: (a: number, b: number) => Promise<void>): void {
    this.unfriended.push(listener);
  }

  onBefriended(listener: (a: number, b: number) => Promise<void>): void {
    this.befriended.push(listener);
  }

  /** Ends a friendship both ways; old clients drop the contact on `removeGroup {group_id: <id>}`. */
  async remove(body: RouteInput<'friendDel'>, session: Session): Promise<void> {
    const other = body.id;
    if (!(await this.friends.unfriend(session.userId, other))) throw new AppError('NotFriends');
    for (const listener of this.unfriended) await listener(session.userId, other);
    await this.ctx.realtime.publish([other], { type: 'removeGroup', data: { group_id: session.userId } });
    await this.ctx.realtime.publish([session.userId], { type: 'removeGroup', data: { group_id: other } });
  }

  /** Sets my remark for a friend: my own friendship row, or the one my sent request led to. */
  async setNickname(body: RouteInput<'friendSetNickname'>, session: Session): Promise<void> {
    let row = await this.friends.rowById(body.friend_id);
    if (row && row.user_id !== session.userId) row = undefined;
    if (!row) {
      const request = await this.friends.request(body.friend_id);
      if (request && request.create_user === session.userId)
        row = await this.friends.row(session.userId, request.user_id);
    }
    if (!row) throw new AppError('NotFound', {}, { fields: ['friend_id'] });
    await this.friends.setNickname(row.id, body.nickname);
    const friend = await this.users.byId(row.friend_user_id);
    if (friend)
      await this.ctx.realtime.publish([session.userId], {
        type: 'appendContact',
        data: await this.contactOf(session.userId, friend),
      });
  }

  /**
   * A user's name or avatar changed: those who list them get their row again as `appendContact`
   * (docs/protocol.md `uploadAvatar`), each friend with their own remark; in runMode 1, where everyone is a
   * contact, everyone else gets the row a non-friend sees.
   */
  async announceProfile(user: UserRow): Promise<void> {
    const [theirs, online, blocks] = await Promise.all([
      this.friends.rowsTo(user.id),
      this.ctx.realtime.online([user.id]),
      this.ctx.repos.blocks.around(user.id),
    ]);
    // Online only to whom their 最近在线 shows (as on their row in the list).
    const isOnline = online.has(user.id);
    const blocked = new Set(blocks);
    if (this.ctx.config.get().sysInfo.runMode === 1) {
      const department = (await this.departmentNames([user]))?.get(user.dep_id);
      const shown = isOnline && blocked.size === 0 && seesLastSeen(user, { friend: false, blocked: false });
      await this.ctx.realtime.broadcast(
        { type: 'appendContact', data: toUserContact(user, undefined, shown, department) },
        user.id,
      );
    }
    for (const [friendId, row] of theirs) {
      const shown = isOnline && seesLastSeen(user, { friend: true, blocked: blocked.has(friendId) });
      await this.ctx.realtime.publish([friendId], { type: 'appendContact', data: toUserContact(user, row, shown) });
    }
  }

  /** My contacts, with the number of friend requests waiting for me. */
  async contacts(session: Session): Promise<{ items: Contact[]; pending: number }> {
    return { items: await this.people(session), pending: await this.friends.pendingCount(session.userId) };
  }

  /**
   * The people I see: friends (runMode 2), or everyone active in the organisation (runMode 1),
   * with presence, sorted by letter.
   */
  async people(session: Session): Promise<Contact[]> {
    const runMode = this.ctx.config.get().sysInfo.runMode;
    const mine = await this.friends.rowsOf(session.userId);
    const users =
      runMode === 1
        ? await this.users.activeExcept(session.userId)
        : mine.size
          ? await this.users.activeAmong([...mine.keys()])
          : [];
    const [online, departments, blocks] = await Promise.all([
      this.ctx.realtime.online(users.map((u) => u.id)),
      this.departmentNames(users),
      this.ctx.repos.blocks.around(session.userId),
    ]);
    const blocked = new Set(blocks);
    return users
      .map((u) => {
        const to = { friend: mine.has(u.id), blocked: blocked.has(u.id), hidden: false };
        const presence = this.presenceOf(u, to, online.has(u.id));
        return toUserContact(u, mine.get(u.id), presence.online, departments?.get(u.dep_id), presence);
      })
      .sort(
        (a, b) => a.index.localeCompare(b.index) || a.displayName.localeCompare(b.displayName, 'zh-Hans-u-co-pinyin'),
      );
  }

  /**
   * Who hears a user come online or go (`isOnline`): those who may see their 最近在线 (their friends,
   * or everyone in runMode 1, as their `last_seen_to` allows), never across a block.
   */
  async audience(userId: number): Promise<number[] | 'everyone'> {
    const user = await this.users.byId(userId);
    return user ? readersOf(this.ctx, user, 'lastSeen') : [];
  }
}
