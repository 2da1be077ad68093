import {
  DEFAULT_GROUP_SETTING,
  groupNumber,
  type Contact,
  type EventLine,
  type GroupInfo,
  type GroupMember,
  type RouteInput,
  PICTURES,
  GroupRoles,
  memberRole,
} from '@sparrow/protocol';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { type Access } from '../access';
import type { Session } from '../auth';
import { type FriendRepo } from '../friend';
import type { EventPort } from '../events';
import type { QrService } from '../qr';
import type { ConfigService } from '../system';
import { type UserRepo, type UserRow } from '../user';
import { storageUrl, type Storage } from '../../storage/storage';
import { composeGroupAvatar } from './avatar';
import { eventFacts, groupSetting, toGroupContact } from './presenter';
import { membersHidden } from './profile';
import { type GroupRepo, type GroupRow } from './repo';
import type { KeywordScreen } from '../keywords';

/** What GroupService is built from. */
export interface GroupParts {
  repos: Pick<Repos, 'groups' | 'users' | 'friends'>;
  access: Access;
  realtime: Realtime;
  config: ConfigService;
  storage: Storage;
  keywords: Pick<KeywordScreen, 'name'>;
  now: () => number;
}

/** Groups as far as chatting needs them: create, invite, members, my groups, info. */
export class GroupService {
  readonly groups: GroupRepo;
  private readonly users: UserRepo;
  private readonly friends: FriendRepo;
  private readonly access: Access;

  constructor(
    private readonly ctx: GroupParts,
    private readonly events: EventPort,
    /** Whom a user may add (the friend module's `FriendService.people`). */
    private readonly people: { people(session: Session): Promise<Contact[]> },
    private readonly qr: QrService,
  ) {
    this.groups = ctx.repos.groups;
    this.users = ctx.repos.users;
    this.friends = ctx.repos.friends;
    this.access = ctx.access;
  }

  /**
   * Redraws a group's avatar from its first nine members, unless one was uploaded; returns the
   * avatar URL (unchanged when uploaded).
   */
  async refreshAvatar(groupId: number): Promise<string> {
    const group = await this.groups.byId(groupId);
    if (!group) return '';
    if (group.avatar_custom) return group.avatar;
    const members = await this.groups.members(groupId, 9);
    const users = await this.users.byIds(members.map((m) => m.user_id));
    const faces = members.map((m) => {
      const u = users.get(m.user_id);
      return { avatar: u?.avatar ?? PICTURES.person, name: u?.realname ?? '' };
    });
    const bytes = await composeGroupAvatar(this.ctx.storage, faces);
    let url: string;
    try {
      url = storageUrl((await this.ctx.storage.put(bytes, 'webp')).key);
    } catch (err) {
      // A full disk keeps the old picture; groups still form and change, and the next change redraws it.
      if (err instanceof AppError && err.name === 'StorageUnavailable') return group.avatar;
      throw err;
    }
    await this.groups.setAvatar(groupId, url);
    return url;
  }

  /**
   * A member's name or avatar changed: the drawn avatars of their groups that show them (the first
   * nine members) are drawn again and announced.
   */
  async redrawFaces(userId: number): Promise<void> {
    for (const group of await this.groups.mine(userId)) {
      if (group.avatar_custom) continue;
      const shown = await this.groups.members(group.id, 9);
      if (!shown.some((m) => m.user_id === userId)) continue;
      const avatar = await this.refreshAvatar(group.id);
      if (avatar === group.avatar) continue;
      await this.announceAvatar(group.id, avatar);
    }
  }

  /**
   * A member's name or avatar changed: everyone who shares a group with them, friend or not, hears
   * it once as `profileChanged` (however many groups they share), so that open group chats and
   * member lists follow; their contact row reaches only those who list them (`appendContact`).
   */
  async announceMember(user: UserRow): Promise<void> {
    const audience = await this.groups.coMemberIds(user.id);
    if (audience.length === 0) return;
    await this.ctx.realtime.publish(audience, {
      type: 'profileChanged',
      data: { user_id: user.id, realname: user.realname, avatar: user.avatar },
    });
  }

  /**
   * Tells the members a group's new picture: `groupAvatar`, and `setManager {group_id, avatar}`,
   * which is how Raingad 6.x clients hear of it (docs/raingad.md §4.2).
   */
  async announceAvatar(groupId: number, avatar: string): Promise<void> {
    const members = await this.groups.memberIds(groupId);
    const group_id = `group-${groupId}` as const;
    await this.ctx.realtime.publish(members, { type: 'groupAvatar', data: { group_id, avatar } });
    await this.ctx.realtime.publish(members, { type: 'setManager', data: { group_id, avatar } });
  }

