import type { Insertable } from 'kysely';
import type { Db } from '../../db';
import type { InviteCodesTable } from '../../db/schema';

/** The only SQL on the `config` table: one JSON value per key. */
export class ConfigRepo {
  constructor(private readonly db: Db) {}

  /** Every stored key and its value. */
  all(): Promise<{ key: string; value: string }[]> {
    return this.db.selectFrom('config').select(['key', 'value']).execute();
  }

  /** The value stored under `key`, if any. */
  async value(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('config').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /**
   * Stores `value` under `key` unless a value is there already (another process may have stored
   * one first); returns the value stored.
   */
  async keepFirst(key: string, value: string): Promise<string> {
    await this.db
      .insertInto('config')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await this.db.selectFrom('config').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }

  /** Stores these values, replacing what their keys held, all or none. */
  async putAll(entries: readonly (readonly [key: string, value: string])[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of entries) {
        await trx
          .insertInto('config')
          .values({ key, value })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
          .execute();
      }
    });
  }
}

/** The only SQL on invite codes. */
export class InviteRepo {
  constructor(private readonly db: Db) {}

  async insert(values: Insertable<InviteCodesTable>): Promise<void> {
    await this.db.insertInto('invite_codes').values(values).execute();
  }

  /** Codes newest first, a page of them, and how many there are. */
  async page(offset: number, limit: number) {
    const rows = await this.db
      .selectFrom('invite_codes')
      .selectAll()
      .orderBy('create_time', 'desc')
      .orderBy('code')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await this.db
      .selectFrom('invite_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** Removes a code so that it admits nobody; false when there was none. */
  async revoke(code: string): Promise<boolean> {
    const res = await this.db.deleteFrom('invite_codes').where('code', '=', code).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Takes one use of `code` if it is unexpired at `now` and has uses left; false when not. */
  async spendOne(code: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('invite_codes')
      .set((eb) => ({ uses_left: eb('uses_left', '-', 1) }))
      .where('code', '=', code)
      .where('uses_left', '>', 0)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
