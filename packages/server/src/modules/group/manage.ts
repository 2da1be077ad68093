import {
  groupNumber,
  MUTE_OPTIONS,
  UploadGroupAvatarFields,
  type EventLine,
  type RouteInput,
  GroupRoles,
} from '@sparrow/protocol';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { localeOf, validationError } from '../../http/envelope';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { UploadService } from '../upload';
import type { UserRepo, UserRow } from '../user';
import { eventFacts, groupSetting, NOTICE_HEAD } from './presenter';
import { noticeText, noticeTooLong, sanitizeNotice } from './notice';
import { type GroupRepo, type GroupRow, type MemberRow } from './repo';
import type { GroupService } from './service';
import type { EventPort } from '../events';
import type { KeywordScreen } from '../keywords';

const gid = (group: GroupRow) => `group-${group.id}`;

/** What GroupAdminService is built from. */
export interface GroupAdminParts {
  repos: Pick<Repos, 'groups' | 'users'>;
  access: Access;
  realtime: Realtime;
  keywords: Pick<KeywordScreen, 'name'>;
  now: () => number;
}

/**
 * Group management (docs/protocol.md §3 `/enterprise/group/*`): every call checks membership and role
 * here, on the server, through the one access module. A change checks and writes under the
 * group's lock (GroupRepo.locked), so that two changes of one group sent at once, to one server or
 * two, act one after the other: the second sees the first's outcome and answers as it would have
 * if sent later. Pushes and event lines follow once the change is committed.
 */
export class GroupAdminService {
  private readonly groups: GroupRepo;
  private readonly users: UserRepo;
  private readonly access: Access;
  private readonly cleared = new Set<(fileIds: number[]) => Promise<void>>();
  private readonly retentionChanged = new Set<() => void>();

  constructor(
    private readonly ctx: GroupAdminParts,
    private readonly groupService: GroupService,
    private readonly events: EventPort,
    private readonly uploads: UploadService,
  ) {
    this.groups = ctx.repos.groups;
    this.users = ctx.repos.users;
    this.access = ctx.access;
  }

  /**
   * The member a change is about, read through `g` (under the group's lock, GroupRepo.locked);
   * `user` is their account, loaded before the lock was taken (only the lock's own queries may
   * run under it).
   */
  private async target(
    g: GroupRepo,
    group: GroupRow,
    user: UserRow | undefined,
    userId: number,
  ): Promise<{ member: MemberRow; user: UserRow }> {
    const member = await g.member(group.id, userId);
    if (!member || !user) throw new AppError('NotMember', {}, { fields: ['user_id'] });
    return { member, user };
  }

  private async pushMembers(
    group: GroupRow,
    event: Parameters<Realtime['publish']>[1],
    extra: number[] = [],
  ): Promise<void> {
    await this.ctx.realtime.publish([...(await this.groups.memberIds(group.id)), ...extra], event);
  }

  /** The owner removes anyone, an admin removes members, anyone removes themself (leaves). */
  async removeUser(session: Session, body: RouteInput<'removeUser'>): Promise<void> {
    const groupId = groupNumber(body.id);
    const leaving = body.user_id === session.userId;
    const account = await this.users.byId(body.user_id);
    const allowed = async (g: GroupRepo) => {
      const { group, member: me } = await this.access.requireMember(session.userId, groupId, g);
      const { member, user } = await this.target(g, group, account, body.user_id);
      if (leaving && me.role === GroupRoles.Owner) throw new AppError('OwnerCannotLeave');
      if (
        !leaving &&
        !(me.role === GroupRoles.Owner || (me.role === GroupRoles.Admin && member.role === GroupRoles.Member))
      )
        throw new AppError('Forbidden');
      return { group, member, user };
    };
    const { group, user } = await this.groups.locked(groupId, async (g) => {
      const found = await allowed(g);
      // Every code of the group is revoked, not the member's own: a code leaves the member it was shown
      // to (a screenshot, a poster). In the removal's transaction: until it commits, they are a member
      // and shown a code of the old generation, which the new one refuses.
      if (!leaving) await g.raiseQrGeneration(found.group.id);
      await g.removeMember(found.group.id, found.member.user_id);
      return found;
    });
    if (leaving) await this.left(group, session);
    else
      await this.removed(
        group,
        session,
        user,
        { event: 'remove', ...eventFacts(session, [user]) } satisfies EventLine,
        `${session.user.realname}将${user.realname}移出了群聊`,
      );
  }

