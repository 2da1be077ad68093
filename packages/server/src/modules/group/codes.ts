import {
  groupNumber,
  type Contact,
  type EventLine,
  type GroupInfo,
  type GroupPreview,
  type RouteInput,
  type ScannedGroup,
  GroupRoles,
  memberRole,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Access } from '../access';
import type { Session } from '../auth';
import type { QrCode, QrService } from '../qr';
import type { ConfigService } from '../system';
import { groupSetting, toGroupContact } from './presenter';
import type { GroupRepo, GroupRow } from './repo';
import type { GroupService } from './service';

const gid = (group: GroupRow) => `group-${group.id}`;

/** What GroupCodeService is built from. */
export interface GroupCodeParts {
  repos: Pick<Repos, 'groups'>;
  access: Access;
  realtime: Realtime;
  config: ConfigService;
  now: () => number;
}

/**
 * A group's QR codes (docs/protocol.md §6): a fresh one, revoking those handed out (resetGroupQr),
 * what one shows (groupInfoqq; a Raingad client's scan, which is kept; groupInfo for someone who
 * scanned), and joining by one. Joining checks and writes under the group's lock, as every change
 * of GroupAdminService does.
 */
export class GroupCodeService {
  private readonly groups: GroupRepo;
  private readonly access: Access;

  constructor(
    private readonly ctx: GroupCodeParts,
    private readonly groupService: GroupService,
    private readonly qr: QrService,
  ) {
    this.groups = ctx.repos.groups;
    this.access = ctx.access;
  }

  /**
   * The group a genuine, unexpired group token names; a disbanded one is gone. A code of an older
   * generation (revoked by a removal or a reset) admits no one new, but still shows a member the
   * group they are in, as a code would that they were shown now.
   */
  private async fromToken(
    token: string,
    userId: number,
  ): Promise<{ group: GroupRow; generation: number; expires: number }> {
    const { id, generation, expires } = this.qr.group(token);
    const group = await this.groups.byId(id);
    if (!group) throw new AppError('GroupNotFound', {}, { fields: ['token'] });
    if (generation !== group.qr_generation && !(await this.groups.member(group.id, userId)))
      throw new AppError('QrExpired', {}, { fields: ['token'] });
    return { group, generation, expires };
  }

  /**
   * The group whose code `userId` scanned on a Raingad client (`/scan/g/…`, GroupRepo.recordScan)
   * while that code would still admit them: unexpired and of the group's current generation; else
   * undefined, as if never scanned.
   */
  private async fromScan(
    userId: number,
    groupId: number,
  ): Promise<{ group: GroupRow; generation: number } | undefined> {
    const group = await this.groups.byId(groupId);
    const scan = group && (await this.groups.scanned(userId, group.id));
    if (!group || !scan || scan.expires_at < this.ctx.now() || scan.generation !== group.qr_generation)
      return undefined;
    return { group, generation: scan.generation };
  }

  /**
   * `/scan/g/<token>`: a Raingad client resolves a group's code it scanned. It is shown what
   * groupInfoqq shows, and the scan is kept: that client goes on by the group's id alone.
   */
  async scan(session: Session, token: string): Promise<ScannedGroup> {
    const { group, generation, expires } = await this.fromToken(token, session.userId);
    await this.groups.recordScan(session.userId, group.id, generation, expires);
    return { ...(await this.previewOf(group, session.userId)), id: gid(group), name: group.name, action: 'groupInfo' };
  }

