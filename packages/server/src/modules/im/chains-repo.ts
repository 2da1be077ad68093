import { chainText, translate, DEFAULT_LOCALE, type ChainFacts } from '@sparrow/protocol';
import type { Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction, lockKey, onPostgres } from '../../db/locks';
import { isUniqueViolation } from '../../db/unique';
import type { ChainsTable } from '../../db/schema';

export type ChainRow = Selectable<ChainsTable>;

/**
 * What a change to a chain came to: the chain as it now is (`changed` false when the change left
 * it as it was: nothing written, nothing to tell), or why nothing changed.
 */
export type ChainOutcome = { chain: ChainFacts; changed: boolean } | 'closed' | 'full' | 'missing';

/** Where a chain is: its id, its group, its message. */
export interface ChainAt {
  chainId: number;
  groupId: number;
  msgId: number;
}

/** Thrown inside a change to roll it back: its message was withdrawn or deleted meanwhile. */
class Gone extends Error {}

/**
 * Group sign-up chains (migration 035). Every change runs in one transaction under a lock of its
 * chain (on PostgreSQL; SQLite writes one transaction at a time): the check (closed, full, my line)
 * and the write see the same lines, a line's `seq` is the next after the last, and the chain's
 * message is written again from the lines in the same transaction, so that its `extends` and
 * `content` always show the chain as it is. The message's row is locked first and written only
 * while it is neither withdrawn nor deleted: a change racing a withdrawal (or retention's
 * deletion, which takes the message rows before the chain's) either commits first or changes
 * nothing, and never brings the withdrawn chain back.
 */
export class ChainRepo {
  constructor(private readonly db: Db | Transaction<Database>) {}

