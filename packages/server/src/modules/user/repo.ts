import { randomUUID } from 'node:crypto';
import { PICTURES } from '@sparrow/protocol';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db';
import { Prepared } from '../../db/prepared';
import { unlessDuplicate } from '../../db/unique';
import type { UsersTable } from '../../db/schema';

export type UserRow = Selectable<UsersTable>;

const userById = new Prepared((db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id));

/**
 * The status of a robot's account (群机器人, modules/robot): it posts into its group and nothing
 * else; like any status but 1 it never signs in, is never found, listed or befriended.
 */
export const ROBOT_STATUS = 3;

/**
 * The row of an account no person signs in to (a group's robot, a bot): a random account name
 * after `prefix`, a password no password hashes to, the robot picture, nothing else of a person's.
 */
export function machineAccount(
  prefix: 'robot' | 'bot',
  name: string,
  now: number,
): Omit<Insertable<UsersTable>, 'status'> {
  return {
    account: `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    password_hash: '!',
    realname: name,
    avatar: PICTURES.robot,
    email: '',
    phone: '',
    motto: '',
    sex: 2,
    is_auth: 0,
    role: 0,
    language: '',
    create_time: now,
    update_time: now,
  };
}

/** Ids bound in one `IN (…)`: well under SQLite's and PostgreSQL's limits on bound values. */
const IDS_PER_QUERY = 1000;

/** The only SQL on users. */
export class UserRepo {
  constructor(private readonly db: Db) {}

  byId(id: number): Promise<UserRow | undefined> {
    return userById.first(this.db, id);
  }

  /** A user by account, email or phone, exactly (accounts are stored lower-case). */
  byLogin(identifier: string): Promise<UserRow | undefined> {
    const id = identifier.trim();
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) =>
        eb.or([eb('account', '=', id.toLowerCase()), eb('email', '=', id.toLowerCase()), eb('phone', '=', id)]),
      )
      .orderBy('id')
      .executeTakeFirst();
  }

  /** True when any user already uses this identifier as account, email or phone. */
  async taken(identifier: string, exceptUserId = 0): Promise<boolean> {
    const found = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '!=', exceptUserId)
      .where((eb) =>
        eb.or([
          eb('account', '=', identifier.toLowerCase()),
          eb('email', '=', identifier.toLowerCase()),
          eb('phone', '=', identifier),
        ]),
      )
      .executeTakeFirst();
    return found !== undefined;
  }

  /**
   * Adds a user; undefined when the account is taken, though `taken` read it free just before (the
   * same account registered at the same moment).
   */
  insert(values: Omit<Insertable<UsersTable>, 'id'>): Promise<UserRow | undefined> {
    return unlessDuplicate(() => this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow());
  }

  async update(id: number, values: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
  }

  /**
   * Writes a user's status in one statement, raising its version (`status_at`) past both `now` and
   * the one before: the row as written, or undefined for no such user.
   */
  setStatus(
    id: number,
    values: Pick<Updateable<UsersTable>, 'status_text' | 'status_emoji' | 'status_until'>,
    now: number,
  ): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({
        ...values,
        update_time: now,
        status_at: sql<number>`case when status_at >= ${now} then status_at + 1 else ${now} end`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Replaces a user's saved settings only if they are still `from`; false when another save came first. */
  async replaceSetting(id: number, from: string, to: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ setting: to, update_time: now })
      .where('id', '=', id)
      .where('setting', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Every active user but `userId` (the organisation, runMode 1). */
  activeExcept(userId: number): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('status', '=', 1).where('id', '!=', userId).execute();
  }

  /** Users by id, whatever their status, in one query per thousand ids. */
  async byIds(ids: Iterable<number>): Promise<Map<number, UserRow>> {
    const unique = [...new Set(ids)];
    const found = new Map<number, UserRow>();
    for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
      const rows = await this.db
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', unique.slice(i, i + IDS_PER_QUERY))
        .execute();
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  }

  /** The active users among `ids` (not empty). */
  activeAmong(ids: number[]): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).where('status', '=', 1).execute();
  }

  /** Users whose account, email or phone equals `keywords` exactly. */
  searchExact(keywords: string): Promise<UserRow[]> {
    const k = keywords.trim();
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('status', '=', 1)
      .where((eb) =>
        eb.or([eb('account', '=', k.toLowerCase()), eb('email', '=', k.toLowerCase()), eb('phone', '=', k)]),
      )
      .limit(10)
      .execute();
  }
}