  /** Tells the members and `user` that `user` is out of the group, with its face drawn again, and says so in the chat. */
  private async removed(
    group: GroupRow,
    actor: Session,
    user: UserRow,
    line: EventLine,
    content: string,
  ): Promise<void> {
    const avatar = await this.groupService.refreshAvatar(group.id);
    await this.pushMembers(group, { type: 'removeUser', data: { group_id: gid(group), user_id: user.id, avatar } }, [
      user.id,
    ]);
    await this.groupService.event(group, actor, line, content);
  }

  /** `removed`, of one who left. */
  private left(group: GroupRow, leaver: Session): Promise<void> {
    const { user } = leaver;
    return this.removed(
      group,
      leaver,
      user,
      { event: 'leave', user_id: user.id, name: user.realname } satisfies EventLine,
      `${user.realname}退出了群聊`,
    );
  }

  /** The owner makes (2) or unmakes (3) an administrator. */
  async setManager(session: Session, body: RouteInput<'setManager'>): Promise<void> {
    const groupId = groupNumber(body.id);
    const account = await this.users.byId(body.user_id);
    const changed = await this.groups.locked(groupId, async (g) => {
      const { group } = await this.access.requireRole(session.userId, groupId, [GroupRoles.Owner], g);
      if (body.user_id === session.userId) throw new AppError('CannotActOnSelf');
      const { member, user } = await this.target(g, group, account, body.user_id);
      if (member.role === body.role) return undefined;
      await g.setRole(member.id, body.role);
      return { group, user };
    });
    if (!changed) return;
    const { group, user } = changed;
    await this.pushMembers(group, {
      type: 'setManager',
      data: { group_id: gid(group), user_id: user.id, role: body.role, avatar: group.avatar },
    });
    await this.groupService.event(
      group,
      session,
      {
        event: body.role === GroupRoles.Admin ? 'setManager' : 'unsetManager',
        ...eventFacts(session, [user]),
      } satisfies EventLine,
      `${user.realname}`,
    );
  }

  /** The owner hands the group over; the old owner becomes an administrator. */
  async changeOwner(session: Session, body: RouteInput<'changeOwner'>): Promise<void> {
    const groupId = groupNumber(body.id);
    const account = await this.users.byId(body.user_id);
    const { group, user } = await this.groups.locked(groupId, async (g) => {
      const { group, member: me } = await this.access.requireRole(session.userId, groupId, [GroupRoles.Owner], g);
      if (body.user_id === session.userId) throw new AppError('CannotActOnSelf');
      const { member, user } = await this.target(g, group, account, body.user_id);
      await g.setOwner(group.id, { memberId: me.id }, { memberId: member.id, userId: user.id }, this.ctx.now());
      return { group, user };
    });
    await this.ownerChanged(group, session, user);
  }

  /** Tells the members that `owner` owns the group now, and says so in the chat. */
  private async ownerChanged(group: GroupRow, actor: Session, owner: UserRow): Promise<void> {
    await this.pushMembers(group, { type: 'changeOwner', data: { group_id: gid(group), user_id: owner.id } });
    await this.groupService.event(
      group,
      actor,
      { event: 'changeOwner', ...eventFacts(actor, [owner]) } satisfies EventLine,
      owner.realname,
    );
  }

  /** Mutes for one of the product's durations, or lifts: the owner over admins and members, admins over members. */
  async setNoSpeak(session: Session, body: RouteInput<'setNoSpeak'>): Promise<void> {
    const groupId = groupNumber(body.id);
    const account = await this.users.byId(body.user_id);
    const timer = (body.noSpeakTimer ?? (body.noSpeakDay === 0 ? 0 : 4)) as 0 | 1 | 2 | 3 | 4;
    const until = timer === 0 ? 0 : this.ctx.now() + MUTE_OPTIONS[timer] * 1000;
    const { group, user } = await this.groups.locked(groupId, async (g) => {
      const roles = [GroupRoles.Owner, GroupRoles.Admin];
      const { group, member: me } = await this.access.requireRole(session.userId, groupId, roles, g);
      if (body.user_id === session.userId) throw new AppError('CannotActOnSelf');
      const { member, user } = await this.target(g, group, account, body.user_id);
      const allowed =
        member.role !== GroupRoles.Owner && (me.role === GroupRoles.Owner || member.role === GroupRoles.Member);
      if (!allowed) throw new AppError('Forbidden');
      await g.setNoSpeak(member.id, until);
      return { group, user };
    });
    await this.pushMembers(group, {
      type: 'setNoSpeak',
      data: { group_id: gid(group), user_id: user.id, no_speak_until: until },
    });
    await this.groupService.event(
      group,
      session,
      { event: timer === 0 ? 'unmute' : 'mute', timer, ...eventFacts(session, [user]) } satisfies EventLine,
      user.realname,
    );
  }

