import type { Insertable } from 'kysely';
import type { Db } from '../../db';
import type { SsoLoginsTable, SsoProvidersTable } from '../../db/schema';
import { unlessDuplicate } from '../../db/unique';
import type { UserRow } from '../user';

/** The steps of a round trip, as `sso_logins.step` stores them. */
export const SsoStep = { Started: 0, Returned: 1, Exchanged: 2 } as const;

/** How long a row is kept past its expiry, ms. */
const KEEP_EXPIRED_MS = 10 * 60_000;

/** The only SQL on `sso_providers` and `sso_logins` (migration 042), and the users single sign-on looks up and changes. */
export class SsoRepo {
  constructor(private readonly db: Db) {}

  providers() {
    return this.db.selectFrom('sso_providers').selectAll().orderBy('create_time').orderBy('id').execute();
  }

  provider(id: string) {
    return this.db.selectFrom('sso_providers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Adds the provider, or changes the one of that id; answers whether it was new. */
  async saveProvider(row: Insertable<SsoProvidersTable>): Promise<boolean> {
    const { id, create_time: _c, ...change } = row;
    const res = await this.db.updateTable('sso_providers').set(change).where('id', '=', id).executeTakeFirst();
    if (Number(res.numUpdatedRows) > 0) return false;
    const added = await unlessDuplicate(() => this.db.insertInto('sso_providers').values(row).execute());
    // Added by another admin at the same moment: this save is the later one.
    if (!added) await this.db.updateTable('sso_providers').set(change).where('id', '=', id).execute();
    return added !== undefined;
  }

  async removeProvider(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('sso_providers').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Stores a started round trip, after deleting the rows long expired. */
  async start(values: Insertable<SsoLoginsTable>): Promise<void> {
    await this.db
      .deleteFrom('sso_logins')
      .where('expires_at', '<', values.create_time - KEEP_EXPIRED_MS)
      .execute();
    await this.db.insertInto('sso_logins').values(values).execute();
  }

  /**
   * The callback takes its round trip, once: started, unexpired, of this provider. Answers what
   * the exchange with the provider needs, or undefined when it did not move (a replay, a state
   * never issued, another provider's).
   */
  takeReturn(state: string, provider: string, now: number) {
    return this.db
      .updateTable('sso_logins')
      .set({ step: SsoStep.Returned })
      .where('state', '=', state)
      .where('provider', '=', provider)
      .where('step', '=', SsoStep.Started)
      .where('expires_at', '>', now)
      .returning(['id', 'verifier', 'nonce', 'redirect_uri'])
      .executeTakeFirst();
  }

  /** Hands the returned round trip's user a one-time code (its SHA-256), good until `expiresAt`. */
  async issueCode(id: number, userId: number, codeHash: string, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sso_logins')
      .set({ user_id: userId, code_hash: codeHash, expires_at: expiresAt })
      .where('id', '=', id)
      .where('step', '=', SsoStep.Returned)
      .execute();
  }

  /**
   * Spends a one-time code, once, of the round trip whose `state` the exchanging browser's secret
   * hashes to: its user, or undefined when it did not move.
   */
  async spendCode(codeHash: string, state: string, now: number): Promise<number | undefined> {
    const row = await this.db
      .updateTable('sso_logins')
      .set({ step: SsoStep.Exchanged })
      .where('code_hash', '=', codeHash)
      .where('state', '=', state)
      .where('step', '=', SsoStep.Returned)
      .where('user_id', '>', 0)
      .where('expires_at', '>', now)
      .returning(['user_id'])
      .executeTakeFirst();
    return row?.user_id;
  }

  /** The account (not deleted) whose e-mail is this one, when exactly one has it. */
  async userByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where((w) => w(w.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('status', '!=', 2)
      .limit(2)
      .execute();
    return rows.length === 1 ? rows[0] : undefined;
  }
}
