import * as z from 'zod';
import { ANNOUNCEMENT_MAX, GROUP_NAME_MAX, GROUP_RETENTION_DAYS, ID_MAX, REALNAME_MAX } from '../limits';
import { paging } from './friend';
import { flag, personText, qrToken, readId, userId } from './fields';

/** A group id on the wire: `group-<n>`; an `n` past ID_MAX names no group (`groupNumber`). */
export const groupId = z
  .string()
  .trim()
  .regex(/^group-[1-9][0-9]*$/);

/** The number inside `group-<n>`; past ID_MAX, ID_MAX, which no group has (see `readId`). */
export function groupNumber(id: string): number {
  return readId(id.slice('group-'.length)) ?? ID_MAX;
}

/** Members invited at once by addGroupUser. */
export const ADD_GROUP_USER_MAX = 20;

/** `/enterprise/group/add`: create a group with at least two others. */
export const GroupAddBody = z.object({
  user_ids: z.array(userId).min(2).max(499),
  name: personText(GROUP_NAME_MAX).optional(),
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

/** `/enterprise/group/removeUser`: remove a member, or leave (my own id). */
export const RemoveUserBody = z.object({ id: groupId, user_id: userId });

/** `/enterprise/group/setManager`: role 2 makes an administrator, 3 unmakes one. */
export const SetManagerBody = z.object({ id: groupId, user_id: userId, role: z.coerce.number().int().min(2).max(3) });

/** `/enterprise/group/changeOwner`: hand the group over; the old owner becomes an administrator. */
export const ChangeOwnerBody = z.object({ id: groupId, user_id: userId });

/** Mute options (docs/product.md §9): 1 ten minutes, 2 one hour, 3 three hours, 4 one day, 0 lift. */
export const SetNoSpeakBody = z
  .object({
    id: groupId,
    user_id: userId,
    /** 1: 10 min, 2: 1 h, 3: 3 h, 4: 1 day, 0: lift. */
    noSpeakTimer: z.coerce.number().int().min(0).max(4).optional(),
    /**
     * Raingad's mobile client gives the length in days instead: 1 is a day (noSpeakTimer 4), 0 lifts.
     * Sparrow's longest mute is a day.
     */
    noSpeakDay: z.coerce.number().int().min(0).max(1).optional(),
  })
  .refine((b) => b.noSpeakTimer !== undefined || b.noSpeakDay !== undefined, {
    message: 'required',
    path: ['noSpeakTimer'],
  });

/** `/enterprise/group/groupSetting`: only the keys given change. */
export const GroupSettingBody = z.object({
  id: groupId,
  /** Switches as 0/1 (or, from Raingad's settings dialog, true/false). */
  setting: z.object({
    invite: flag.optional(),
    history: flag.optional(),
    profile: flag.optional(),
    nospeak: z.coerce.number().int().min(0).max(2).optional(),
    manage: flag.optional(),
    /** Every member may pin messages; only the owner changes it. */
    pin: flag.optional(),
    /** Members may react to messages. */
    reaction: flag.optional(),
    /** Members' read receipts count and show (群消息已读回执). */
    receipt: flag.optional(),
    /** Days messages are kept (消息保存时间): one of GROUP_RETENTION_DAYS, 0 as long as the server keeps them; only the owner changes it. */
    retention: z.coerce
      .number()
      .int()
      .refine((d) => (GROUP_RETENTION_DAYS as readonly number[]).includes(d))
      .optional(),
  }),
});

/** `/enterprise/group/editGroupName`. */
export const EditGroupNameBody = z.object({ id: groupId, displayName: personText(GROUP_NAME_MAX, 1) });

/** `/enterprise/group/setNotice`: the announcement, rich text from the editor (sanitized by the server). */
export const SetNoticeBody = z.object({ id: groupId, notice: z.string().max(ANNOUNCEMENT_MAX * 4) });

/** `/enterprise/group/removeGroup` (disband) and `/enterprise/group/clearMessage`. */
export const GroupIdBody = z.object({ id: groupId });

/** `/enterprise/im/updateCard`: my nickname in a group ('' clears it). */
export const UpdateCardBody = z.object({ group_id: groupId, nickname: personText(REALNAME_MAX) });

/** `/enterprise/group/groupInfoqq`: preview a group from a scanned QR token. */
export const GroupQrBody = z.object({ token: qrToken });

/** `/enterprise/group/joinGroup`: join by a QR token. */
export const JoinGroupBody = z.object({
  group_id: groupId,
  /**
   * The scanned code's token. A Raingad client sends none: its scan of the code (`/scan/g/…`) stands
   * for it, as long as that code would still admit.
   */
  token: qrToken.optional(),
});

/** `/common/upload/uploadGroupAvatar` fields besides the file. */
export const UploadGroupAvatarFields = z.object({ group_id: groupId });