  async setting(session: Session, body: RouteInput<'groupSetting'>): Promise<void> {
    const groupId = groupNumber(body.id);
    const defined = Object.fromEntries(Object.entries(body.setting).filter(([, v]) => v !== undefined));
    // Merged into the settings as they are under the lock: switches two people change at once all stay.
    const { group, setting, before } = await this.groups.locked(groupId, async (g) => {
      const { group, member } = await this.access.requireRole(
        session.userId,
        groupId,
        [GroupRoles.Owner, GroupRoles.Admin],
        g,
      );
      const before = groupSetting(group);
      const setting = { ...before, ...defined };
      // Whether every member may pin, and how long messages are kept, are the owner's to say.
      if ((setting.pin !== before.pin || setting.retention !== before.retention) && member.role !== GroupRoles.Owner)
        throw new AppError('Forbidden');
      await g.setSetting(group.id, JSON.stringify(setting), this.ctx.now());
      return { group, setting, before };
    });
    await this.pushMembers(group, { type: 'groupSetting', data: { group_id: gid(group), setting } });
    if (setting.retention !== before.retention) for (const listener of this.retentionChanged) listener();
    // Who may speak is told in the chat, as WeChat tells of 全员禁言.
    if (setting.nospeak !== before.nospeak)
      await this.groupService.event(
        group,
        session,
        {
          event: 'nospeak',
          user_id: session.userId,
          name: session.user.realname,
          nospeak: setting.nospeak,
        } satisfies EventLine,
        '',
      );
  }

  async rename(session: Session, body: RouteInput<'editGroupName'>): Promise<void> {
    const { group } = await this.access.requireRole(session.userId, groupNumber(body.id), [
      GroupRoles.Owner,
      GroupRoles.Admin,
    ]);
    const displayName = this.ctx.keywords.name(body.displayName, 'displayName');
    await this.groups.rename(group.id, displayName, this.ctx.now());
    await this.pushMembers(group, {
      type: 'editGroupName',
      data: { id: gid(group), displayName, editUserName: session.user.realname },
    });
    await this.groupService.event(
      group,
      session,
      {
        event: 'rename',
        user_id: session.userId,
        name: session.user.realname,
        title: displayName,
      } satisfies EventLine,
      displayName,
    );
  }

  /** The announcement: sanitized, stored, pushed, and posted as a message that mentions everyone. */
  async setNotice(session: Session, body: RouteInput<'setNotice'>): Promise<void> {
    const { group, member } = await this.access.requireRole(session.userId, groupNumber(body.id), [
      GroupRoles.Owner,
      GroupRoles.Admin,
    ]);
    const notice = this.ctx.keywords.name(sanitizeNotice(body.notice), 'notice');
    if (noticeTooLong(notice)) throw new AppError('Validation', {}, { fields: ['notice'] });
    await this.groups.setNotice(group.id, notice, this.ctx.now());
    await this.pushMembers(group, { type: 'setNotice', data: { group_id: gid(group), notice } });
    const text = noticeText(notice);
    if (!text) return;
    await this.events.postEvent(
      { kind: 'group', group, member, actor: session.user },
      {
        type: 'text',
        content: `${NOTICE_HEAD}\n${text}`.slice(0, 2048),
        extends: { notice: 1 },
        at: [0],
      },
    );
  }

  /**
   * The owner disbands the group. As in WeChat its members keep the chat, read-only, with a line
   * saying so, until each deletes it; nothing can be sent or changed in it any more.
   */
  async disband(session: Session, id: string): Promise<void> {
    const groupId = groupNumber(id);
    const { group, members } = await this.groups.locked(groupId, async (g) => {
      const { group } = await this.access.requireRole(session.userId, groupId, [GroupRoles.Owner], g);
      const members = await g.memberIds(group.id);
      await g.disband(group.id, this.ctx.now());
      return { group, members };
    });
    await this.disbanded(group, session, members);
  }

