import type { Repos } from '../../repos';
import type { ConfigService } from '../system';
import { seesLastSeen } from './presenter';
import type { UserRow } from './repo';

/** What `readersOf` reads: who lists whom, and who blocked whom. */
export interface ReaderParts {
  repos: Pick<Repos, 'users' | 'friends' | 'blocks'>;
  config: ConfigService;
}

/**
 * Who is told of a user's presence (docs/product.md §3). `status`: those who list them (their
 * friends, or everyone in runMode 1). `lastSeen` (their 最近在线, and whether they are online): of
 * those, the ones their `last_seen_to` allows. Never anyone on the other side of a block, either
 * way. 'everyone' (one broadcast) only when everyone is told and no one is blocked.
 */
export async function readersOf(
  parts: ReaderParts,
  row: UserRow,
  what: 'status' | 'lastSeen',
): Promise<number[] | 'everyone'> {
  const open = what === 'status' || seesLastSeen(row, { friend: false, blocked: false });
  if (what === 'lastSeen' && !seesLastSeen(row, { friend: true, blocked: false })) return [];
  const everyone = parts.config.get().sysInfo.runMode === 1 && open;
  const blocked = new Set(await parts.repos.blocks.around(row.id));
  if (everyone && blocked.size === 0) return 'everyone';
  const ids = everyone
    ? (await parts.repos.users.activeExcept(row.id)).map((u) => u.id)
    : await parts.repos.friends.friendIds(row.id);
  return ids.filter((id) => !blocked.has(id));
}
