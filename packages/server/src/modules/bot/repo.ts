import type { BotDeliveryError } from '@sparrow/protocol';
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import { lockRow } from '../../db/locks';
import type { AccessTokensTable, BotDeliveriesTable, BotsTable, UsersTable } from '../../db/schema';
import { FriendRepo } from '../friend';

export type BotRow = Selectable<BotsTable>;
export type DeliveryRow = Selectable<BotDeliveriesTable>;

/** A bot with its account's name, account and avatar. */
export type BotView = BotRow & { account: string; name: string; avatar: string };

const VIEW = [
  'b.user_id',
  'b.owner_id',
  'b.webhook_url',
  'b.webhook_secret',
  'b.webhook_state',
  'b.failures',
  'b.create_time',
  'u.account',
  'u.realname as name',
  'u.avatar',
] as const;

/** The only SQL on bots and their deliveries (migration 045). */
export class BotRepo {
  constructor(private readonly db: Db) {}

  /**
   * Makes a bot under its owner's lock unless the owner has `max` bots already: its account, then
   * its row and token (`made` for the new account's id), and its friendship with its owner, in one
   * transaction. The bot's id, or 'full'.
   */
  create(
    ownerId: number,
    account: Omit<Insertable<UsersTable>, 'status' | 'is_bot'>,
    made: (botId: number) => {
      bot: Omit<Insertable<BotsTable>, 'user_id' | 'owner_id'>;
      token: Omit<Insertable<AccessTokensTable>, 'user_id'>;
    },
    max: number,
  ): Promise<number | 'full'> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', ownerId);
      const { n } = await trx
        .selectFrom('bots')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      const { id } = await trx
        .insertInto('users')
        .values({ ...account, status: 1, is_bot: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { bot, token } = made(id);
      await trx
        .insertInto('bots')
        .values({ ...bot, user_id: id, owner_id: ownerId })
        .execute();
      await trx
        .insertInto('access_tokens')
        .values({ ...token, user_id: id })
        .execute();
      await new FriendRepo(trx).befriend(ownerId, id, bot.create_time);
      return id;
    });
  }

  /** An owner's bots, oldest first. */
  listOf(ownerId: number): Promise<BotView[]> {
    return this.db
      .selectFrom('bots as b')
      .innerJoin('users as u', 'u.id', 'b.user_id')
      .select(VIEW)
      .where('b.owner_id', '=', ownerId)
      .where('u.status', '=', 1)
      .orderBy('b.user_id')
      .execute();
  }

  /** The owner's bot of that id; undefined for anyone else's or one that is gone. */
  owned(ownerId: number, botId: number): Promise<BotView | undefined> {
    return this.db
      .selectFrom('bots as b')
      .innerJoin('users as u', 'u.id', 'b.user_id')
      .select(VIEW)
      .where('b.user_id', '=', botId)
      .where('b.owner_id', '=', ownerId)
      .where('u.status', '=', 1)
      .executeTakeFirst();
  }

  /** The bots among `userIds` whose webhook delivers: the bot's account and its owner's in use. */
  delivering(userIds: readonly number[]): Promise<Array<Pick<BotRow, 'user_id'>>> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.live()
      .select('b.user_id')
      .where('b.user_id', 'in', userIds)
      .where('b.webhook_state', '=', 'on')
      .execute();
  }

  /** A bot whose webhook may be tried: its account and its owner's in use; undefined otherwise. */
  active(botId: number): Promise<BotRow | undefined> {
    return this.live().selectAll('b').where('b.user_id', '=', botId).executeTakeFirst();
  }

  /** Bots that act: their account and their owner's both in use (a bot acts for its owner). */
  private live() {
    return this.db
      .selectFrom('bots as b')
      .innerJoin('users as u', 'u.id', 'b.user_id')
      .innerJoin('users as o', 'o.id', 'b.owner_id')
      .where('u.status', '=', 1)
      .where('o.status', '=', 1);
  }

  /** Every bot an owner has, whatever its state (the owner's account is being erased). */
  async idsOf(ownerId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('bots').select('user_id').where('owner_id', '=', ownerId).execute();
    return rows.map((r) => r.user_id);
  }

  /** Renames the bot's account. */
  async rename(botId: number, realname: string, now: number): Promise<void> {
    await this.db.updateTable('users').set({ realname, update_time: now }).where('id', '=', botId).execute();
  }

  /**
   * Sets the webhook: a new URL turns it on (a disabled one too) with no failures counted; '' turns
   * it off. Deliveries still owed to it are given up when it is turned off.
   */
  async setWebhook(botId: number, url: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('bots')
        .set({ webhook_url: url, webhook_state: url ? 'on' : 'off', failures: 0 })
        .where('user_id', '=', botId)
        .execute();
      if (!url) await giveUpPending(trx, botId, 'turnedOff', now);
    });
  }

  /** A new token (every other token of the bot deleted) and a new webhook secret, in one transaction. */
  async rekey(botId: number, token: Omit<Insertable<AccessTokensTable>, 'user_id'>, secret: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', botId);
      await trx.deleteFrom('access_tokens').where('user_id', '=', botId).execute();
      await trx
        .insertInto('access_tokens')
        .values({ ...token, user_id: botId })
        .execute();
      await trx.updateTable('bots').set({ webhook_secret: secret }).where('user_id', '=', botId).execute();
    });
  }

  /** Deletes the bot's row, its tokens and its deliveries; its account is erased by the account module. */
  async remove(botId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('access_tokens').where('user_id', '=', botId).execute();
      await trx.deleteFrom('bot_deliveries').where('bot_id', '=', botId).execute();
      await trx.deleteFrom('bots').where('user_id', '=', botId).execute();
    });
  }

  /** Owes these events to their bots; an event already owed to a bot is owed once. */
  async enqueue(rows: ReadonlyArray<Insertable<BotDeliveriesTable>>): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('bot_deliveries')
      .values([...rows])
      .onConflict((oc) => oc.columns(['bot_id', 'event_id']).doNothing())
      .execute();
  }

  /** Deliveries due at `now` that no node holds, oldest first. */
  due(now: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('bot_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_at', '<=', now)
      .where('claimed_until', '<', now)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a delivery to try until `until`, unless another node took it since it was read: a
   * compare-and-set on its claim and its tries, so that a try recorded meanwhile (which frees the
   * claim again) also makes this one lose.
   */
  async claim(row: DeliveryRow, until: number): Promise<boolean> {
    const res = await this.db
      .updateTable('bot_deliveries')
      .set({ claimed_until: until })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('claimed_until', '=', row.claimed_until)
      .where('attempts', '=', row.attempts)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** A try delivered: the delivery is done (its payload dropped) and the bot's failures in a row start again. */
  async delivered(row: DeliveryRow, httpStatus: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('bot_deliveries')
        .set({
          status: 'delivered',
          attempts: row.attempts + 1,
          last_status: httpStatus,
          last_error: '',
          done_time: now,
          next_at: 0,
          payload: '',
        })
        .where('id', '=', row.id)
        .where('attempts', '=', row.attempts)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) > 0)
        await trx.updateTable('bots').set({ failures: 0 }).where('user_id', '=', row.bot_id).execute();
    });
  }

  /**
   * A try failed: tried again at `nextAt`, or given up when there is none; the bot's failures in a
   * row counted under its lock, and at `maxFailures` its webhook is disabled and what it is owed
   * given up. Answers whether this failure disabled it.
   */
  async failed(
    row: DeliveryRow,
    outcome: { status: number; error: BotDeliveryError; nextAt: number | undefined },
    now: number,
    maxFailures: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockRow(trx, 'users', row.bot_id);
      const recorded = await trx
        .updateTable('bot_deliveries')
        .set({
          attempts: row.attempts + 1,
          last_status: outcome.status,
          last_error: outcome.error,
          ...(outcome.nextAt === undefined
            ? { status: 'failed', done_time: now, next_at: 0, payload: '' }
            : { next_at: outcome.nextAt, claimed_until: 0 }),
        })
        .where('id', '=', row.id)
        .where('attempts', '=', row.attempts)
        .executeTakeFirst();
      if (Number(recorded.numUpdatedRows) === 0) return false;
      const bot = await trx
        .updateTable('bots')
        .set((eb) => ({ failures: eb('failures', '+', 1) }))
        .where('user_id', '=', row.bot_id)
        .where('webhook_state', '=', 'on')
        .returning('failures')
        .executeTakeFirst();
      if (!bot || bot.failures < maxFailures) return false;
      await trx.updateTable('bots').set({ webhook_state: 'disabled' }).where('user_id', '=', row.bot_id).execute();
      await giveUpPending(trx, row.bot_id, 'disabled', now);
      return true;
    });
  }

  /** Gives a delivery up without trying it (its message is gone, its bot or webhook too): no failure of the webhook's. */
  async giveUp(row: DeliveryRow, why: BotDeliveryError, now: number): Promise<void> {
    await this.db
      .updateTable('bot_deliveries')
      .set({ status: 'failed', last_error: why, done_time: now, next_at: 0, payload: '' })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .execute();
  }

  /** Deletes deliveries done before `before`; answers how many. */
  async prune(before: number): Promise<number> {
    const res = await this.db
      .deleteFrom('bot_deliveries')
      .where('status', '!=', 'pending')
      .where('done_time', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** A bot's newest deliveries. */
  deliveries(botId: number, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('bot_deliveries')
      .selectAll()
      .where('bot_id', '=', botId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}

/** Gives up every delivery a bot is still owed. */
async function giveUpPending(trx: Db, botId: number, why: BotDeliveryError, now: number): Promise<void> {
  await trx
    .updateTable('bot_deliveries')
    .set({ status: 'failed', last_error: why, done_time: now, next_at: 0, payload: '' })
    .where('bot_id', '=', botId)
    .where('status', '=', 'pending')
    .execute();
}
