import { sql, type ExpressionBuilder, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db';
import type { AuditLogTable, Database } from '../../db/schema';
import { ROBOT_STATUS } from '../user';

export type AuditInsert = Omit<Insertable<AuditLogTable>, 'id'>;
export type AuditLogRow = Selectable<AuditLogTable> & { admin_name: string | null };

const DAY_MS = 86_400_000;

/** `%words%` for LIKE, the words' own `%`, `_` and `\` taken literally. */
function containing(words: string): string {
  return `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The only SQL of the administration console: the audit log, lists across everyone, the dashboard's counts. */
export class AdminRepo {
  constructor(private readonly db: Db) {}

  /** The condition "an enabled admin other than `userId` remains", checked in the update itself. */
  private otherEnabledAdmins(userId: number) {
    return (eb: ExpressionBuilder<Database, 'users'>) =>
      eb(
        eb
          .selectFrom('users as o')
          .select((e) => e.fn.countAll().as('n'))
          .where('o.role', '=', 1)
          .where('o.status', '=', 1)
          .where('o.id', '!=', userId),
        '>',
        0,
      );
  }

  /** Appends one audit row; rows are never changed (the database refuses it). */
  async audit(row: AuditInsert): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  /** Audit rows newest first, with the admin's name; of one admin or one action when given. */
  async auditPage(
    filter: { adminId?: number | undefined; action?: string | undefined },
    offset: number,
    limit: number,
  ): Promise<{ rows: AuditLogRow[]; total: number }> {
    let q = this.db.selectFrom('audit_log as a');
    if (filter.adminId !== undefined) q = q.where('a.admin_id', '=', filter.adminId);
    if (filter.action) q = q.where('a.action', '=', filter.action);
    const rows = await q
      .leftJoin('users as u', 'u.id', 'a.admin_id')
      .selectAll('a')
      .select('u.realname as admin_name')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** Users whose account, name, email or phone contains `words` (everyone when empty), oldest first. */
  async userPage(words: string, offset: number, limit: number) {
    // A group's robot is no account an operator manages: its group's owner does.
    let q = this.db.selectFrom('users as u').where('u.status', '!=', ROBOT_STATUS);
    if (words) {
      const like = containing(words);
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(u.account)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(u.realname)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(u.email)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(u.phone)`, 'like', sql`${like} escape '\\'`),
        ]),
      );
    }
    const rows = await q
      .select(['u.id', 'u.account', 'u.realname', 'u.avatar', 'u.role', 'u.status', 'u.create_time', 'u.dep_id'])
      .select((eb) =>
        eb
          .selectFrom('sessions as s')
          .whereRef('s.user_id', '=', 'u.id')
          .select((e) => e.fn.max('s.create_time').as('t'))
          .as('last_login_time'),
      )
      .orderBy('u.id')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /**
   * Takes the admin role from a user unless no other enabled admin would remain; false when it was
   * the last one. One statement, so two admins demoting each other cannot both succeed on SQLite.
   */
  async demoteUnlessLast(userId: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ role: 0, update_time: now })
      .where('id', '=', userId)
      .where(this.otherEnabledAdmins(userId))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Disables a user unless they are the last enabled admin; false when they are. */
  async disableUnlessLastAdmin(userId: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('users')
      .set({ status: 0, update_time: now })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('role', '!=', 1), this.otherEnabledAdmins(userId)(eb)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Live groups whose name contains `words` (all when empty), with owner and member count, oldest first. */
  async groupPage(words: string, offset: number, limit: number) {
    let q = this.db.selectFrom('groups as g').where('g.status', '=', 1);
    if (words) q = q.where(sql`lower(g.name)`, 'like', sql`${containing(words)} escape '\\'`);
    const rows = await q
      .innerJoin('users as u', 'u.id', 'g.owner_id')
      .select(['g.id', 'g.name', 'g.avatar', 'g.owner_id', 'g.create_time', 'u.realname', 'u.account'])
      .select((eb) =>
        eb
          .selectFrom('group_members as m')
          .whereRef('m.group_id', '=', 'g.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('member_count'),
      )
      .orderBy('g.id')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** A live group's members, owner and administrators first. */
  async memberPage(groupId: number, offset: number, limit: number) {
    const q = this.db.selectFrom('group_members as m').where('m.group_id', '=', groupId);
    const rows = await q
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.role', 'u.account', 'u.realname'])
      .orderBy('m.role')
      .orderBy('m.id')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** How many users there are, and how many groups are live. */
  async totals(): Promise<{ users: number; groups: number; storageBytes: number }> {
    const [users, groups, storage] = await Promise.all([
      this.db
        .selectFrom('users')
        .where('status', '!=', ROBOT_STATUS)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('groups')
        .where('status', '=', 1)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('files')
        .select((eb) => eb.fn.sum<number>('size').as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { users: Number(users.n), groups: Number(groups.n), storageBytes: Number(storage.n ?? 0) };
  }

  /** Messages stored per UTC day from `since` (a day's start, ms) on: day number (ms / 86400000) → count. */
  async messagesPerDay(since: number): Promise<Map<number, number>> {
    const day = sql<number>`create_time / ${sql.lit(DAY_MS)}`;
    const rows = await this.db
      .selectFrom('messages')
      .where('create_time', '>=', since)
      .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(day)
      .execute();
    return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  }

  /** The users holding a session that is neither revoked nor expired at `now`. */
  async withLiveSessions(now: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .select('user_id')
      .distinct()
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
    return rows.map((r) => r.user_id);
  }
}
