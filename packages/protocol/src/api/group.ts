import { z } from 'zod';
import { GROUP_NAME_MAX } from '../limits';
import { paging } from './friend';
import { userId } from './fields';

/** A group id on the wire: `group-<n>`. */
export const groupId = z
  .string()
  .trim()
  .regex(/^group-[1-9][0-9]*$/);

/** The number inside `group-<n>`. */
export function groupNumber(id: string): number {
  return Number(id.slice('group-'.length));
}

/** Members invited at once by addGroupUser. */
export const ADD_GROUP_USER_MAX = 20;

/** `/enterprise/group/add`: create a group with at least two others. */
export const GroupAddBody = z.object({
  user_ids: z.array(userId).min(2).max(499),
  name: z.string().trim().max(GROUP_NAME_MAX).optional(),
});

/** `/enterprise/group/groupInfo`. */
export const GroupInfoBody = z.object({ group_id: groupId });

/** `/enterprise/group/groupUserList`. */
export const GroupUserListBody = z.object({
  group_id: groupId,
  page: paging.page,
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

/** `/enterprise/group/getAllUser`: users I may add (to a group, or to a new one). */
export const GetAllUserBody = z.object({
  group_id: groupId.optional(),
  user_ids: z.array(userId).max(500).optional(),
});

/** `/enterprise/group/getallgroup`: my groups; role 1 created, 2 managed, 3 joined. */
export const GetAllGroupBody = z.object({ role: z.coerce.number().int().min(1).max(3).optional() });

/** `/enterprise/group/addGroupUser`. */
export const AddGroupUserBody = z.object({ id: groupId, user_ids: z.array(userId).min(1).max(ADD_GROUP_USER_MAX) });
