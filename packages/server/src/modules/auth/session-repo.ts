import type { Insertable } from 'kysely';
import type { Db } from '../../db';
import { Prepared } from '../../db/prepared';
import type { SessionsTable } from '../../db/schema';

/** Every signed-in call asks for its session. */
const sessionByHash = new Prepared((db, tokenHash: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.is_mobile', 's.last_seen', 's.expires_at', 's.revoked_at'])
    .where('s.token_hash', '=', tokenHash),
);

/** The only SQL on sessions. */
export class SessionRepo {
  constructor(private readonly db: Db) {}

  /** The session stored under this token hash, joined to its user's row (prepared: the hot path). */
  withUserByTokenHash(tokenHash: string) {
    return sessionByHash.first(this.db, tokenHash);
  }

  /**
   * Whether some sessions are revoked or expired, and their users' status, by session id. The list
   * is padded to a power of two with its last id, so that a few statement texts serve every length.
   */
  async states(sessionIds: readonly number[]) {
    const ids = [...sessionIds];
    if (ids.length === 0) return new Map();
    while (ids.length & (ids.length - 1)) ids.push(ids[ids.length - 1]!);
    const rows = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.revoked_at', 's.expires_at', 'u.status'])
      .where('s.id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Records that a session was used at `now` and keeps it alive until `expiresAt`. */
  async touch(sessionId: number, now: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen: now, expires_at: expiresAt })
      .where('id', '=', sessionId)
      .execute();
  }

  /** Stores a new session; returns its id. */
  async insert(values: Insertable<SessionsTable>): Promise<number> {
    const row = await this.db.insertInto('sessions').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** Revokes one session unless it already is. */
  async revoke(sessionId: number, at: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * The ids of a user's sessions that are neither revoked nor expired at `now`, but `exceptId`;
   * only those of one device class when `isMobile` is given.
   */
  async liveIdsOf(userId: number, exceptId: number, now: number, isMobile?: boolean): Promise<number[]> {
    let q = this.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '!=', exceptId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
    if (isMobile !== undefined) q = q.where('is_mobile', '=', isMobile ? 1 : 0);
    return (await q.execute()).map((r) => r.id);
  }

  /** Revokes these sessions. */
  async revokeMany(ids: number[], at: number): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: at }).where('id', 'in', ids).execute();
  }

  /** Revokes every session of a user not revoked yet, expired ones too. */
  async revokeAllOf(userId: number, at: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
