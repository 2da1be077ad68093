import { GroupRoles } from '@sparrow/protocol';
import type { Repos } from '../../repos';
import type { ConfigService } from '../system';
import { groupSetting } from './presenter';
import { type GroupRow } from './repo';

/**
 * Whether a group's `profile` setting hides `otherId`'s profile from `viewerId` (docs/protocol.md §2 Group
 * setting: members may view each other's profiles and add each other). It does when every group
 * the two share has the setting off and the viewer is an ordinary member there, and they are
 * not friends. Friends, the owner and admins of a shared group, the organisation of runMode 1
 * (where everyone is a contact) and people sharing no group are not concerned.
 */
export async function profileHidden(
  ctx: { config: ConfigService; repos: Pick<Repos, 'groups' | 'friends'> },
  viewerId: number,
  otherId: number,
): Promise<boolean> {
  if (viewerId === otherId || ctx.config.get().sysInfo.runMode === 1) return false;
  const shared = await ctx.repos.groups.shared(viewerId, otherId);
  if (shared.length === 0) return false;
  const open = shared.some(
    (g) => g.role === GroupRoles.Owner || g.role === GroupRoles.Admin || groupSetting(g).profile !== 0,
  );
  if (open) return false;
  return !(await ctx.repos.friends.row(viewerId, otherId));
}

/** Whether a group's members see only each other's names and faces (its `profile` setting off). */
export function membersHidden(group: GroupRow, viewerRole: number): boolean {
  return viewerRole !== GroupRoles.Owner && viewerRole !== GroupRoles.Admin && groupSetting(group).profile === 0;
}