  /** The users `inviter` may bring into a group: active, and friends unless everyone is a contact. */
  private async invitable(inviter: Session, ids: number[]): Promise<UserRow[]> {
    const runMode = this.ctx.config.get().sysInfo.runMode;
    const friendIds = runMode === 1 ? null : new Set(await this.friends.friendIds(inviter.userId));
    const found: UserRow[] = [];
    const users = await this.users.byIds(ids);
    for (const id of new Set(ids)) {
      if (id === inviter.userId) continue;
      const user = users.get(id);
      if (!user || user.status !== 1) throw new AppError('UserNotFound', {}, { fields: ['user_ids'] });
      if (friendIds && !friendIds.has(id)) throw new AppError('NotFriendChat', {}, { fields: ['user_ids'] });
      found.push(user);
    }
    return found;
  }

  private checkSize(current: number, adding: number): void {
    const max = this.ctx.config.get().chatInfo.groupUserMax;
    if (max > 0 && current + adding > max) throw new AppError('GroupFull', { max });
  }

  /** Posts an event line to a group (creation, invitation, role changes…) and pushes it. */
  async event(group: GroupRow, actor: Session, line: EventLine, content: string): Promise<void> {
    // The actor may have just left or been removed: event lines need no membership of their own.
    const member =
      (await this.groups.member(group.id, actor.userId)) ?? (await this.groups.member(group.id, group.owner_id));
    if (!member) return;
    // The group as it is now: the change this line tells of may have changed its members.
    const now = (await this.groups.byId(group.id)) ?? group;
    await this.events.postEvent(
      { kind: 'group', group: now, member, actor: actor.user },
      { type: 'event', line, content },
    );
  }

  /** The event line "A 邀请 B、C 加入了群聊". */
  private inviteEvent(group: GroupRow, session: Session, invited: UserRow[]): Promise<void> {
    return this.event(
      group,
      session,
      { event: 'invite', ...eventFacts(session, invited) } satisfies EventLine,
      `${session.user.realname}邀请${invited.map((u) => u.realname).join('、')}加入了群聊`,
    );
  }

  async create(session: Session, body: RouteInput<'groupAdd'>): Promise<Contact> {
    if (this.ctx.config.get().chatInfo.groupChat !== 1) throw new AppError('GroupChatDisabled');
    const others = await this.invitable(session, body.user_ids);
    if (others.length < 2) throw new AppError('GroupTooSmall', {}, { fields: ['user_ids'] });
    this.checkSize(1, others.length);
    const now = this.ctx.now();
    const name =
      (body.name && this.ctx.keywords.name(body.name, 'name')) ||
      [session.user, ...others]
        .slice(0, 4)
        .map((u) => u.realname)
        .join('、')
        .slice(0, 64);
    const group = await this.groups.createWithMembers(
      name,
      session.userId,
      JSON.stringify(DEFAULT_GROUP_SETTING),
      now,
      [
        { userId: session.userId, role: GroupRoles.Owner },
        ...others.map((u) => ({ userId: u.id, role: GroupRoles.Member })),
      ],
    );
    group.avatar = await this.refreshAvatar(group.id);
    const count = others.length + 1;
    for (const user of [session.user, ...others]) {
      await this.ctx.realtime.publish([user.id], {
        type: 'addGroup',
        data: toGroupContact(group, user.id === session.userId ? GroupRoles.Owner : GroupRoles.Member, count),
      });
    }
    await this.event(
      group,
      session,
      { event: 'create', user_id: session.userId, name: session.user.realname } satisfies EventLine,
      `${session.user.realname}创建了群聊`,
    );
    await this.inviteEvent(group, session, others);
    return toGroupContact(group, GroupRoles.Owner, count);
  }

  /** Invites users: owner and admins, or any member while `invite` is on. */
  async addUsers(session: Session, body: RouteInput<'addGroupUser'>): Promise<void> {
    const groupId = groupNumber(body.id);
    const mayInvite = async (g: GroupRepo) => {
      const { group, member } = await this.access.requireMember(session.userId, groupId, g);
      if (member.role === GroupRoles.Member && !groupSetting(group).invite) throw new AppError('InviteForbidden');
      return group;
    };
    await mayInvite(this.groups);
    const invited = await this.invitable(session, body.user_ids);
    // Who is new, the group's size and the join are decided under the group's lock, so that the
    // same person invited (or scanning the code) twice at once joins once.
    const { group, existing, newcomers } = await this.groups.locked(groupId, async (g) => {
      const group = await mayInvite(g);
      const existing = new Set(await g.memberIds(group.id));
      const newcomers = invited.filter((u) => !existing.has(u.id));
      if (newcomers.length === 0) throw new AppError('AlreadyMember', {}, { fields: ['user_ids'] });
      this.checkSize(existing.size, newcomers.length);
      const joining = newcomers.map((u) => ({ userId: u.id, role: GroupRoles.Member }));
      await g.join(group.id, joining, this.ctx.now());
      return { group, existing, newcomers };
    });
    const count = existing.size + newcomers.length;
    group.avatar = await this.refreshAvatar(group.id);
    for (const user of newcomers) {
      await this.ctx.realtime.publish([user.id], {
        type: 'addGroup',
        data: toGroupContact(group, GroupRoles.Member, count),
      });
    }
    await this.ctx.realtime.publish([...existing], {
      type: 'addGroupUser',
      data: { group_id: `group-${group.id}`, user_ids: newcomers.map((u) => u.id), avatar: group.avatar },
    });
    await this.inviteEvent(group, session, newcomers);
  }

