import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OpenedDb } from '../src/db';
import { byName, Prepared } from '../src/db/prepared';
import { describeEachDb, openTestDb, userRow } from './harness';

describeEachDb('prepared queries', (target) => {
  let opened: OpenedDb;
  let close = async () => {};

  beforeAll(async () => {
    ({ opened, close } = await openTestDb(target));
    await opened.db
      .insertInto('users')
      .values([userRow('ann'), userRow('bob'), userRow('cat', 0)])
      .execute();
  });
  afterAll(() => close());

  it('runs one compiled query with each call’s values, keeping the query’s own constants', async () => {
    // `status = 1` is the query's constant; the two arguments are used twice and out of order.
    const active = new Prepared((db, a: string, b: string) =>
      db
        .selectFrom('users')
        .select('account')
        .where('status', '=', 1)
        .where((eb) => eb.or([eb('account', '=', b), eb('account', '=', a), eb('realname', '=', a)]))
        .orderBy('account'),
    );
    expect(await active.all(opened.db, 'ann', 'bob')).toEqual([{ account: 'ann' }, { account: 'bob' }]);
    expect(await active.all(opened.db, 'cat', 'nobody')).toEqual([]);
    expect(await active.first(opened.db, 'BOB', 'ann')).toEqual({ account: 'ann' });
  });

  it('runs within a transaction, and rolls back with it', async () => {
    const rename = new Prepared((db, account: string, realname: string) =>
      db.updateTable('users').set({ realname }).where('account', '=', account).returning(['account', 'realname']),
    );
    await expect(
      opened.db.transaction().execute(async (trx) => {
        expect(await rename.all(trx, 'ann', 'Annie')).toEqual([{ account: 'ann', realname: 'Annie' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const row = await opened.db.selectFrom('users').select('realname').where('account', '=', 'ann').executeTakeFirst();
    expect(row?.realname).toBe('ANN');
  });

  it.runIf(target === 'postgres')('is a named statement on PostgreSQL, parsed once per connection', async () => {
    const byAccount = new Prepared((db, account: string) =>
      db.selectFrom('users').select('realname').where('account', '=', account).where('status', '=', 1),
    );
    const other = opened.db.selectFrom('users').select('account').where('account', '=', 'bob');
    await opened.db.connection().execute(async (conn) => {
      expect(await byAccount.all(conn, 'bob')).toEqual([{ realname: 'BOB' }]);
      expect(await byAccount.all(conn, 'cat')).toEqual([]);
      await other.execute();
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn);
      const text = byAccount.bind(conn, 'bob').sql;
      expect(rows.filter((r) => r.statement === text)).toHaveLength(1);
      expect(rows.some((r) => r.statement === other.compile().sql)).toBe(false);
      // SQL written as text, run by name.
      const written = sql<{ n: number }>`select count(*)::int as n from users where status = ${1}`.compile(conn);
      expect((await conn.executeQuery(byName(written))).rows).toEqual([{ n: 2 }]);
      const after = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn);
      expect(after.rows.some((r) => r.statement === written.sql)).toBe(true);
    });
  });

  it('refuses a query that does not use each of its arguments as a value', async () => {
    const unused = new Prepared((db, _account: string) => db.selectFrom('users').select('id'));
    await expect(unused.all(opened.db, 'ann')).rejects.toThrow('uses 0 of its 1 arguments');
  });
});
