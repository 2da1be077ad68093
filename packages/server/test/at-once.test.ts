import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openDb, type OpenedDb } from '../src/db';
import { atOnce, runAtomically, type Work } from '../src/db/at-once';
import { Prepared } from '../src/db/prepared';
import { createPgDatabase, describeEachDb } from './harness';

const user = (account: string) => ({
  account,
  password_hash: '',
  realname: account.toUpperCase(),
  email: '',
  phone: '',
  avatar: '',
  sex: 0,
  motto: '',
  is_auth: 0,
  role: 0,
  status: 1,
  language: '',
  create_time: 1,
  update_time: 1,
});

const byAccount = new Prepared((db, account: string) =>
  db.selectFrom('users').select(['id', 'account', 'realname as name']).where('account', '=', account),
);

describeEachDb('statements run at once', (target) => {
  let opened: OpenedDb;
  let drop = async () => {};

  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sparrow-at-once-'));
    const pgDb = target === 'postgres' ? await createPgDatabase() : undefined;
    if (pgDb) drop = pgDb.drop;
    opened = openDb({ dataDir, databaseUrl: pgDb?.url });
    await migrate(opened);
    await opened.db.insertInto('users').values(user('ann')).execute();
  });
  afterAll(async () => {
    await opened.close();
    await drop();
  });

  it('answers rows as objects named like Kysely’s, on SQLite at once and on PostgreSQL through Kysely', async () => {
    expect(atOnce(opened.db) !== undefined).toBe(target === 'sqlite');
    const viaKysely = await opened.db
      .selectFrom('users')
      .select(['id', 'account', 'realname as name'])
      .where('account', '=', 'ann')
      .execute();
    expect(await byAccount.all(opened.db, 'ann')).toEqual(viaKysely);
    expect(viaKysely).toEqual([{ id: expect.any(Number), account: 'ann', name: 'ANN' }]);
    expect(await byAccount.all(opened.db, 'nobody')).toEqual([]);
  });

  it('never runs a statement inside another caller’s open transaction', async () => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let wrote = () => {};
    const written = new Promise<void>((r) => (wrote = r));
    const rolledBack = opened.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user('ghost')).execute();
      wrote();
      await held;
      throw new Error('roll back');
    });
    await written;
    if (target === 'sqlite') expect(atOnce(opened.db)).toBeUndefined();
    const read = byAccount.all(opened.db, 'ghost');
    release();
    await expect(rolledBack).rejects.toThrow('roll back');
    // A read that had joined the open transaction would have seen its row.
    expect(await read).toEqual([]);
    expect(atOnce(opened.db) !== undefined).toBe(target === 'sqlite');
  });

  it('runs a unit of work as one transaction: all of it, or none when a statement fails', async () => {
    const insert = new Prepared((db, account: string) =>
      db
        .insertInto('users')
        .values({ ...user('x'), account })
        .returning(['id', 'account']),
    );
    function* twoUsers(second: string): Work<string[]> {
      const a = (yield insert.bind(opened.db, 'bea')).rows as Array<{ account: string }>;
      const b = (yield insert.bind(opened.db, second)).rows as Array<{ account: string }>;
      return [...a, ...b].map((r) => r.account);
    }
    // `ann` exists: the unique account makes the second insert fail, and `bea` goes with it.
    await expect(runAtomically(opened.db, () => twoUsers('ann'))).rejects.toThrow(/unique|duplicate/i);
    expect(await byAccount.all(opened.db, 'bea')).toEqual([]);
    expect(await runAtomically(opened.db, () => twoUsers('cy'))).toEqual(['bea', 'cy']);
    expect((await byAccount.all(opened.db, 'cy')).length).toBe(1);
    expect(atOnce(opened.db) !== undefined).toBe(target === 'sqlite');
  });
});
