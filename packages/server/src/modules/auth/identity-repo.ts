import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import type { UserIdentitiesTable, UsersTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique';

export type IdentityRow = Selectable<UserIdentitiesTable>;

/**
 * The only SQL on `user_identities` (migration 039): which user an identity a provider or the
 * directory vouches for is, and a first sign-in's account made together with its link.
 */
export class IdentityRepo {
  constructor(private readonly db: Db) {}

  /** The link of `subject` at `provider`, if any user holds it. */
  find(provider: string, subject: string): Promise<IdentityRow | undefined> {
    return this.db
      .selectFrom('user_identities')
      .selectAll()
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  /** Whether the user holds any identity of `provider`. */
  async userHas(userId: number, provider: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('user_identities')
      .select('id')
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records a sign-in through the link, with the address the provider gave this time. */
  async used(id: number, email: string, now: number): Promise<void> {
    await this.db.updateTable('user_identities').set({ last_used: now, email }).where('id', '=', id).execute();
  }

  /**
   * Links an identity to an existing user (single sign-on's link by verified e-mail); false when
   * the identity was linked first, perhaps by a sign-in at the same moment on another node.
   */
  async link(identity: { provider: string; subject: string; email: string }, userId: number, now: number) {
    try {
      await this.db
        .insertInto('user_identities')
        .values({ ...identity, user_id: userId, create_time: now, last_used: now })
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /**
   * Makes a user and links the identity to it in one transaction: the new user's row, or undefined
   * when a unique constraint refused either (the identity linked meanwhile by a sign-in of the same
   * person at the same moment, or the account name taken), nothing of it kept.
   */
  async createLinked(
    user: Omit<Insertable<UsersTable>, 'id'>,
    identity: { provider: string; subject: string; email: string },
    now: number,
  ): Promise<Selectable<UsersTable> | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
        await trx
          .insertInto('user_identities')
          .values({ ...identity, user_id: row.id, create_time: now, last_used: now })
          .execute();
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return undefined;
      throw err;
    }
  }
}
