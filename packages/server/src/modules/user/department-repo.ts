import type { Department } from '@sparrow/protocol';
import type { Db } from '../../db';
import { lockKey } from '../../db/locks';

/** The organisation's departments (docs/product.md §3 `dep_id`) and who is in each. */
export class DepartmentRepo {
  constructor(private readonly db: Db) {}

  /** Every department with how many users are in it, by parent, `sort`, then id. */
  async list(): Promise<Department[]> {
    const rows = await this.db
      .selectFrom('departments as d')
      .select(['d.id', 'd.name', 'd.parent_id', 'd.sort', 'd.create_time'])
      .select((eb) =>
        eb
          .selectFrom('users as u')
          .whereRef('u.dep_id', '=', 'd.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('user_count'),
      )
      .orderBy('d.parent_id')
      .orderBy('d.sort')
      .orderBy('d.id')
      .execute();
    return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }));
  }

  /** Department names by id. */
  async names(): Promise<Map<number, string>> {
    const rows = await this.db.selectFrom('departments').select(['id', 'name']).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  async byId(id: number): Promise<{ id: number; name: string; parent_id: number } | undefined> {
    return this.db
      .selectFrom('departments')
      .select(['id', 'name', 'parent_id'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(row: { name: string; parent_id: number; sort: number; create_time: number }): Promise<number> {
    const { id } = await this.db.insertInto('departments').values(row).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  async rename(id: number, name: string): Promise<boolean> {
    const res = await this.db.updateTable('departments').set({ name }).where('id', '=', id).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Deletes a department unless a user or a department is in it; false when it is not empty. One
   * statement, so a user moved in meanwhile keeps the department.
   */
  async removeIfEmpty(id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('departments as d')
      .where('d.id', '=', id)
      .where((eb) =>
        eb.and([
          eb.not(eb.exists(eb.selectFrom('users as u').select('u.id').whereRef('u.dep_id', '=', 'd.id'))),
          eb.not(eb.exists(eb.selectFrom('departments as c').select('c.id').whereRef('c.parent_id', '=', 'd.id'))),
        ]),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /**
   * The department named `name` (the first by id when several are), made at the top level when
   * none is: under a lock of the name, so that two first sign-ins naming a new department at once
   * make one.
   */
  async named(name: string, now: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await lockKey(trx, `department-name:${name}`);
      const found = await trx
        .selectFrom('departments')
        .select('id')
        .where('name', '=', name)
        .orderBy('id')
        .executeTakeFirst();
      if (found) return found.id;
      const { id } = await trx
        .insertInto('departments')
        .values({ name, parent_id: 0, sort: 0, create_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    });
  }

  /** Puts a user in a department (0: none). */
  async assign(userId: number, depId: number, now: number): Promise<void> {
    await this.db.updateTable('users').set({ dep_id: depId, update_time: now }).where('id', '=', userId).execute();
  }
}
