import { groupNumber, memberRole, type ManagedGroup, type ManagedMember, type RouteInput } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import type { Session } from '../auth';
import type { GroupRepo } from '../group';
import { type Actor, type AuditLog, paging } from './audit';
import { requireLive, type LiveParts } from './live';
import type { AdminRepo } from './repo';
import type { AdminUsers } from './users';

/** Groups as an admin sees them: the list, a group's members, disbanding and a new owner, done as the owner would. */
export class AdminGroups {
  private readonly groups: GroupRepo;
  private readonly repo: AdminRepo;

  constructor(
    repos: Pick<Repos, 'groups' | 'admin'>,
    private readonly users: AdminUsers,
    private readonly audit: AuditLog,
    private readonly live?: LiveParts,
  ) {
    this.groups = repos.groups;
    this.repo = repos.admin;
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
    const owner = await this.users.byId(ownerId);
    return { id: 0, userId: owner.id, isMobile: false, user: owner };
  }

  /** Disbands a group as its owner would: it disappears for every member (`removeGroup`). */
  async disbandGroup(groupId: string, actor: Actor): Promise<void> {
    const live = requireLive(this.live);
    const group = await this.group(groupId);
    await live.groups.disband(await this.ownerSession(group.owner_id), groupId);
    await this.audit.append(actor, 'groupDisband', groupId, { name: group.name });
  }

  /** Hands a group to one of its members, as its owner would. */
  async changeGroupOwner(groupId: string, userId: number, actor: Actor): Promise<void> {
    const live = requireLive(this.live);
    const group = await this.group(groupId);
    if (group.owner_id !== userId)
      await live.groups.changeOwner(await this.ownerSession(group.owner_id), { id: groupId, user_id: userId });
    await this.audit.append(actor, 'groupOwner', groupId, { from: group.owner_id, to: userId });
  }
}