  /**
   * groupInfo: a member's record of the group; for someone not in it who scanned its code on a
   * Raingad client, what the code shows (name, picture, size, whether it admits by code) and no
   * more. Anyone else is refused as a group that does not exist.
   */
  async info(session: Session, groupId: string, base: string): Promise<GroupInfo> {
    let scanned: { group: GroupRow } | undefined;
    try {
      return await this.groupService.info(session, groupId, base);
    } catch (err) {
      if (!(err instanceof AppError && err.name === 'NotMember')) throw err;
      scanned = await this.fromScan(session.userId, groupNumber(groupId));
      if (!scanned) throw err;
    }
    const { group } = scanned;
    const count = await this.groups.count(group.id);
    return {
      group_id: gid(group),
      id: gid(group),
      displayName: group.name,
      name: group.name,
      avatar: group.avatar,
      owner_id: 0,
      owner: null,
      notice: '',
      setting: groupSetting(group),
      member_count: count,
      isJoin: 0,
      groupUserCount: count,
      ownerName: '',
      nickname: '',
      no_speak_until: 0,
      create_time: 0,
      qrUrl: '',
      qrExpire: 0,
    };
  }

  /** The owner or an administrator revokes every code of the group handed out so far; returns a fresh one. */
  async resetQr(session: Session, groupId: string, base: string): Promise<QrCode> {
    const id = groupNumber(groupId);
    const { group, generation } = await this.groups.locked(id, async (g) => {
      const { group } = await this.access.requireRole(session.userId, id, [GroupRoles.Owner, GroupRoles.Admin], g);
      return { group, generation: await g.raiseQrGeneration(group.id) };
    });
    return this.qr.code('group', group.id, base, generation);
  }

  async preview(session: Session, token: string): Promise<GroupPreview> {
    const { group } = await this.fromToken(token, session.userId);
    return this.previewOf(group, session.userId);
  }

  private async previewOf(group: GroupRow, userId: number): Promise<GroupPreview> {
    const member = await this.groups.member(group.id, userId);
    const role = member?.role;
    return {
      group_id: gid(group),
      displayName: group.name,
      avatar: group.avatar,
      member_count: await this.groups.count(group.id),
      isJoin: role === undefined ? 0 : memberRole(role),
    };
  }

  /**
   * Joins by a scanned QR code: a genuine token (or, from a Raingad client, the scan of one that
   * would still admit), `invite` on, room left.
   */
  async join(session: Session, body: RouteInput<'joinGroup'>): Promise<Contact> {
    const code = body.token
      ? await this.fromToken(body.token, session.userId)
      : await this.fromScan(session.userId, groupNumber(body.group_id));
    // No token and no scan: refused as a forged code is, which says nothing of the group.
    if (!code) throw new AppError('QrInvalid', {}, { fields: ['token'] });
    const { group: scanned, generation } = code;
    if (gid(scanned) !== body.group_id) throw new AppError('QrInvalid', {}, { fields: ['token'] });
    const { group, existing } = await this.groups.locked(scanned.id, async (g) => {
      const group = await g.byId(scanned.id);
      if (!group) throw new AppError('GroupNotFound', {}, { fields: ['token'] });
      if (await g.member(group.id, session.userId)) throw new AppError('AlreadyMember');
      // The token's own generation against the group's now: a code revoked by a removal or a reset that
      // committed before this lock was taken, even after fromToken let a then member through, admits no one.
      if (generation !== group.qr_generation) throw new AppError('QrExpired', {}, { fields: ['token'] });
      if (!groupSetting(group).invite) throw new AppError('QrJoinClosed');
      const existing = await g.memberIds(group.id);
      const max = this.ctx.config.get().chatInfo.groupUserMax;
      if (max > 0 && existing.length + 1 > max) throw new AppError('GroupFull', { max });
      await g.join(group.id, [{ userId: session.userId, role: GroupRoles.Member }], this.ctx.now());
      return { group, existing };
    });
    group.avatar = await this.groupService.refreshAvatar(group.id);
    const contact = toGroupContact(group, GroupRoles.Member, existing.length + 1);
    await this.ctx.realtime.publish([session.userId], { type: 'addGroup', data: contact });
    await this.ctx.realtime.publish(existing, {
      type: 'addGroupUser',
      data: { group_id: gid(group), user_ids: [session.userId], avatar: group.avatar },
    });
    await this.groupService.event(
      group,
      session,
      { event: 'join', user_id: session.userId, name: session.user.realname } satisfies EventLine,
      session.user.realname,
    );
    return contact;
  }
}
