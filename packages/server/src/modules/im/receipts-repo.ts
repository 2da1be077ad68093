import type { Db } from '../../db';

/** A member of a group as its read receipts count them. */
export interface ReceiptPosition {
  user_id: number;
  /** The newest msg_id when they joined: they count for later messages only. */
  join_msg_id: number;
  /** How far they have read the group: their read position or cleared history, whichever is further. */
  read_to: number;
  /** Their 发送已读回执 (users.read_receipt). */
  read_receipt: number;
}

/** A member with what a list of them shows: their own name, their group nickname, their picture. */
export interface NamedPosition extends ReceiptPosition {
  realname: string;
  nickname: string;
  avatar: string;
}

/**
 * What group read receipts (群消息已读回执) are counted from: the read positions each member's
 * conversation row holds, not a row per reader and message, so that a read costs one update
 * however large the group.
 */
export class ReceiptRepo {
  constructor(private readonly db: Db) {}

  /**
   * Every member of a group but `except` (a message's sender), with where they joined and read to,
   * in the order they joined: one row per member, each conversation found by its (user_id,
   * chat_key) key.
   */
  async positions(groupId: number, chatKey: string, except: number): Promise<ReceiptPosition[]> {
    const rows = await this.members(groupId, chatKey, except).execute();
    return rows.map(position);
  }

  /** As `positions`, with the names and pictures a list shows. */
  async namedPositions(groupId: number, chatKey: string, except: number): Promise<NamedPosition[]> {
    const rows = await this.members(groupId, chatKey, except)
      .select(['gm.nickname', 'u.realname', 'u.avatar'])
      .execute();
    return rows.map((r) => ({ ...position(r), realname: r.realname, nickname: r.nickname, avatar: r.avatar }));
  }

  /**
   * The members and how far each has read, their conversation looked up by its (user_id,
   * chat_key) key one member at a time: a plan that does not hang on the statistics of the chat's
   * conversation rows (a group of 2 000 made at once is estimated at a few rows until analysed,
   * and a join of them by chat_key alone became a scan of every row per member).
   */
  private members(groupId: number, chatKey: string, except: number) {
    return this.db
      .selectFrom('group_members as gm')
      .innerJoin('users as u', 'u.id', 'gm.user_id')
      .select(['gm.user_id', 'gm.join_msg_id', 'u.read_receipt'])
      .select((eb) =>
        eb
          .selectFrom('conversations as c')
          .select((e) =>
            e
              .case()
              .when('c.read_msg_id', '>=', e.ref('c.clear_msg_id'))
              .then(e.ref('c.read_msg_id'))
              .else(e.ref('c.clear_msg_id'))
              .end()
              .as('read_to'),
          )
          .whereRef('c.user_id', '=', 'gm.user_id')
          .where('c.chat_key', '=', chatKey)
          .as('read_to'),
      )
      .where('gm.group_id', '=', groupId)
      .where('gm.user_id', '!=', except)
      .orderBy('gm.id');
  }

  /**
   * Which of `ids` are messages `fromUser` sent to a chat that receipts count: not event lines
   * (withdrawn ones are), not deleted.
   */
  async ownMessages(chatKey: string, fromUser: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('messages')
      .select('id')
      .where('chat_key', '=', chatKey)
      .where('id', 'in', [...ids])
      .where('from_user', '=', fromUser)
      .where('is_deleted', '=', 0)
      .where('type', '!=', 'event')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The senders of the messages a reader's read position just passed (after `after`, up to `upTo`;
   * not theirs, not event lines, not deleted), among the newest `scan` of them, at most `limit`,
   * who are members of the group still (one removed is told nothing of it any more); `sharing` keeps
   * only those whose own 发送已读回执 is on.
   */
  async sendersIn(
    groupId: number,
    chatKey: string,
    reader: number,
    span: { after: number; upTo: number },
    bounds: { scan: number; limit: number; sharing: boolean },
  ): Promise<number[]> {
    const covered = this.db
      .selectFrom('messages')
      .select('from_user')
      .where('chat_key', '=', chatKey)
      .where('id', '>', span.after)
      .where('id', '<=', span.upTo)
      .where('from_user', '!=', reader)
      .where('is_deleted', '=', 0)
      .where('type', '!=', 'event')
      .orderBy('id', 'desc')
      .limit(bounds.scan)
      .as('covered');
    // Each sender once before their setting is looked up: a user's row per sender, not per message.
    const senders = this.db.selectFrom(covered).select('covered.from_user').distinct().as('s');
    let q = this.db
      .selectFrom(senders)
      .innerJoin('group_members as gm', (j) =>
        j.onRef('gm.user_id', '=', 's.from_user').on('gm.group_id', '=', groupId),
      )
      .select('s.from_user');
    if (bounds.sharing) q = q.innerJoin('users as u', 'u.id', 's.from_user').where('u.read_receipt', '=', 1);
    const rows = await q.limit(bounds.limit).execute();
    return rows.map((r) => r.from_user);
  }
}

function position(r: {
  user_id: number;
  join_msg_id: number;
  read_to: number | null;
  read_receipt: number;
}): ReceiptPosition {
  return {
    user_id: r.user_id,
    join_msg_id: r.join_msg_id,
    read_to: Number(r.read_to ?? 0),
    read_receipt: r.read_receipt,
  };
}
