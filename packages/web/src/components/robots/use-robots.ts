import type { GroupRobot } from '@sparrow/protocol';
import { useCallback } from 'react';
import { api } from '../../api';
import { useLoaded } from '../../lib/use-loaded';

/**
 * A group's robots (群机器人) as its pages read them once they open: the list, with the webhooks
 * when I own or administer the group; `setData` shows my own changes at once.
 */
export function useGroupRobots(groupId: string) {
  const fetch = useCallback(
    (): Promise<GroupRobot[]> => api.groupRobotList({ group_id: groupId }, { silent: true }),
    [groupId],
  );
  return useLoaded(fetch);
}

/** The list with one robot as the server now answers it. */
export function withRobot(list: GroupRobot[] | null, robot: GroupRobot): GroupRobot[] {
  const now = list ?? [];
  return now.some((r) => r.id === robot.id) ? now.map((r) => (r.id === robot.id ? robot : r)) : [...now, robot];
}
