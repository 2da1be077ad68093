import type { Insertable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { lockRow } from '../../db/locks';
import type { PasskeysTable } from '../../db/schema';

/** What a challenge was handed out for: adding a passkey, or signing in with one. */
export type ChallengePurpose = 'register' | 'login';

/** A change of a user's factors made in the same transaction as a passkey's (`users.two_step`). */
type AlsoInTransaction = (trx: Transaction<Database>) => Promise<void>;

/**
 * The only SQL on `passkeys` and `webauthn_challenges` (migration 040). A passkey is added and
 * removed under its user's row lock, with the caller's refresh of `users.two_step` in the same
 * transaction; a challenge is taken by deleting it, which succeeds once across every node.
 */
export class PasskeyRepo {
  constructor(private readonly db: Db) {}

  /** A user's passkeys, oldest first. */
  listOf(userId: number) {
    return this.db
      .selectFrom('passkeys')
      .select(['id', 'credential_id', 'transports', 'name', 'backed_up', 'create_time', 'last_used'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  /** The passkey of a credential id, whoever's it is. */
  byCredential(credentialId: string) {
    return this.db
      .selectFrom('passkeys')
      .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  /**
   * Adds a passkey under its user's lock unless the user has `max` already; `also` runs in the same
   * transaction. Answers the new row's id, 'full', or 'exists' when the credential is stored
   * already (by a request at the same moment too: the unique credential id decides).
   */
  add(values: Insertable<PasskeysTable>, max: number, also: AlsoInTransaction): Promise<number | 'full' | 'exists'> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', values.user_id);
      const { n } = await trx
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', values.user_id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      const row = await trx
        .insertInto('passkeys')
        .values(values)
        .onConflict((oc) => oc.column('credential_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) return 'exists';
      await also(trx);
      return row.id;
    });
  }

  /** Renames one of the user's passkeys; false when the user has no passkey of that id. */
  async rename(userId: number, id: number, name: string): Promise<boolean> {
    const res = await this.db
      .updateTable('passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Removes one of the user's passkeys, `also` in the same transaction; its name, or undefined when there was none. */
  remove(userId: number, id: number, also: AlsoInTransaction): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', userId);
      const row = await trx
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('name')
        .executeTakeFirst();
      if (!row) return undefined;
      await also(trx);
      return row.name;
    });
  }

  /**
   * Records a sign-in: the new signature counter and the time, if the counter moved forward (or
   * the authenticator counts nothing: 0 stays 0). False when another sign-in with the same or a
   * later counter came first, or the passkey is gone.
   */
  async used(id: number, counter: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('passkeys')
      .set({ counter, last_used: now })
      .where('id', '=', id)
      .where((w) => (counter === 0 ? w('counter', '=', 0) : w('counter', '<', counter)))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Stores a challenge handed out, after deleting those expired. */
  async issue(challenge: string, purpose: ChallengePurpose, userId: number, now: number, expiresAt: number) {
    await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('webauthn_challenges')
      .values({ challenge, purpose, user_id: userId, expires_at: expiresAt })
      .execute();
  }

  /**
   * Takes a challenge handed out for `purpose` and `userId` (0: a sign-in by any passkey) that has
   * not expired: true for the one call that deletes it, false for every other.
   */
  async take(challenge: string, purpose: ChallengePurpose, userId: number, now: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
