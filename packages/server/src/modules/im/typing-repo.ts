import type { Db } from '../../db';

/** A member of a small group as a typing frame's relay reads them. */
export interface TypingMember {
  user_id: number;
  /** Their role in the group (protocol `GroupRoles`): who may speak under the group's nospeak. */
  role: number;
  /** Until when they are muted in the group, ms; 0 never. */
  no_speak_until: number;
  /** Their users.typing: 1 when they share and see typing. */
  typing: number;
  /** Their account's status (1 in use). */
  status: number;
}

/** What relaying 对方正在输入… reads: nothing is written per frame. */
export class TypingRepo {
  constructor(private readonly db: Db) {}

  /**
   * Up to `limit` members of a group with what the relay asks of each, in one query: asked for one
   * more than a group may have to show typing, so that a larger group is known by the count alone.
   * Unordered, so that the database stops at `limit` rows of the group's index however large it is.
   */
  members(groupId: number, limit: number): Promise<TypingMember[]> {
    return this.db
      .selectFrom('group_members as gm')
      .innerJoin('users as u', 'u.id', 'gm.user_id')
      .select(['gm.user_id', 'gm.role', 'gm.no_speak_until', 'u.typing', 'u.status'])
      .where('gm.group_id', '=', groupId)
      .limit(limit)
      .execute();
  }
}