  async members(session: Session, body: RouteInput<'groupUserList'>): Promise<{ items: GroupMember[]; total: number }> {
    const { group, member } = await this.access.requireMember(session.userId, groupNumber(body.group_id));
    const rows = await this.groups.members(group.id, body.limit, (body.page - 1) * body.limit);
    const items: GroupMember[] = [];
    const users = await this.users.byIds(rows.map((m) => m.user_id));
    // With `profile` off an ordinary member may open only their friends' profiles (and their own).
    const hidden = membersHidden(group, member.role);
    const friendIds = hidden ? new Set(await this.friends.friendIds(session.userId)) : new Set<number>();
    for (const m of rows) {
      const u = users.get(m.user_id);
      if (!u) continue;
      items.push({
        user_id: m.user_id,
        role: memberRole(m.role),
        nickname: m.nickname,
        ...noSpeak(m.no_speak_until, this.ctx.now()),
        join_time: m.join_time,
        profile: hidden && u.id !== session.userId && !friendIds.has(u.id) ? 0 : 1,
        userInfo: {
          user_id: u.id,
          id: u.id,
          realname: u.realname,
          displayName: m.nickname || u.realname,
          avatar: u.avatar,
          account: u.id === session.userId ? u.account : '',
        },
      });
    }
    return { items, total: await this.groups.count(group.id) };
  }

  async mine(session: Session, role?: number): Promise<Contact[]> {
    const rows = await this.groups.mine(session.userId, role);
    const out: Contact[] = [];
    const sizes = await this.groups.counts(rows.map((r) => r.id));
    for (const r of rows) out.push(toGroupContact(r, r.role, sizes.get(r.id) ?? 0));
    return out;
  }

  /** Users I may add: to a group (not yet in it), or to a new one. */
  async candidates(session: Session, body: RouteInput<'getAllUser'>): Promise<Contact[]> {
    const exclude = new Set<number>([session.userId, ...(body.user_ids ?? [])]);
    if (body.group_id) {
      const { group } = await this.access.requireMember(session.userId, groupNumber(body.group_id));
      for (const id of await this.groups.memberIds(group.id)) exclude.add(id);
    }
    return (await this.people.people(session)).filter((c) => !exclude.has(c.user_id!));
  }

  /** The group's record for a member, with a fresh QR code naming `base` (http/public-url.ts). */
  async info(session: Session, groupIdText: string, base: string): Promise<GroupInfo> {
    const { group, member } = await this.access.requireMember(session.userId, groupNumber(groupIdText));
    const owner = await this.users.byId(group.owner_id);
    const memberCount = await this.groups.count(group.id);
    return {
      group_id: `group-${group.id}`,
      id: `group-${group.id}`,
      displayName: group.name,
      name: group.name,
      avatar: group.avatar,
      owner_id: group.owner_id,
      owner: owner ? { user_id: owner.id, id: owner.id, realname: owner.realname, avatar: owner.avatar } : null,
      notice: group.notice,
      setting: groupSetting(group),
      member_count: memberCount,
      isJoin: memberRole(member.role),
      groupUserCount: memberCount,
      ownerName: owner?.realname ?? '',
      nickname: member.nickname,
      no_speak_until: member.no_speak_until > this.ctx.now() ? member.no_speak_until : 0,
      create_time: group.create_time,
      ...this.qr.code('group', group.id, base, group.qr_generation),
    };
  }
}

/** When a member's mute ends: ms for Sparrow's client, seconds as Raingad 6.x clients read it; 0 when not muted. */
function noSpeak(until: number, now: number): Pick<GroupMember, 'no_speak_until' | 'no_speak_time'> {
  const live = until > now ? until : 0;
  return { no_speak_until: live, no_speak_time: Math.ceil(live / 1000) };
}
