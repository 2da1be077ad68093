import { GroupRoles } from './entities';
import { PAT_WITHDRAW_MS } from './limits';

/**
 * Rules of pinned messages and pats that the server enforces and the client follows to offer only
 * what will be allowed.
 */

/**
 * Whether a member of this role may pin in a group: the owner and administrators, and every
 * member when the group's `pin` setting is on.
 */
export const mayPinInGroup = (role: number, membersMayPin: number): boolean =>
  role === GroupRoles.Owner || role === GroupRoles.Admin || membersMayPin === 1;

/** Whether a pat line may still be withdrawn by its patter: within PAT_WITHDRAW_MS of being sent. */
export const patWithdrawable = (sentAt: number, now: number): boolean => now - sentAt <= PAT_WITHDRAW_MS;
