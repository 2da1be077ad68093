import {
  DEFAULT_GROUP_SETTING,
  DEFAULT_LOCALE,
  newContact,
  translate,
  type Contact,
  type GroupSetting,
  memberRole,
} from '@sparrow/protocol';
import { indexLetter } from '../../lib/letter';
import { parseJson } from '../../lib/text';
import type { Session } from '../auth';
import type { UserRow } from '../user';
import type { GroupRow } from './repo';

/**
 * The first line of the message that posts a group announcement, stored in the source language
 * (as the original server wrote it); each reader is shown it in their own.
 */
export const NOTICE_HEAD = translate(DEFAULT_LOCALE, 'notice.title');

export function groupSetting(row: Pick<GroupRow, 'setting'>): GroupSetting {
  return { ...DEFAULT_GROUP_SETTING, ...(parseJson(row.setting) as Partial<GroupSetting>) };
}

/** A group as a row of my contact list. */
export function toGroupContact(group: GroupRow, role: number, memberCount: number): Contact {
  return newContact({
    id: `group-${group.id}`,
    group_id: `group-${group.id}`,
    displayName: group.name,
    avatar: group.avatar,
    owner_id: group.owner_id,
    role: memberRole(role),
    member_count: memberCount,
    lastSendTime: group.create_time,
    is_group: 1,
    index: indexLetter(group.name),
    notice: group.notice,
    setting: { ...groupSetting(group) },
    ...(group.status !== 1 && { disbanded: 1 as const }),
  });
}

/**
 * Who did what to whom, as the event lines of a group action record it (EventLine: invite,
 * remove, setManager, unsetManager, changeOwner, mute, unmute).
 */
export function eventFacts(actor: Session, others: UserRow[]) {
  return {
    user_id: actor.userId,
    name: actor.user.realname,
    user_ids: others.map((u) => u.id),
    names: others.map((u) => u.realname),
  };
}
