import type { Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { lockRow } from '../../db/locks';
import type { LoginTicketsTable, UserTotpTable } from '../../db/schema';
import type { FactorRepo } from './factors-repo';

export type TotpRow = Selectable<UserTotpTable>;
export type TicketRow = Selectable<LoginTicketsTable>;

/**
 * The only SQL on authenticator-app seeds, recovery codes and sign-in tickets. Each one-time use
 * (a TOTP step, a recovery code, a ticket) is a compare-and-set that answers whether it won, so
 * that two requests at once, on one node or two, use it once.
 */
export class TwoStepRepo {
  constructor(
    private readonly db: Db,
    private readonly factors: Pick<FactorRepo, 'refreshTwoStep'>,
  ) {}

  totpOf(userId: number): Promise<TotpRow | undefined> {
    return this.db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** Stores a new seed waiting for its first code, replacing one not confirmed; false while one is enabled. */
  async beginTotp(userId: number, sealed: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).where('enabled_at', '=', 0).execute();
      const res = await trx
        .insertInto('user_totp')
        .values({ user_id: userId, secret: sealed, enabled_at: 0, last_step: 0, create_time: now })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    });
  }

  /**
   * Marks the TOTP step `step` used: true only when no code of that step or a later one was
   * accepted before (`enabledOnly`: only for an enabled seed).
   */
  async takeStep(userId: number, step: number, enabledOnly: boolean, trx: Db | Transaction<Database> = this.db) {
    let q = trx
      .updateTable('user_totp')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where('last_step', '<', step);
    if (enabledOnly) q = q.where('enabled_at', '>', 0);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Turns a confirmed setup on (the step its code was of taken, once) with its recovery codes, and
   * `users.two_step` with it, in one transaction; false when the setup was confirmed or replaced
   * meanwhile (`sealed`: the seed the code was checked against, still the one waiting).
   */
  async enableTotp(userId: number, sealed: string, step: number, codeHashes: string[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The user's row first, as every change of a factor takes it: `two_step` follows the last one.
      await lockRow(trx, 'users', userId);
      const res = await trx
        .updateTable('user_totp')
        .set({ enabled_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('secret', '=', sealed)
        .where('enabled_at', '=', 0)
        .where('last_step', '<', step)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await this.replaceCodes(trx, userId, codeHashes, now);
      await this.factors.refreshTwoStep(userId, trx);
      return true;
    });
  }

  /** Replaces a user's recovery codes, the step of the code that asked for it taken in the same transaction. */
  async renewCodes(userId: number, step: number, codeHashes: string[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.takeStep(userId, step, true, trx))) return false;
      await this.replaceCodes(trx, userId, codeHashes, now);
      return true;
    });
  }

  private async replaceCodes(trx: Transaction<Database>, userId: number, codeHashes: string[], now: number) {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: 0, create_time: now })))
      .execute();
  }

  /** Spends an unused recovery code of the user: true for the one request that marked it used. */
  async useRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Removes the user's authenticator app and recovery codes (turning two-step sign-in off), `two_step` refreshed. */
  async disableTotp(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', userId);
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await this.factors.refreshTwoStep(userId, trx);
    });
  }

  async insertTicket(row: Omit<TicketRow, 'id' | 'failures'>): Promise<void> {
    await this.db
      .insertInto('login_tickets')
      .values({ ...row, failures: 0 })
      .execute();
  }

  /** A ticket still good at `now` with fewer than `maxFailures` tries taken. */
  liveTicket(ticketHash: string, now: number, maxFailures: number): Promise<TicketRow | undefined> {
    return this.db
      .selectFrom('login_tickets')
      .selectAll()
      .where('ticket_hash', '=', ticketHash)
      .where('expires_at', '>', now)
      .where('failures', '<', maxFailures)
      .executeTakeFirst();
  }

  /**
   * Takes one of a ticket's tries before its answer is checked: true for a try within
   * `maxTries`, by a compare-and-set, so that answers sent at once cannot all pass a count read
   * before any of them is added. A try stays counted; a right answer then uses the ticket up.
   */
  async takeTicketTry(id: number, now: number, maxTries: number): Promise<boolean> {
    const res = await this.db
      .updateTable('login_tickets')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('id', '=', id)
      .where('expires_at', '>', now)
      .where('failures', '<', maxTries)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Removes a ticket whose tries are all taken (after a wrong answer). */
  async dropSpentTicket(id: number, maxTries: number): Promise<void> {
    await this.db.deleteFrom('login_tickets').where('id', '=', id).where('failures', '>=', maxTries).execute();
  }

  /** Uses a ticket up: true for the one request that removed it. */
  async spendTicket(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('login_tickets').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Removes tickets past their time (each sign-in that makes one clears the old). */
  async dropExpiredTickets(now: number): Promise<void> {
    await this.db.deleteFrom('login_tickets').where('expires_at', '<=', now).execute();
  }
}
