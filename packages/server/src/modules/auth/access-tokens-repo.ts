import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import { lockRow } from '../../db/locks';
import { Prepared } from '../../db/prepared';
import type { AccessTokensTable } from '../../db/schema';

export type AccessTokenRow = Selectable<AccessTokensTable>;

/** A call with a token asks for it, its user and, for a bot's, its owner's status, in one statement. */
const tokenByHash = new Prepared((db, tokenHash: string) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('bots as b', 'b.user_id', 'u.id')
    .leftJoin('users as o', 'o.id', 'b.owner_id')
    .selectAll('u')
    .select([
      't.id as token_id',
      't.scopes as token_scopes',
      't.expires_at as token_expires',
      't.last_used as token_used',
      'o.status as owner_status',
    ])
    .where('t.token_hash', '=', tokenHash),
);

/** The only SQL on personal access tokens (migration 043). */
export class AccessTokenRepo {
  constructor(private readonly db: Db) {}

  /**
   * Adds a token under its user's lock unless the user holds `max` live ones already (those expired
   * by `values.create_time` are deleted first); the new row's id, or 'full'.
   */
  add(values: Insertable<AccessTokensTable>, max: number): Promise<number | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', values.user_id);
      await trx
        .deleteFrom('access_tokens')
        .where('user_id', '=', values.user_id)
        .where('expires_at', '!=', 0)
        .where('expires_at', '<=', values.create_time)
        .execute();
      const { n } = await trx
        .selectFrom('access_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', values.user_id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      const row = await trx.insertInto('access_tokens').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    });
  }

  /** A user's tokens, newest first. */
  listOf(userId: number): Promise<AccessTokenRow[]> {
    return this.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Deletes one of the user's tokens; false when the user has no token of that id. */
  async remove(userId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('access_tokens')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** The token of a secret's hash with its user, or undefined. */
  withUserByHash(tokenHash: string) {
    return tokenByHash.first(this.db, tokenHash);
  }

  /** Records a token's use at `now`. */
  async touch(id: number, now: number): Promise<void> {
    await this.db.updateTable('access_tokens').set({ last_used: now }).where('id', '=', id).execute();
  }
}
