import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import { lockRow } from '../../db/locks';
import { Prepared } from '../../db/prepared';
import type { GroupRobotsTable, UsersTable } from '../../db/schema';
import { ROBOT_STATUS } from '../user';

export type RobotRow = Selectable<GroupRobotsTable>;

/** A robot with its account's name and avatar. */
export type RobotView = RobotRow & { name: string; avatar: string };

/** A post finds its robot by its key's hash (its group is read with it: SendPipeline needs the row). */
const robotByKey = new Prepared((db, keyHash: string) =>
  db.selectFrom('group_robots').select(['id', 'group_id', 'user_id', 'last_used']).where('key_hash', '=', keyHash),
);

const VIEW = [
  'r.id',
  'r.group_id',
  'r.user_id',
  'r.key_hash',
  'r.key_sealed',
  'r.create_user',
  'r.create_time',
  'r.last_used',
  'u.realname as name',
  'u.avatar',
] as const;

/** The only SQL on group robots (migration 044) and their accounts. */
export class RobotRepo {
  constructor(private readonly db: Db) {}

  /**
   * Adds a robot and its account under the group's lock unless the group holds `max` robots
   * already; the new robot's id, or 'full'.
   */
  add(
    account: Omit<Insertable<UsersTable>, 'status'>,
    robot: Omit<Insertable<GroupRobotsTable>, 'user_id'>,
    max: number,
  ): Promise<number | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'groups', robot.group_id);
      const { n } = await trx
        .selectFrom('group_robots')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('group_id', '=', robot.group_id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      const user = await trx
        .insertInto('users')
        .values({ ...account, status: ROBOT_STATUS })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await trx
        .insertInto('group_robots')
        .values({ ...robot, user_id: user.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
  }

  /** A group's robots, oldest first. */
  listOf(groupId: number): Promise<RobotView[]> {
    return this.db
      .selectFrom('group_robots as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(VIEW)
      .where('r.group_id', '=', groupId)
      .orderBy('r.id')
      .execute();
  }

  byId(id: number): Promise<RobotView | undefined> {
    return this.db
      .selectFrom('group_robots as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(VIEW)
      .where('r.id', '=', id)
      .executeTakeFirst();
  }

  /** The robot a webhook key names; undefined for none. */
  byKeyHash(keyHash: string) {
    return robotByKey.first(this.db, keyHash);
  }

  /** Gives the robot a new key (the old one dies with it); false when the robot is gone. */
  async rekey(id: number, keyHash: string, keySealed: string): Promise<boolean> {
    const res = await this.db
      .updateTable('group_robots')
      .set({ key_hash: keyHash, key_sealed: keySealed })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Renames the robot's account, or gives it a new avatar. */
  async setProfile(userId: number, values: { realname?: string; avatar?: string }, now: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...values, update_time: now })
      .where('id', '=', userId)
      .where('status', '=', ROBOT_STATUS)
      .execute();
  }

  /** Deletes the robot (its key dies); false when it was gone already. Its account stays for its messages. */
  async remove(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('group_robots').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Records the robot's last post at `now`. */
  async touch(id: number, now: number): Promise<void> {
    await this.db.updateTable('group_robots').set({ last_used: now }).where('id', '=', id).execute();
  }
}