  /** Says in the chat that `actor` disbanded the group, and tells those who were its members. */
  private async disbanded(group: GroupRow, actor: Session, members: number[]): Promise<void> {
    await this.groupService.event(
      group,
      actor,
      { event: 'disband', user_id: actor.userId, name: actor.user.realname } satisfies EventLine,
      `${actor.user.realname}解散了该群聊`,
    );
    await this.ctx.realtime.publish(members, { type: 'disbandGroup', data: { group_id: gid(group) } });
  }

  /**
   * A user leaves a group for good (their account is being deleted), by the rules of leaving and
   * handing over: a member or administrator leaves; an owner first hands the group to the
   * longest-standing administrator, else the earliest member, and leaves; an owner alone in it
   * disbands it. Under the group's lock, so that it is safe to run again or at the same time as
   * another change; a group the user is no longer in is left as it is.
   */
  async depart(user: UserRow, groupId: number): Promise<void> {
    const actor: Session = { id: 0, userId: user.id, isMobile: false, user };
    const outcome = await this.groups.locked(groupId, async (g) => {
      const group = await g.byId(groupId);
      const me = group && (await g.member(groupId, user.id));
      if (!group || !me) return undefined;
      if (me.role !== GroupRoles.Owner) {
        await g.removeMember(groupId, user.id);
        return { kind: 'left' as const, group };
      }
      const heir = (await g.members(groupId, 2)).find((m) => m.user_id !== user.id);
      if (!heir) {
        const members = await g.memberIds(groupId);
        await g.disband(groupId, this.ctx.now());
        return { kind: 'disbanded' as const, group, members };
      }
      await g.setOwner(groupId, { memberId: me.id }, { memberId: heir.id, userId: heir.user_id }, this.ctx.now());
      await g.removeMember(groupId, user.id);
      return { kind: 'handedOver' as const, group, heir: heir.user_id };
    });
    if (!outcome) return;
    // The group as it is now (its new owner speaks the lines the leaver no longer can).
    const group = (await this.groups.byId(groupId)) ?? outcome.group;
    if (outcome.kind === 'disbanded') return this.disbanded(group, actor, outcome.members);
    if (outcome.kind === 'handedOver') {
      const heir = await this.users.byId(outcome.heir);
      if (heir) await this.ownerChanged(group, actor, heir);
    }
    await this.left(group, actor);
  }

  /** Told the files a cleared history's messages carried, to free those nothing else uses. */
  onHistoryCleared(listener: (fileIds: number[]) => Promise<void>): void {
    this.cleared.add(listener);
  }

  /** Told when an owner changes a group's retention (消息保存时间), for the sweep to run. */
  onRetentionChanged(listener: () => void): void {
    this.retentionChanged.add(listener);
  }

  /** The owner clears the group's history for everyone; the files its messages carried are freed where nothing else uses them. */
  async clear(session: Session, id: string): Promise<void> {
    const { group } = await this.access.requireRole(session.userId, groupNumber(id), [GroupRoles.Owner]);
    const fileIds = await this.groups.clearHistory(group.id);
    await this.pushMembers(group, { type: 'clearMessage', data: { group_id: gid(group) } });
    for (const listener of this.cleared) await listener(fileIds);
  }

  /** My nickname in a group (群昵称), shown on my messages there; screened as a name when it changes. */
  async updateCard(session: Session, body: RouteInput<'updateCard'>): Promise<void> {
    const { member } = await this.access.requireMember(session.userId, groupNumber(body.group_id));
    const nickname =
      body.nickname === member.nickname ? body.nickname : this.ctx.keywords.name(body.nickname, 'nickname');
    await this.groups.setNickname(member.id, nickname);
  }

  /** An uploaded avatar (owner and admins); it is kept instead of the drawn one. */
  async uploadAvatar(session: Session, req: FastifyRequest): Promise<string> {
    let group: GroupRow | undefined;
    const { url } = await this.uploads.avatarWithFields(req, async (file) => {
      const field = file.fields.group_id;
      const parsed = UploadGroupAvatarFields.safeParse({
        group_id: field && !Array.isArray(field) && 'value' in field ? field.value : undefined,
      });
      if (!parsed.success) throw validationError(parsed.error, localeOf(req), {});
      ({ group } = await this.access.requireRole(session.userId, groupNumber(parsed.data.group_id), [
        GroupRoles.Owner,
        GroupRoles.Admin,
      ]));
    });
    if (!group) throw new AppError('Validation', {}, { fields: ['group_id'] });
    await this.groups.setUploadedAvatar(group.id, url, this.ctx.now());
    await this.groupService.announceAvatar(group.id, url);
    return url;
  }
}
