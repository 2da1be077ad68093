import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import type { VerifyCodesTable } from '../../db/schema';

export type CodeRow = Selectable<VerifyCodesTable>;

/** The only SQL on verification codes. */
export class CodeRepo {
  constructor(private readonly db: Db) {}

  /** When the newest code for `account` was made, if any was. */
  async lastSentAt(account: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('verify_codes')
      .select('create_time')
      .where('account', '=', account)
      .orderBy('create_time', 'desc')
      .executeTakeFirst();
    return row?.create_time;
  }

  /** Marks the unused codes of `account` for `type` used: a new one replaces them. */
  async retireUnused(account: string, type: number): Promise<void> {
    await this.db
      .updateTable('verify_codes')
      .set({ used: 1 })
      .where('account', '=', account)
      .where('type', '=', type)
      .where('used', '=', 0)
      .execute();
  }

  async insert(values: Insertable<VerifyCodesTable>): Promise<void> {
    await this.db.insertInto('verify_codes').values(values).execute();
  }

  /**
   * The codes for any of `accounts` and `type` still usable at `now` (unused, unexpired, fewer
   * than `maxTries` wrong tries), newest first.
   */
  live(accounts: string[], type: number, now: number, maxTries: number): Promise<CodeRow[]> {
    return this.db
      .selectFrom('verify_codes')
      .selectAll()
      .where('account', 'in', accounts)
      .where('type', '=', type)
      .where('used', '=', 0)
      .where('expires_at', '>', now)
      .where('tries', '<', maxTries)
      .orderBy('create_time', 'desc')
      .execute();
  }

  async setTries(id: number, tries: number): Promise<void> {
    await this.db.updateTable('verify_codes').set({ tries }).where('id', '=', id).execute();
  }

  /** Marks a code used; false when it already was (another request spent it first). */
  async spend(id: number): Promise<boolean> {
    const res = await this.db
      .updateTable('verify_codes')
      .set({ used: 1 })
      .where('id', '=', id)
      .where('used', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
