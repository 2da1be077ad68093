import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { lockRow } from '../../db/locks';

/** What second factors a user has, as the console and the user's own security page show them. */
export interface FactorSummary {
  /** An authenticator app is set up and confirmed. */
  totp: boolean;
  /** Recovery codes not used yet. */
  recoveryLeft: number;
  passkeys: number;
}

/**
 * The one rule for `users.two_step`: 1 while the user has an enabled TOTP or a passkey. Every
 * change of a factor (setting one up, removing one, an admin's reset) ends with `refreshTwoStep`
 * in the same transaction, after taking the user's row lock (db/locks.ts `lockRow`) so that two
 * changes at once on PostgreSQL each see the other's rows.
 */
export class FactorRepo {
  constructor(private readonly db: Db) {}

  /** Sets `users.two_step` from the factor rows as they are now, in the caller's transaction when given. */
  async refreshTwoStep(userId: number, db: Db | Transaction<Database> = this.db): Promise<void> {
    await sql`update users set two_step = case
        when exists (select 1 from user_totp where user_id = ${userId} and enabled_at > 0)
          or exists (select 1 from passkeys where user_id = ${userId})
        then 1 else 0 end
      where id = ${userId}`.execute(db);
  }

  async summary(userId: number): Promise<FactorSummary> {
    const [totp, codes, keys] = await Promise.all([
      this.db.selectFrom('user_totp').select('enabled_at').where('user_id', '=', userId).executeTakeFirst(),
      this.db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', '=', 0)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return { totp: (totp?.enabled_at ?? 0) > 0, recoveryLeft: Number(codes.n), passkeys: Number(keys.n) };
  }

  /** Removes every second factor of a user (an admin's reset): TOTP, recovery codes, passkeys. */
  async resetAll(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', userId);
      await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute();
      await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
      await trx.deleteFrom('login_tickets').where('user_id', '=', userId).execute();
      await this.refreshTwoStep(userId, trx);
    });
  }
}
