import type { Realtime } from '../../realtime/realtime';
import type { Session } from '../auth';
import type { UserRow } from '../user';

/** A group operation of the group module, made as the group's owner. */
export interface GroupOwnerOps {
  disband(owner: Session, id: string): Promise<void>;
  changeOwner(owner: Session, body: { id: string; user_id: number }): Promise<void>;
}

/**
 * What only a running server has: live sockets, group pushes, its start time. The command line
 * has none of it: there a disabled user's sockets close at their next heartbeat, when the server
 * finds the session revoked.
 */
export interface LiveParts {
  realtime: Pick<Realtime, 'kick' | 'online'>;
  groups: GroupOwnerOps;
  /** Seconds since the process started. */
  uptimeS: () => number;
  /** Sends a user's contact row again to those who list them (`appendContact`), as a profile change does. */
  announceProfile: (user: UserRow) => Promise<void>;
}

/** The live parts, or an error where there are none (the command line). */
export function requireLive(live: LiveParts | undefined): LiveParts {
  if (!live) throw new Error('group operations need a running server');
  return live;
}
