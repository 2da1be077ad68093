import type { Insertable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction } from '../../db/locks';
import type { QrLoginsTable } from '../../db/schema';

/** The states of a QR login code, as `qr_logins.state` stores them. */
export const QrLoginStep = { Waiting: 0, Scanned: 1, Confirmed: 2, Cancelled: 3 } as const;

/** How long a row is kept past its expiry, ms: a page still asking learns it expired. */
const KEEP_EXPIRED_MS = 10 * 60_000;

/** The only SQL on `qr_logins` (migration 033). Every step is a compare-and-set that answers whether it moved. */
export class QrLoginRepo {
  constructor(private readonly db: Db) {}

  /** Stores a new code, after deleting the rows long expired. */
  async insert(values: Insertable<QrLoginsTable>): Promise<void> {
    await this.db
      .deleteFrom('qr_logins')
      .where('expires_at', '<', values.create_time - KEEP_EXPIRED_MS)
      .execute();
    await this.db.insertInto('qr_logins').values(values).execute();
  }

  /** A code's row with the name and avatar of whoever scanned it. */
  byCode(code: string) {
    return this.db
      .selectFrom('qr_logins as q')
      .leftJoin('users as u', 'u.id', 'q.user_id')
      .select([
        'q.id',
        'q.secret_hash',
        'q.state',
        'q.user_id',
        'q.session_id',
        'q.expires_at',
        'u.realname',
        'u.avatar',
      ])
      .where('q.code', '=', code)
      .executeTakeFirst();
  }

  /**
   * Marks an unexpired code scanned by `userId` (again, when it was they who scanned it) and gives
   * them until `expiresAt` to confirm; answers the page's user agent and address, or undefined when
   * it did not move.
   */
  scan(code: string, userId: number, now: number, expiresAt: number) {
    return this.db
      .updateTable('qr_logins')
      .set({ state: QrLoginStep.Scanned, user_id: userId, expires_at: expiresAt })
      .where('code', '=', code)
      .where('expires_at', '>', now)
      .where((w) =>
        w.or([
          w('state', '=', QrLoginStep.Waiting),
          w.and([w('state', '=', QrLoginStep.Scanned), w('user_id', '=', userId)]),
        ]),
      )
      .returning(['user_agent', 'ip', 'expires_at'])
      .executeTakeFirst();
  }

  /**
   * Confirms a code `userId` scanned, once: the compare-and-set and the session `makeSession`
   * stores commit together, so that of confirms made at once (on any node) one makes a session
   * and the others change nothing. Answers the session's id and the page's user agent, or null
   * when the code did not move.
   */
  confirm(
    code: string,
    userId: number,
    now: number,
    makeSession: (
      trx: Transaction<Database>,
      row: { secret_hash: string; user_agent: string; ip: string; cid: string },
    ) => Promise<number>,
  ): Promise<{ sessionId: number; userAgent: string; ip: string; cid: string } | null> {
    return inTransaction(this.db, async (trx) => {
      const row = await trx
        .updateTable('qr_logins')
        .set({ state: QrLoginStep.Confirmed })
        .where('code', '=', code)
        .where('state', '=', QrLoginStep.Scanned)
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .returning(['id', 'secret_hash', 'user_agent', 'ip', 'cid'])
        .executeTakeFirst();
      if (!row) return null;
      const sessionId = await makeSession(trx, row);
      await trx.updateTable('qr_logins').set({ session_id: sessionId }).where('id', '=', row.id).execute();
      return { sessionId, userAgent: row.user_agent, ip: row.ip, cid: row.cid };
    });
  }

  /** Cancels a code `userId` scanned and has not confirmed; false when it did not move. */
  async cancel(code: string, userId: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('qr_logins')
      .set({ state: QrLoginStep.Cancelled })
      .where('code', '=', code)
      .where('state', '=', QrLoginStep.Scanned)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
