import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { PushSubscriptionsTable } from '../../db/schema';

export type SubscriptionRow = Selectable<PushSubscriptionsTable>;

/** VAPID keys, subscriptions and preview choices (tables push_*). */
export class PushRepo {
  constructor(private readonly db: Db) {}

  vapid(): Promise<{ public_key: string; private_key: string } | undefined> {
    return this.db
      .selectFrom('push_vapid')
      .select(['public_key', 'private_key'])
      .where('id', '=', 1)
      .executeTakeFirst();
  }

  /** Keeps the first key pair written: a second node starting at once keeps the same one. */
  async saveVapid(publicKey: string, privateKey: string, now: number): Promise<void> {
    await this.db
      .insertInto('push_vapid')
      .values({ id: 1, public_key: publicKey, private_key: privateKey, create_time: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  /**
   * Stores a subscription for `userId`; an endpoint already known (the same browser, maybe signed
   * in as someone else before) moves to them with its new keys. Keeps the newest `max` of theirs.
   */
  async subscribe(
    userId: number,
    sessionId: number,
    sub: { endpoint: string; p256dh: string; auth: string },
    now: number,
    max: number,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('push_subscriptions')
        .values({ user_id: userId, session_id: sessionId, ...sub, create_time: now })
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            user_id: userId,
            session_id: sessionId,
            p256dh: sub.p256dh,
            auth: sub.auth,
            create_time: now,
            failures: 0,
            failing_since: null,
          }),
        )
        .execute();
      const extra = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('create_time', 'desc')
        .orderBy('id', 'desc')
        .offset(max)
        .limit(100)
        .execute();
      if (extra.length > 0)
        await trx
          .deleteFrom('push_subscriptions')
          .where(
            'id',
            'in',
            extra.map((r) => r.id),
          )
          .execute();
    });
  }

  /** Forgets one of `userId`'s subscriptions; someone else's endpoint is left alone. */
  async unsubscribe(userId: number, endpoint: string): Promise<void> {
    await this.db
      .deleteFrom('push_subscriptions')
      .where('user_id', '=', userId)
      .where('endpoint', '=', endpoint)
      .execute();
  }

  /** A subscription the push service says is gone (404/410). */
  async drop(id: number): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
  }

  /** A push the push service took: the subscription's run of failures, if any, is over. */
  async succeeded(id: number): Promise<void> {
    await this.db
      .updateTable('push_subscriptions')
      .set({ failures: 0, failing_since: null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * One more push in a row that failed; once `max` have, over at least `spanMs` since the first,
   * the subscription is deleted. True when it was.
   */
  async failed(id: number, now: number, max: number, spanMs: number): Promise<boolean> {
    await this.db
      .updateTable('push_subscriptions')
      .set((eb) => ({
        failures: eb('failures', '+', 1),
        failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
      }))
      .where('id', '=', id)
      .execute();
    const gone = await this.db
      .deleteFrom('push_subscriptions')
      .where('id', '=', id)
      .where('failures', '>=', max)
      .where('failing_since', '<=', now - spanMs)
      .executeTakeFirst();
    return Number(gone.numDeletedRows) > 0;
  }

  /** Every subscription of these users whose session is still live at `now`. */
  subscriptionsOf(userIds: number[], now: number): Promise<SubscriptionRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('push_subscriptions as p')
      .innerJoin('sessions as s', 's.id', 'p.session_id')
      .selectAll('p')
      .where('p.user_id', 'in', userIds)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .execute();
  }

  subscriptionCount(userId: number): Promise<number> {
    return this.db
      .selectFrom('push_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /** Users among these who chose pushes without a preview. */
  async withoutPreview(userIds: number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('push_settings')
      .select('user_id')
      .where('user_id', 'in', userIds)
      .where('preview', '=', 0)
      .execute();
    return new Set(rows.map((r) => r.user_id));
  }

  async preview(userId: number): Promise<0 | 1> {
    const row = await this.db
      .selectFrom('push_settings')
      .select('preview')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.preview === 0 ? 0 : 1;
  }

  async setPreview(userId: number, preview: 0 | 1): Promise<void> {
    await this.db
      .insertInto('push_settings')
      .values({ user_id: userId, preview })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ preview }))
      .execute();
  }
}
