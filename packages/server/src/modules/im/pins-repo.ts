import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import { inTransaction, lockKey } from '../../db/locks';
import type { ChatPinsTable } from '../../db/schema';
import type { MessageRow } from './repo';

export type PinRow = Selectable<ChatPinsTable>;

/** What a pin came to: newly pinned, pinned already, or refused because the chat holds `max`. */
export type PinOutcome = 'pinned' | 'already' | 'full';

/**
 * The only SQL on pinned messages (置顶消息). A pin counts while its message is live: a withdrawn
 * or deleted message drops out of the pins (its row is removed when the message is, and any left
 * behind is neither listed nor counted).
 */
export class PinRepo {
  constructor(private readonly db: Db) {}

  /**
   * Pins a message in its chat unless the chat holds `max` live pins already. Counting and adding
   * hold the chat's lock (db/locks.ts): pins made at once on several servers never exceed `max`.
   */
  pin(chatKey: string, msgId: number, by: number, now: number, max: number): Promise<PinOutcome> {
    return inTransaction(this.db, async (trx) => {
      await lockKey(trx, `pins:${chatKey}`);
      // Pins of messages withdrawn or deleted since go first: they no longer hold a place.
      const dead = await trx
        .selectFrom('chat_pins as p')
        .innerJoin('messages as m', 'm.id', 'p.msg_id')
        .select('p.msg_id')
        .where('p.chat_key', '=', chatKey)
        .where((eb) => eb.or([eb('m.is_deleted', '!=', 0), eb('m.is_undo', '!=', 0)]))
        .execute();
      if (dead.length)
        await trx
          .deleteFrom('chat_pins')
          .where('chat_key', '=', chatKey)
          .where(
            'msg_id',
            'in',
            dead.map((d) => d.msg_id),
          )
          .execute();
      const rows = await trx.selectFrom('chat_pins').select('msg_id').where('chat_key', '=', chatKey).execute();
      if (rows.some((r) => r.msg_id === msgId)) return 'already';
      if (rows.length >= max) return 'full';
      await trx
        .insertInto('chat_pins')
        .values({ chat_key: chatKey, msg_id: msgId, pinned_by: by, create_time: now })
        .execute();
      return 'pinned';
    });
  }

  /** Takes a message's pin off; false when it was not pinned. */
  async unpin(chatKey: string, msgId: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('chat_pins')
      .where('chat_key', '=', chatKey)
      .where('msg_id', '=', msgId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Drops a message's pin, for a message withdrawn or deleted for everyone; true when it was pinned. */
  async drop(msgId: number): Promise<boolean> {
    const res = await this.db.deleteFrom('chat_pins').where('msg_id', '=', msgId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * A chat's live pins as `readerId` may see them, newest pin first, with their messages: after
   * the reader's `floor` (cleared history, joined without history) and not hidden by the reader.
   */
  async list(chatKey: string, readerId: number, floor: number): Promise<Array<{ pin: PinRow; row: MessageRow }>> {
    const rows = await this.db
      .selectFrom('chat_pins as p')
      .innerJoin('messages as m', 'm.id', 'p.msg_id')
      .selectAll('m')
      .select(['p.pinned_by as pin_by', 'p.create_time as pin_time'])
      .where('p.chat_key', '=', chatKey)
      .where('m.chat_key', '=', chatKey)
      .where('m.is_deleted', '=', 0)
      .where('m.is_undo', '=', 0)
      .where('m.id', '>', floor)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('message_hidden as h')
              .select('h.msg_id')
              .whereRef('h.msg_id', '=', 'm.id')
              .where('h.user_id', '=', readerId),
          ),
        ),
      )
      .orderBy('p.create_time', 'desc')
      .orderBy('p.msg_id', 'desc')
      .execute();
    return rows.map(({ pin_by, pin_time, ...row }) => ({
      pin: { chat_key: chatKey, msg_id: row.id, pinned_by: pin_by, create_time: pin_time },
      row: row as MessageRow,
    }));
  }

  /** Whether a message is pinned in its chat. */
  async isPinned(chatKey: string, msgId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('chat_pins')
      .select('msg_id')
      .where('chat_key', '=', chatKey)
      .where('msg_id', '=', msgId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
