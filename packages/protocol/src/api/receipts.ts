import * as z from 'zod';
import { READ_COUNTS_IDS_MAX } from '../limits';
import { rowId } from './fields';
import { groupId } from './group';
import { messageRef } from './im';

/**
 * `/enterprise/im/groupReadCounts`: how many have read each of my messages in a group (群消息已读回执).
 * Messages not mine, not in this group, or not to be seen are left out of the answer alike.
 */
export const GroupReadCountsBody = z.object({
  /** The group, `group-<n>`. */
  toContactId: groupId,
  /** My messages' msg_ids, at most READ_COUNTS_IDS_MAX. */
  ids: z.array(rowId).min(1).max(READ_COUNTS_IDS_MAX),
});

/** `/enterprise/im/groupReadList`: who has read one of my group messages and who has not. */
export const GroupReadListBody = z.object({
  /** The message: its msg_id or its client-made id. */
  id: messageRef,
});

/**
 * One of my group messages as its receipt counts it: the members it reached (in the group before it
 * was sent, not me), and how many of them read it. A member who turned receipts off counts as unread
 * (unless the organisation makes receipts mandatory).
 */
export interface ReadCount {
  msg_id: number;
  /** Members who have read it (their read position or cleared history is at or past it). */
  read: number;
  /** Members who have not. */
  unread: number;
}

/** A member as `groupReadList` lists them. */
export interface ReadListMember {
  user_id: number;
  /** Their name as the reader sees them: the reader's remark, their group nickname, or their own name. */
  name: string;
  avatar: string;
}

/** `groupReadList`'s answer: the counts, and the people of each (at most READ_LISTED_MAX named). */
export interface ReadList extends ReadCount {
  /** 已读, in the order they joined the group. */
  readers: ReadListMember[];
  /** 未读, in the order they joined the group. */
  unreaders: ReadListMember[];
}
