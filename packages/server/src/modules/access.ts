import type { AppContext } from '../context';
import { AppError } from '../errors';
import { GroupRepo, type GroupRow, type MemberRow } from './group/repo';

/**
 * The one access module: every service method that takes a group id starts here. Deny by
 * default: a missing or disbanded group and a group I am not in are refused alike, so that an
 * answer never tells an outsider which group ids exist.
 */
export class Access {
  private readonly groups: GroupRepo;

  constructor(ctx: AppContext) {
    this.groups = new GroupRepo(ctx.db);
  }

  /** The group and my membership, or NotMember (also for a group that does not exist). */
  async requireMember(userId: number, groupId: number): Promise<{ group: GroupRow; member: MemberRow }> {
    const group = await this.groups.byId(groupId);
    const member = group && (await this.groups.member(groupId, userId));
    if (!group || !member) throw new AppError('NotMember');
    return { group, member };
  }

  /** As requireMember, and my role is one of `roles` (1 owner, 2 admin, 3 member). */
  async requireRole(userId: number, groupId: number, roles: number[]): Promise<{ group: GroupRow; member: MemberRow }> {
    const found = await this.requireMember(userId, groupId);
    if (!roles.includes(found.member.role)) throw new AppError('Forbidden');
    return found;
  }
}
