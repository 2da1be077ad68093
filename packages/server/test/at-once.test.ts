import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedDb } from '../src/db';
import { atOnce, keepPrepared, runAtomically, type Work } from '../src/db/at-once';
import { Prepared } from '../src/db/prepared';
import { describeEachDb, openTestDb, userRow } from './harness';

const insert = new Prepared((db, account: string) =>
  db
    .insertInto('users')
    .values({ ...userRow('x'), account })
    .returning(['id', 'account']),
);

const byAccount = new Prepared((db, account: string) =>
  db.selectFrom('users').select(['id', 'account', 'realname as name']).where('account', '=', account),
);

describeEachDb('statements run at once', (target) => {
  let opened: OpenedDb;
  let dataDir = '';
  let close = async () => {};

  beforeAll(async () => {
    ({ opened, dataDir, close } = await openTestDb(target));
    await opened.db.insertInto('users').values(userRow('ann')).execute();
  });
  afterAll(() => close());

  /** Another caller's transaction: it writes `account`'s row, holds the connection until released, then rolls back. */
  function holdOpen(account: string) {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let wrote = () => {};
    const written = new Promise<void>((r) => (wrote = r));
    const rolledBack = opened.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(userRow(account)).execute();
      wrote();
      await held;
      throw new Error('roll back');
    });
    return { written, release, rolledBack };
  }

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
    const other = holdOpen('ghost');
    await other.written;
    if (target === 'sqlite') expect(atOnce(opened.db)).toBeUndefined();
    const read = byAccount.all(opened.db, 'ghost');
    other.release();
    await expect(other.rolledBack).rejects.toThrow('roll back');
    // A read that had joined the open transaction would have seen its row.
    expect(await read).toEqual([]);
    expect(atOnce(opened.db) !== undefined).toBe(target === 'sqlite');
  });

  it('runs a unit of work as one transaction: all of it, or none when a statement fails', async () => {
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

  it('waits for another caller’s open transaction, then runs a unit of work in a transaction of its own', async () => {
    const other = holdOpen('dot');
    await other.written;
    function* one(): Work<number> {
      return Number((yield insert.bind(opened.db, 'eve')).rows.length);
    }
    const work = runAtomically(opened.db, one);
    other.release();
    await expect(other.rolledBack).rejects.toThrow('roll back');
    expect(await work).toBe(1);
    // The work committed on its own: the other transaction's rollback took only its own row.
    expect(await byAccount.all(opened.db, 'dot')).toEqual([]);
    expect((await byAccount.all(opened.db, 'eve')).length).toBe(1);
  });

  it('throws a failing statement’s error where the work yielded it, so the work may go on', async () => {
    function* fallBack(): Work<string> {
      try {
        yield insert.bind(opened.db, 'ann');
        return 'inserted';
      } catch {
        return String((yield byAccount.bind(opened.db, 'ann')).rows.length);
      }
    }
    // PostgreSQL aborts a transaction at its first error, so there the work cannot go on.
    if (target === 'sqlite') expect(await runAtomically(opened.db, fallBack)).toBe('1');
    else await expect(runAtomically(opened.db, fallBack)).rejects.toThrow(/aborted/);
  });

  it('answers a write as Kysely does: rows changed, and no rows', async () => {
    const rename = new Prepared((db, realname: string) =>
      db.updateTable('users').set({ realname }).where('account', 'in', ['ann', 'nobody']),
    );
    const result = await rename.run(opened.db, 'ANN');
    expect(result.numAffectedRows).toBe(1n);
    expect(result.rows).toEqual([]);
  });

  it('names a row’s columns anew after another connection changed the table', async () => {
    if (target !== 'sqlite') return;
    const everything = new Prepared((db, account: string) =>
      db.selectFrom('users').selectAll().where('account', '=', account),
    );
    const before = (await everything.first(opened.db, 'ann'))!;
    const other = new SQLite(path.join(dataDir, 'sparrow.db'));
    other.exec("alter table users add column nickname text not null default 'annie'");
    other.close();
    const after = (await everything.first(opened.db, 'ann')) as Record<string, unknown>;
    expect(after).toEqual({ ...before, nickname: 'annie' });
  });
});

describe('keepPrepared', () => {
  it('keeps the most recently used statements, and prepares again one that cannot serve now', () => {
    const prepared: string[] = [];
    const busy = new Set<string>();
    const statement = keepPrepared(
      2,
      (sql) => {
        prepared.push(sql);
        return { sql, n: prepared.length };
      },
      (kept) => !busy.has(kept.sql),
    );
    const a = statement('a');
    statement('b');
    expect(statement('a')).toBe(a);
    statement('c'); // the least recently used, b, goes
    statement('a');
    statement('b');
    expect(prepared).toEqual(['a', 'b', 'c', 'b']);
    busy.add('b');
    expect(statement('b')).not.toBe(statement('a'));
    expect(prepared).toEqual(['a', 'b', 'c', 'b', 'b']);
  });
});
