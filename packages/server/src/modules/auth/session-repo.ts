import DataLoader from 'dataloader';
import type { Insertable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import type { Dialect } from '../../db/dialect';
import { Prepared } from '../../db/prepared';
import type { SessionsTable } from '../../db/schema';

// The session's `last_seen` (when it was last used) as `session_seen`: users.last_seen is the person's 最近在线.
const withUser = (db: Db) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select([
      's.id as session_id',
      's.is_mobile',
      's.last_seen as session_seen',
      's.expires_at',
      's.revoked_at',
      's.token_hash',
      's.via',
    ]);

/** Every signed-in call asks for its session. */
const sessionByHash = new Prepared((db, tokenHash: string) => withUser(db).where('s.token_hash', '=', tokenHash));

type SessionWithUser = NonNullable<Awaited<ReturnType<typeof sessionByHash.first>>>;

/** The most sessions one statement looks up. */
const MAX_LOOKUPS = 256;

/** Pads a list to a power of two with its last item, so that a few statement texts serve every length. */
function padded<T>(items: readonly T[]): T[] {
  const out = [...items];
  while (out.length & (out.length - 1)) out.push(out[out.length - 1]!);
  return out;
}

/** The only SQL on sessions. */
export class SessionRepo {
  /**
   * On PostgreSQL, the calls and binds that arrive in one turn of the event loop share the
   * statement that looks their sessions up: after a restart, thousands of clients reconnect and
   * sync at once, and a round trip each would make the database the queue. SQLite answers in
   * process, where a statement costs less than the wait for the turn to end.
   */
  private readonly byHash: DataLoader<string, SessionWithUser | undefined> | undefined;

  constructor(
    private readonly db: Db,
    dialect: Dialect = 'sqlite',
  ) {
    if (dialect !== 'postgres') return;
    this.byHash = new DataLoader(
      async (hashes) => {
        if (hashes.length === 1) return [await sessionByHash.first(this.db, hashes[0]!)];
        const rows = await withUser(this.db).where('s.token_hash', 'in', padded(hashes)).execute();
        const found = new Map(rows.map((r) => [r.token_hash, r]));
        return hashes.map((h) => found.get(h));
      },
      { cache: false, maxBatchSize: MAX_LOOKUPS, batchScheduleFn: (run) => setImmediate(run) },
    );
  }

  /** The session stored under this token hash, joined to its user's row (prepared: the hot path). */
  withUserByTokenHash(tokenHash: string): Promise<SessionWithUser | undefined> {
    return this.byHash ? this.byHash.load(tokenHash) : sessionByHash.first(this.db, tokenHash);
  }

  /** Whether some sessions are revoked or expired, and their users' status, by session id. */
  async states(sessionIds: readonly number[]) {
    if (sessionIds.length === 0) return new Map();
    const ids = padded(sessionIds);
    const rows = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.revoked_at', 's.expires_at', 'u.status', 'u.role', 'u.two_step', 'u.must_change_password'])
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

  /** Stores a new session, in the caller's transaction when given one; returns its id. */
  async insert(values: Insertable<SessionsTable>, db: Db | Transaction<Database> = this.db): Promise<number> {
    const row = await db.insertInto('sessions').values(values).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** A user's live sessions (only those made `via` one way when given), newest first. */
  liveOf(userId: number, now: number, via?: string) {
    let q = this.db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'ip', 'via', 'create_time', 'last_seen'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
    if (via !== undefined) q = q.where('via', '=', via);
    return q.orderBy('id', 'desc').execute();
  }

  /**
   * Revokes a live session of this user (only one made `via` that way when given); false when they
   * have none by that id: another user's is not touched, and answers the same.
   */
  async revokeOwn(userId: number, sessionId: number, now: number, via?: string): Promise<boolean> {
    let q = this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
    if (via !== undefined) q = q.where('via', '=', via);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
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