  /**
   * The chain the creator started under `clientId`, made now if there is none: a retried start,
   * or two at once, find the same chain. Answers its id.
   */
  async create(
    c: { groupId: number; creator: number; clientId: string; title: string; example: string },
    now: number,
  ): Promise<number> {
    const made = await this.byClient(c.creator, c.clientId);
    if (made !== undefined) return made;
    try {
      const { id } = await this.db
        .insertInto('chains')
        .values({
          group_id: c.groupId,
          creator: c.creator,
          client_id: c.clientId,
          title: c.title,
          example: c.example,
          create_time: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(id);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const raced = await this.byClient(c.creator, c.clientId);
      if (raced === undefined) throw err;
      return raced;
    }
  }

  private async byClient(creator: number, clientId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('chains')
      .select('id')
      .where('creator', '=', creator)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return row && Number(row.id);
  }

  /** Names the message that carries the chain (again, on a retried start: the same message). */
  async setMessage(chainId: number, msgId: number): Promise<void> {
    await this.db.updateTable('chains').set({ msg_id: msgId }).where('id', '=', chainId).execute();
  }

  /** A chain of a group, as its message carries it now. */
  async facts(chainId: number, groupId: number): Promise<ChainFacts | undefined> {
    return inTransaction(this.db, async (trx) => {
      const chain = await this.row(trx, chainId, groupId);
      return chain && (await this.factsOf(trx, chain));
    });
  }

  /** A chain as `facts` reads it, while its message is neither withdrawn nor deleted. */
  async liveFacts(at: ChainAt): Promise<ChainFacts | undefined> {
    return inTransaction(this.db, async (trx) => {
      const live = await trx
        .selectFrom('messages')
        .select('id')
        .where('id', '=', at.msgId)
        .where('is_undo', '=', 0)
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      const chain = live && (await this.row(trx, at.chainId, at.groupId));
      return chain ? this.factsOf(trx, chain) : undefined;
    });
  }

  /**
   * Adds my line, or changes the line I have (keeping its place): refused when the chain is closed,
   * or when a new line would pass `max`. The same line again changes nothing.
   */
  join(
    at: ChainAt,
    line: { userId: number; name: string; text: string },
    max: number,
    now: number,
  ): Promise<ChainOutcome> {
    return this.change(at, async (trx) => {
      const mine = await trx
        .selectFrom('chain_entries')
        .select(['seq', 'name', 'text'])
        .where('chain_id', '=', at.chainId)
        .where('user_id', '=', line.userId)
        .executeTakeFirst();
      if (mine) {
        if (mine.text === line.text && mine.name === line.name) return 'same';
        await trx
          .updateTable('chain_entries')
          .set({ text: line.text, name: line.name })
          .where('chain_id', '=', at.chainId)
          .where('seq', '=', mine.seq)
          .execute();
        return undefined;
      }
      const { n, last } = await trx
        .selectFrom('chain_entries')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('seq').as('last')])
        .where('chain_id', '=', at.chainId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return 'full';
      await trx
        .insertInto('chain_entries')
        .values({
          chain_id: at.chainId,
          seq: Number(last ?? 0) + 1,
          user_id: line.userId,
          name: line.name,
          text: line.text,
          create_time: now,
        })
        .execute();
      return undefined;
    });
  }

  /** Takes my line back (no line: no change); the lines after it move up one number. */
  withdraw(at: ChainAt, userId: number): Promise<ChainOutcome> {
    return this.change(at, async (trx) => {
      const res = await trx
        .deleteFrom('chain_entries')
        .where('chain_id', '=', at.chainId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0 ? undefined : 'same';
    });
  }

  /** Closes the chain (closed already: no change). */
  close(at: ChainAt): Promise<ChainOutcome> {
    return this.change(
      at,
      async (trx) => {
        const res = await trx
          .updateTable('chains')
          .set({ closed: 1 })
          .where('id', '=', at.chainId)
          .where('closed', '=', 0)
          .executeTakeFirst();
        return Number(res.numUpdatedRows) > 0 ? undefined : 'same';
      },
      true,
    );
  }

  /**
   * Takes every line of a user's out of the chains they are in (their account's deletion), each
   * chain under its lock and its message written again, in the caller's transaction; a chain whose
   * message is withdrawn or deleted loses the line and keeps its message as it is. Answers the
   * messages written again.
   */
  async eraseLines(userId: number): Promise<number[]> {
    return inTransaction(this.db, async (trx) => {
      const rows = await trx
        .selectFrom('chain_entries as e')
        .innerJoin('chains as c', 'c.id', 'e.chain_id')
        .select(['c.id', 'c.group_id', 'c.msg_id'])
        .where('e.user_id', '=', userId)
        .orderBy('c.id')
        .execute();
      const written: number[] = [];
      for (const r of rows) {
        const at = { chainId: Number(r.id), groupId: Number(r.group_id), msgId: Number(r.msg_id) };
        await lockKey(trx, `chain:${at.chainId}`);
        await this.lockMessage(trx, at.msgId);
        await trx
          .deleteFrom('chain_entries')
          .where('chain_id', '=', at.chainId)
          .where('user_id', '=', userId)
          .execute();
        if (await this.rewrite(trx, at)) written.push(at.msgId);
      }
      return written;
    });
  }

  /**
   * Runs `work` on an open chain (any chain with `closing`) under the chain's lock and its
   * message's, then writes the message again; `work` answers why it changed nothing, or undefined.
   * A message withdrawn or deleted (before, or while this waited for its lock) is a missing one,
   * and whatever `work` wrote is rolled back.
   */
  private async change(
    at: ChainAt,
    work: (trx: Transaction<Database>) => Promise<'full' | 'same' | undefined>,
    closing = false,
  ): Promise<ChainOutcome> {
    try {
      return await inTransaction(this.db, async (trx): Promise<ChainOutcome> => {
        await lockKey(trx, `chain:${at.chainId}`);
        if (!(await this.lockMessage(trx, at.msgId))) return 'missing';
        const before = await this.row(trx, at.chainId, at.groupId);
        if (!before) return 'missing';
        if (before.closed && !closing) return 'closed';
        // A start cut short between its message and naming it: the message names the chain.
        if (Number(before.msg_id) === 0) await this.setMessageIn(trx, at);
        const refused = await work(trx);
        if (refused === 'full') return refused;
        if (refused === 'same') return { chain: await this.factsOf(trx, before), changed: false };
        const chain = await this.rewrite(trx, at);
        if (!chain) throw new Gone();
        return { chain, changed: true };
      });
    } catch (err) {
      if (err instanceof Gone) return 'missing';
      throw err;
    }
  }

  /**
   * Takes the lock of a chain's message (on PostgreSQL; SQLite's one writer keeps others out):
   * false when it is withdrawn, deleted or gone.
   */
  private async lockMessage(trx: Transaction<Database>, msgId: number): Promise<boolean> {
    const read = trx
      .selectFrom('messages')
      .select('id')
      .where('id', '=', msgId)
      .where('type', '=', 'chain')
      .where('is_undo', '=', 0)
      .where('is_deleted', '=', 0);
    return (await (onPostgres(trx) ? read.forUpdate() : read).executeTakeFirst()) !== undefined;
  }

  /**
   * Counts a change of the chain and writes its message again from its lines, only while the message
   * is a chain's, neither withdrawn nor deleted: answers the chain, or undefined when no row was written.
   */
  private async rewrite(trx: Transaction<Database>, at: ChainAt): Promise<ChainFacts | undefined> {
    await trx
      .updateTable('chains')
      .set((eb) => ({ rev: eb('rev', '+', 1) }))
      .where('id', '=', at.chainId)
      .execute();
    const after = await this.row(trx, at.chainId, at.groupId);
    if (!after) return undefined;
    const chain = await this.factsOf(trx, after);
    const res = await trx
      .updateTable('messages')
      .set({ extends: JSON.stringify(chain), content: chainText(chain, translate(DEFAULT_LOCALE, 'chain.head')) })
      .where('id', '=', at.msgId)
      .where('type', '=', 'chain')
      .where('is_undo', '=', 0)
      .where('is_deleted', '=', 0)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0 ? chain : undefined;
  }

  private async setMessageIn(trx: Transaction<Database>, at: ChainAt): Promise<void> {
    await trx.updateTable('chains').set({ msg_id: at.msgId }).where('id', '=', at.chainId).execute();
  }

  private row(trx: Transaction<Database>, chainId: number, groupId: number): Promise<ChainRow | undefined> {
    return trx
      .selectFrom('chains')
      .selectAll()
      .where('id', '=', chainId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
  }

  private async factsOf(trx: Transaction<Database>, chain: ChainRow): Promise<ChainFacts> {
    const entries = await trx
      .selectFrom('chain_entries')
      .select(['user_id', 'name', 'text'])
      .where('chain_id', '=', chain.id)
      .orderBy('seq')
      .execute();
    return {
      chain_id: Number(chain.id),
      title: chain.title,
      ...(chain.example && { example: chain.example }),
      entries: entries.map((e) => ({ user_id: Number(e.user_id), name: e.name, text: e.text })),
      closed: chain.closed ? 1 : 0,
      creator: Number(chain.creator),
      rev: Number(chain.rev),
    };
  }
}
