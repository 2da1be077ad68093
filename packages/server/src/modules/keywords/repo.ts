import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { lockKey } from '../../db/locks';
import type { HeldItemsTable, KeywordListsTable } from '../../db/schema';

export type KeywordListRow = Selectable<KeywordListsTable> & { word_count: number };
export type HeldRow = Selectable<HeldItemsTable>;
export type HeldInsert = Omit<Insertable<HeldItemsTable>, 'id' | 'status' | 'decide_time' | 'decided_by'>;

/** Held items' states. */
export const HeldStatus = { Waiting: 0, Approved: 1, Rejected: 2 } as const;

/** Rows written at once by an import. */
const CHUNK = 500;

/** `%words%` for LIKE, the words' own `%`, `_` and `\` taken literally. */
function containing(words: string): string {
  return `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The only SQL of keyword rules: the lists, their words, and what review lists hold. */
export class KeywordRepo {
  constructor(private readonly db: Db) {}

  /** Every list with how many words it holds, oldest first. */
  lists(): Promise<KeywordListRow[]> {
    return this.db
      .selectFrom('keyword_lists as l')
      .selectAll('l')
      .select((eb) =>
        eb
          .selectFrom('keyword_words as w')
          .whereRef('w.list_id', '=', 'l.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('word_count'),
      )
      .orderBy('l.id')
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, word_count: Number(r.word_count ?? 0) })));
  }

  async list(id: number): Promise<KeywordListRow | undefined> {
    return (await this.lists()).find((l) => l.id === id);
  }

  /**
   * Makes a list unless `max` lists are there, counted and made under one lock so that lists made at
   * once never pass the bound; answers the new list's id, or undefined when there is no place left.
   */
  async createList(row: Omit<Insertable<KeywordListsTable>, 'id'>, max: number): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await lockKey(trx, 'keyword-lists');
      const { n } = await trx
        .selectFrom('keyword_lists')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return undefined;
      const { id } = await trx.insertInto('keyword_lists').values(row).returning('id').executeTakeFirstOrThrow();
      return id;
    });
  }

  async updateList(id: number, patch: { name?: string; action?: string; enabled?: number }): Promise<void> {
    await this.db.updateTable('keyword_lists').set(patch).where('id', '=', id).execute();
  }

  /** Deletes a list and its words; answers whether it was there. */
  async deleteList(id: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('keyword_words').where('list_id', '=', id).execute();
      const res = await trx.deleteFrom('keyword_lists').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    });
  }

  /** A page of a list's words, newest first, of those containing `words` when given. */
  async words(listId: number, words: string, offset: number, limit: number) {
    let q = this.db.selectFrom('keyword_words').where('list_id', '=', listId);
    if (words) q = q.where('word', 'like', containing(words));
    const rows = await q.select(['id', 'word']).orderBy('id', 'desc').limit(limit).offset(offset).execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** Which of `words` the list holds already. */
  async existing(
    listId: number,
    words: readonly string[],
    db: Db | Transaction<Database> = this.db,
  ): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < words.length; i += CHUNK) {
      const rows = await db
        .selectFrom('keyword_words')
        .select('word')
        .where('list_id', '=', listId)
        .where('word', 'in', words.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) found.add(r.word);
    }
    return found;
  }

  /**
   * Adds words to a list, those already in it skipped, in one transaction under the list's lock (adds
   * at once count each other's words); answers the words added, or undefined when the list would
   * then hold more than `max`.
   */
  async addWords(listId: number, words: readonly string[], max: number): Promise<string[] | undefined> {
    if (words.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      await lockKey(trx, `keyword-words:${listId}`);
      const existing = await this.existing(listId, words, trx);
      const fresh = [...new Set(words)].filter((w) => !existing.has(w));
      const { n } = await trx
        .selectFrom('keyword_words')
        .where('list_id', '=', listId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (Number(n) + fresh.length > max) return undefined;
      for (let i = 0; i < fresh.length; i += CHUNK) {
        await trx
          .insertInto('keyword_words')
          .values(fresh.slice(i, i + CHUNK).map((word) => ({ list_id: listId, word })))
          .execute();
      }
      return fresh;
    });
  }

  /** Removes words of a list by id; answers how many went. */
  async removeWords(listId: number, ids: readonly number[]): Promise<number> {
    const res = await this.db
      .deleteFrom('keyword_words')
      .where('list_id', '=', listId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Every word of every list that is on, with its list's action. */
  active(): Promise<{ word: string; action: string }[]> {
    return this.db
      .selectFrom('keyword_words as w')
      .innerJoin('keyword_lists as l', 'l.id', 'w.list_id')
      .where('l.enabled', '=', 1)
      .select(['w.word', 'l.action'])
      .execute();
  }

  /** Keeps an item held for review; the same (kind, author, client id) again answers the row kept first. */
  async hold(row: HeldInsert): Promise<HeldRow> {
    await this.db
      .insertInto('held_items')
      .values({ ...row, status: HeldStatus.Waiting, decide_time: 0, decided_by: 0 })
      .onConflict((oc) => oc.columns(['kind', 'user_id', 'client_id']).doNothing())
      .execute();
    return (await this.heldByClient(row.kind, row.user_id, row.client_id))!;
  }

  heldByClient(kind: string, userId: number, clientId: string): Promise<HeldRow | undefined> {
    return this.db
      .selectFrom('held_items')
      .selectAll()
      .where('kind', '=', kind)
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  heldById(id: number): Promise<HeldRow | undefined> {
    return this.db.selectFrom('held_items').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Held items still waiting of an author's, of one kind, by client id. */
  async waiting(kind: string, userId: number, clientIds: readonly string[]): Promise<HeldRow[]> {
    if (clientIds.length === 0) return [];
    return this.db
      .selectFrom('held_items')
      .selectAll()
      .where('kind', '=', kind)
      .where('user_id', '=', userId)
      .where('status', '=', HeldStatus.Waiting)
      .where('client_id', 'in', clientIds)
      .execute();
  }

  /** A page of held items in one status, oldest first, with their authors' names. */
  async heldPage(status: number, offset: number, limit: number) {
    const q = this.db.selectFrom('held_items as h').where('h.status', '=', status);
    const rows = await q
      .leftJoin('users as u', 'u.id', 'h.user_id')
      .selectAll('h')
      .select(['u.realname', 'u.account'])
      .orderBy('h.id')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** An approved item that could not be delivered, kept as rejected. */
  async undeliverable(id: number): Promise<void> {
    await this.db
      .updateTable('held_items')
      .set({ status: HeldStatus.Rejected })
      .where('id', '=', id)
      .where('status', '=', HeldStatus.Approved)
      .execute();
  }

  /** An approved item whose release failed unexpectedly, waiting again. */
  async reopen(id: number): Promise<void> {
    await this.db
      .updateTable('held_items')
      .set({ status: HeldStatus.Waiting, decided_by: 0, decide_time: 0 })
      .where('id', '=', id)
      .where('status', '=', HeldStatus.Approved)
      .execute();
  }

  /** Decides a waiting item (compare-and-set): answers false when it was decided already. */
  async decide(id: number, status: number, by: number, at: number): Promise<boolean> {
    const res = await this.db
      .updateTable('held_items')
      .set({ status, decided_by: by, decide_time: at })
      .where('id', '=', id)
      .where('status', '=', HeldStatus.Waiting)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
