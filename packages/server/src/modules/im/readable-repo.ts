import { sql } from 'kysely';
import type { Dialect } from '../../db/dialect';
import type { Db } from '../../db';
import { ChatType } from './repo';

// What a reader may see of the messages, in SQL the history, conversation and search repositories share.

/** The message `m` is not hidden by this user: an id, or the `c.user_id` of a conversation row. */
export const notHiddenBy = (user: number | 'c.user_id') =>
  sql<boolean>`not exists (select 1 from message_hidden as h where h.msg_id = m.id and h.user_id = ${
    user === 'c.user_id' ? sql.ref(user) : user
  })`;

/** The message `m` is in one of this user's groups: named, so each is read by index on its own. */
export const inGroupsOf = (userId: number) =>
  sql<boolean>`m.to_id in (select g.group_id from group_members as g where g.user_id = ${userId})`;

/**
 * The messages `m` a reader may see across all chats: private chats they are in, their own
 * chat, and the groups they are in from the first message each shows them (after their join in
 * the groups of `hidingHistory`, or in all of them), after a history they cleared, neither
 * deleted nor hidden by them. Access.floor is the same rule for one chat.
 */
export function readableBy(db: Db, dialect: Dialect, userId: number, hidingHistory: readonly number[] | 'all') {
  return db
    .selectFrom('messages as m')
    .leftJoin('group_members as gm', (join) => join.on('gm.user_id', '=', userId).onRef('gm.group_id', '=', 'm.to_id'))
    .leftJoin('conversations as c', (join) => join.on('c.user_id', '=', userId).onRef('c.chat_key', '=', 'm.chat_key'))
    .where('m.is_deleted', '=', 0)
    .where((eb) =>
      // Each branch is read by an index of its own: received (chat_type, to_id), sent (from_user), groups.
      eb.or([
        eb.and([eb('m.chat_type', '=', ChatType.Private), eb('m.to_id', '=', userId)]),
        eb.and([eb('m.from_user', '=', userId), eb('m.chat_type', 'in', [ChatType.Private, ChatType.Self])]),
        eb.and([
          eb('m.chat_type', '=', ChatType.Group),
          // On PostgreSQL as an array, which its planner can read by index inside an OR (a subquery it cannot).
          dialect === 'postgres'
            ? sql<boolean>`m.to_id = any(array(select g.group_id from group_members as g where g.user_id = ${userId}))`
            : inGroupsOf(userId),
          hidingHistory === 'all'
            ? eb('m.id', '>', eb.ref('gm.join_msg_id'))
            : hidingHistory.length
              ? eb.or([eb('m.to_id', 'not in', hidingHistory), eb('m.id', '>', eb.ref('gm.join_msg_id'))])
              : sql<boolean>`1 = 1`,
        ]),
      ]),
    )
    .where((eb) => eb.or([eb('c.clear_msg_id', 'is', null), eb('m.id', '>', eb.ref('c.clear_msg_id'))]))
    .where(notHiddenBy(userId));
}
