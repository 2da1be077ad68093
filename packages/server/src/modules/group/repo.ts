import { PICTURES, GroupRoles } from '@sparrow/protocol';
import type { Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction, lockRow } from '../../db/locks';
import { Prepared } from '../../db/prepared';
import type { GroupMembersTable, GroupsTable } from '../../db/schema';

export type GroupRow = Selectable<GroupsTable>;
export type MemberRow = Selectable<GroupMembersTable>;

/**
 * The membership of a sender with no row in the group (one who has left it, a group's robot): no
 * role shown, as for any message of a former member in the history; `role` is what the rules of
 * drafting read (a robot mentions everyone, as an administrator may).
 */
export function memberless(groupId: number, role: number = GroupRoles.Member): MemberRow {
  return { id: 0, group_id: groupId, user_id: 0, role, nickname: '', no_speak_until: 0, join_time: 0, join_msg_id: 0 };
}

/** `g:<id>`: the chat key of a group's messages and its members' conversation rows. */
export const groupKey = (groupId: number) => `g:${groupId}`;

/** What every message to a group reads: the group, the sender's membership, who to tell. */
const activeGroup = new Prepared((db, id: number) =>
  db.selectFrom('groups').selectAll().where('id', '=', id).where('status', '=', 1),
);
const memberOf = new Prepared((db, groupId: number, userId: number) =>
  db.selectFrom('group_members').selectAll().where('group_id', '=', groupId).where('user_id', '=', userId),
);
const memberIdsOf = new Prepared((db, groupId: number) =>
  db.selectFrom('group_members').select('user_id').where('group_id', '=', groupId),
);
const memberVersionOf = new Prepared((db, groupId: number) =>
  db.selectFrom('groups').select('member_version').where('id', '=', groupId),
);
const memberListOf = new Prepared((db, groupId: number) =>
  db
    .selectFrom('group_members as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .select(['m.user_id', 'g.member_version'])
    .where('m.group_id', '=', groupId),
);

/** The only SQL on groups and their members. */
export class GroupRepo {
  constructor(private readonly db: Db | Transaction<Database>) {}

  /**
   * Runs `work` in one transaction holding the group's lock, with this repository bound to it: a
   * change of a group's roles, members or settings reads what it depends on through `g` and
   * writes, while no other change of the same group can come between (db/locks.ts).
   */
  locked<T>(groupId: number, work: (g: GroupRepo) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (trx) => {
      await lockRow(trx, 'groups', groupId);
      return work(new GroupRepo(trx));
    });
  }

  byId(id: number): Promise<GroupRow | undefined> {
    return activeGroup.first(this.db, id);
  }

  member(groupId: number, userId: number): Promise<MemberRow | undefined> {
    return memberOf.first(this.db, groupId, userId);
  }

  /** Members, owner first, then admins, then by join time. */
  members(groupId: number, limit = 100_000, offset = 0): Promise<MemberRow[]> {
    return this.db
      .selectFrom('group_members')
      .selectAll()
      .where('group_id', '=', groupId)
      .orderBy('role')
      .orderBy('join_time')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async memberIds(groupId: number): Promise<number[]> {
    const rows = await memberIdsOf.all(this.db, groupId);
    return rows.map((r) => r.user_id);
  }

  /** The members who joined before a message: those who see it when the group hides earlier history. */
  async memberIdsJoinedBefore(groupId: number, msgId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('join_msg_id', '<', msgId)
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** Everyone who shares an active group with a user, the user included, each once. */
  async coMemberIds(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('group_members as m')
      .innerJoin('group_members as mine', 'mine.group_id', 'm.group_id')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .select('m.user_id')
      .distinct()
      .where('mine.user_id', '=', userId)
      .where('g.status', '=', 1)
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** The version of a group's member list (raised by every join and leave). */
  async memberVersion(groupId: number): Promise<number> {
    return (await memberVersionOf.first(this.db, groupId))?.member_version ?? -1;
  }

  /** A group's member ids with the member-list version they are of, read together. */
  async memberList(groupId: number): Promise<{ version: number; ids: number[] }> {
    const rows = await memberListOf.all(this.db, groupId);
    return { version: rows[0]?.member_version ?? -1, ids: rows.map((r) => r.user_id) };
  }

  /** Member counts of several groups in one query. */
  async counts(groupIds: number[]): Promise<Map<number, number>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('group_members')
      .select(['group_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('group_id', 'in', groupIds)
      .groupBy('group_id')
      .execute();
    return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
  }

  async count(groupId: number): Promise<number> {
    const row = await this.db
      .selectFrom('group_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** My memberships with their groups, optionally of one role. */
  mine(userId: number, role?: number) {
    let q = this.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .selectAll('g')
      .select(['m.role', 'm.nickname as my_nickname', 'm.no_speak_until', 'm.join_time', 'm.join_msg_id'])
      .where('m.user_id', '=', userId)
      .where('g.status', '=', 1);
    if (role !== undefined) q = q.where('m.role', '=', role);
    return q.orderBy('g.id').execute();
  }

  async create(
    trx: Transaction<Database>,
    name: string,
    ownerId: number,
    setting: string,
    now: number,
  ): Promise<GroupRow> {
    return trx
      .insertInto('groups')
      .values({
        name,
        avatar: PICTURES.group,
        owner_id: ownerId,
        notice: '',
        setting,
        status: 1,
        create_time: now,
        update_time: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Adds members with their conversation rows; a member joining now sees messages after
   * `joinMsgId` only when the group hides history.
   */
  async addMembers(
    trx: Transaction<Database>,
    groupId: number,
    members: Array<{ userId: number; role: number }>,
    now: number,
    joinMsgId: number,
  ): Promise<void> {
    if (members.length === 0) return;
    await trx
      .insertInto('group_members')
      .values(
        members.map((m) => ({
          group_id: groupId,
          user_id: m.userId,
          role: m.role,
          nickname: '',
          no_speak_until: 0,
          join_time: now,
          join_msg_id: joinMsgId,
        })),
      )
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .execute();
    await this.membersChanged(trx, groupId);
    await trx
      .insertInto('conversations')
      .values(
        members.map((m) => ({
          user_id: m.userId,
          chat_key: groupKey(groupId),
          last_msg_id: 0,
          last_time: now,
          read_msg_id: joinMsgId,
          clear_msg_id: 0,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'chat_key']).doUpdateSet({ hidden: 0, last_time: now, read_msg_id: joinMsgId }),
      )
      .execute();
  }

  /** Creates a group with its first members (who see its whole history), in one transaction. */
  createWithMembers(
    name: string,
    ownerId: number,
    setting: string,
    now: number,
    members: Array<{ userId: number; role: number }>,
  ): Promise<GroupRow> {
    return inTransaction(this.db, async (trx) => {
      const group = await this.create(trx, name, ownerId, setting, now);
      await this.addMembers(trx, group.id, members, now, 0);
      return group;
    });
  }

  /**
   * Adds members to an existing group in one transaction, each joining after the group's newest
   * message (what they see before it depends on the group's `history` setting).
   */
  join(groupId: number, members: Array<{ userId: number; role: number }>, now: number): Promise<void> {
    return inTransaction(this.db, async (trx) => {
      await this.addMembers(trx, groupId, members, now, await this.lastMsgId(trx, groupId));
    });
  }

  /** Takes a member out of a group, with their conversation row, in one transaction. */
  removeMember(groupId: number, userId: number): Promise<void> {
    return inTransaction(this.db, async (trx) => {
      await trx.deleteFrom('group_members').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
      await trx
        .deleteFrom('conversations')
        .where('user_id', '=', userId)
        .where('chat_key', '=', groupKey(groupId))
        .execute();
      await this.membersChanged(trx, groupId);
    });
  }

  /** Revokes every QR code of the group made so far (`groups.qr_generation`); returns the new generation. */
  async raiseQrGeneration(groupId: number): Promise<number> {
    const row = await this.db
      .updateTable('groups')
      .set((eb) => ({ qr_generation: eb('qr_generation', '+', 1) }))
      .where('id', '=', groupId)
      .returning('qr_generation')
      .executeTakeFirstOrThrow();
    return row.qr_generation;
  }

  /** Keeps that a Raingad client of `userId` scanned a genuine code of the group (migration 021), the last scan winning. */
  async recordScan(userId: number, groupId: number, generation: number, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('group_scans')
      .values({ user_id: userId, group_id: groupId, generation, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['user_id', 'group_id']).doUpdateSet({ generation, expires_at: expiresAt }))
      .execute();
  }

  /** The code of the group `userId` last scanned, if any: its generation and expiry. */
  scanned(userId: number, groupId: number): Promise<{ generation: number; expires_at: number } | undefined> {
    return this.db
      .selectFrom('group_scans')
      .select(['generation', 'expires_at'])
      .where('user_id', '=', userId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
  }

  /** Sets a member's role (`memberId`: the member row's id). */
  async setRole(memberId: number, role: number): Promise<void> {
    await this.db.updateTable('group_members').set({ role }).where('id', '=', memberId).execute();
  }

  /** Mutes a member until `until` (ms), or lifts it with 0 (`memberId`: the member row's id). */
  async setNoSpeak(memberId: number, until: number): Promise<void> {
    await this.db.updateTable('group_members').set({ no_speak_until: until }).where('id', '=', memberId).execute();
  }

  /** A member's nickname in the group (`memberId`: the member row's id). */
  async setNickname(memberId: number, nickname: string): Promise<void> {
    await this.db.updateTable('group_members').set({ nickname }).where('id', '=', memberId).execute();
  }

  /**
   * Hands a group over, in one transaction: the new owner (unmuted) and the old one, now an
   * administrator, by their member rows' ids.
   */
  setOwner(
    groupId: number,
    from: { memberId: number },
    to: { memberId: number; userId: number },
    now: number,
  ): Promise<void> {
    return inTransaction(this.db, async (trx) => {
      await trx
        .updateTable('group_members')
        .set({ role: GroupRoles.Owner, no_speak_until: 0 })
        .where('id', '=', to.memberId)
        .execute();
      await trx.updateTable('group_members').set({ role: GroupRoles.Admin }).where('id', '=', from.memberId).execute();
      await trx
        .updateTable('groups')
        .set({ owner_id: to.userId, update_time: now })
        .where('id', '=', groupId)
        .execute();
    });
  }

  /** Stores a group's settings (JSON). */
  async setSetting(groupId: number, setting: string, now: number): Promise<void> {
    await this.db.updateTable('groups').set({ setting, update_time: now }).where('id', '=', groupId).execute();
  }

  async rename(groupId: number, name: string, now: number): Promise<void> {
    await this.db.updateTable('groups').set({ name, update_time: now }).where('id', '=', groupId).execute();
  }

  /** Stores a group's announcement (sanitized HTML). */
  async setNotice(groupId: number, notice: string, now: number): Promise<void> {
    await this.db.updateTable('groups').set({ notice, update_time: now }).where('id', '=', groupId).execute();
  }

  /** A drawn avatar; an uploaded one stays (see setUploadedAvatar). */
  async setAvatar(groupId: number, url: string): Promise<void> {
    await this.db.updateTable('groups').set({ avatar: url }).where('id', '=', groupId).execute();
  }

  /** An uploaded avatar, kept from then on instead of a drawn one. */
  async setUploadedAvatar(groupId: number, url: string, now: number): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ avatar: url, avatar_custom: 1, update_time: now })
      .where('id', '=', groupId)
      .execute();
  }

  /** Disbands a group: its members keep its chat, read-only, until each deletes it. */
  async disband(groupId: number, now: number): Promise<void> {
    await this.db.updateTable('groups').set({ status: 0, update_time: now }).where('id', '=', groupId).execute();
  }

  /** A disbanded group, whose chat its members may still read. */
  disbanded(id: number): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', id).where('status', '=', 0).executeTakeFirst();
  }

  /** The disbanded groups I was in when they were disbanded, as `mine` reads the active ones. */
  mineDisbanded(userId: number) {
    return this.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .selectAll('g')
      .select(['m.role', 'm.nickname as my_nickname', 'm.no_speak_until', 'm.join_time', 'm.join_msg_id'])
      .where('m.user_id', '=', userId)
      .where('g.status', '=', 0)
      .orderBy('g.id')
      .execute();
  }

  /** Deletes a group's history for everyone and clears its mentions; answers the files its messages carried. */
  async clearHistory(groupId: number): Promise<number[]> {
    const carried = await this.db
      .selectFrom('messages')
      .select('file_id')
      .distinct()
      .where('chat_key', '=', groupKey(groupId))
      .where('file_id', '<>', 0)
      .where('is_deleted', '=', 0)
      .execute();
    await this.db.updateTable('messages').set({ is_deleted: 1 }).where('chat_key', '=', groupKey(groupId)).execute();
    await this.db.updateTable('conversations').set({ is_at: 0 }).where('chat_key', '=', groupKey(groupId)).execute();
    return carried.map((r) => Number(r.file_id));
  }

  /** The groups two users are both in, with `viewer`'s role in each and the group's settings. */
  shared(viewerId: number, otherId: number): Promise<Array<{ role: number; setting: string }>> {
    return this.db
      .selectFrom('group_members as mine')
      .innerJoin('group_members as theirs', 'theirs.group_id', 'mine.group_id')
      .innerJoin('groups as g', 'g.id', 'mine.group_id')
      .select(['mine.role', 'g.setting'])
      .where('mine.user_id', '=', viewerId)
      .where('theirs.user_id', '=', otherId)
      .where('g.status', '=', 1)
      .execute();
  }

  /** Some members' roles and nicknames in a group, by user. */
  async rolesOf(groupId: number, userIds: number[]): Promise<Map<number, { role: number; nickname: string }>> {
    const rows = await this.db
      .selectFrom('group_members')
      .select(['user_id', 'role', 'nickname'])
      .where('group_id', '=', groupId)
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((m) => [m.user_id, { role: m.role, nickname: m.nickname }]));
  }

  /** As rolesOf, for several groups at once: group → user → role and nickname. */
  async rolesIn(
    groupIds: number[],
    userIds: number[],
  ): Promise<Map<number, Map<number, { role: number; nickname: string }>>> {
    const byGroup = new Map<number, Map<number, { role: number; nickname: string }>>(
      groupIds.map((id) => [id, new Map()]),
    );
    if (groupIds.length === 0 || userIds.length === 0) return byGroup;
    const rows = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'user_id', 'role', 'nickname'])
      .where('group_id', 'in', groupIds)
      .where('user_id', 'in', userIds)
      .execute();
    for (const m of rows) byGroup.get(m.group_id)?.set(m.user_id, { role: m.role, nickname: m.nickname });
    return byGroup;
  }

  private async membersChanged(trx: Transaction<Database>, groupId: number): Promise<void> {
    await trx
      .updateTable('groups')
      .set((eb) => ({ member_version: eb('member_version', '+', 1) }))
      .where('id', '=', groupId)
      .execute();
  }

  /** The newest msg_id of a group, or 0. */
  private async lastMsgId(trx: Transaction<Database>, groupId: number): Promise<number> {
    const row = await trx
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('m'))
      .where('chat_key', '=', groupKey(groupId))
      .executeTakeFirst();
    return Number(row?.m ?? 0);
  }
}
