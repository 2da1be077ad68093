import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db';
import type { FavouritesTable } from '../../db/schema';

export type FavoriteRow = Selectable<FavouritesTable>;

/** A favourite to save, with every file its snapshot shows. */
export type NewFavorite = Omit<Insertable<FavouritesTable>, 'id'> & { fileIds: readonly number[] };

/** Which favourites a list reads: of a type (any of `types`), or texts that hold a web address. */
export interface FavoriteKindFilter {
  kind?: 'message' | 'moment';
  types?: readonly string[];
  /** Only those whose words hold a web address. */
  links?: boolean;
}

/** The only SQL on favourites (收藏) and the files they keep. */
export class FavoriteRepo {
  constructor(private readonly db: Db) {}

  /**
   * Saves a favourite with its files unless the user saved the same source already, in one
   * transaction; answers the row saved, this one or the earlier.
   */
  save(fav: NewFavorite): Promise<FavoriteRow> {
    const { fileIds, ...values } = fav;
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('favourites')
        .values(values)
        .onConflict((oc) => oc.columns(['user_id', 'source_msg_id', 'source_post_id']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) {
        return trx
          .selectFrom('favourites')
          .selectAll()
          .where('user_id', '=', values.user_id)
          .where('source_msg_id', '=', values.source_msg_id ?? 0)
          .where('source_post_id', '=', values.source_post_id ?? 0)
          .executeTakeFirstOrThrow();
      }
      const files = [...new Set(fileIds)].filter((id) => id > 0);
      if (files.length)
        await trx
          .insertInto('favourite_files')
          .values(files.map((file_id) => ({ favourite_id: inserted.id, file_id })))
          .execute();
      return inserted;
    });
  }

  /** The user's favourite saved from a message or a post, if any. */
  bySource(userId: number, source: { msgId?: number; postId?: number }): Promise<FavoriteRow | undefined> {
    return this.db
      .selectFrom('favourites')
      .selectAll()
      .where('user_id', '=', userId)
      .where('source_msg_id', '=', source.msgId ?? 0)
      .where('source_post_id', '=', source.postId ?? 0)
      .executeTakeFirst();
  }

  /** One of the user's favourites; another user's is not found. */
  mine(userId: number, id: number): Promise<FavoriteRow | undefined> {
    return this.db
      .selectFrom('favourites')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Those of `ids` that are the user's, newest first. */
  mineOf(userId: number, ids: readonly number[]): Promise<FavoriteRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .selectFrom('favourites')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .orderBy('id', 'desc')
      .execute();
  }

  private filtered(userId: number, filter: FavoriteKindFilter) {
    let q = this.db.selectFrom('favourites').where('user_id', '=', userId);
    if (filter.kind) q = q.where('kind', '=', filter.kind);
    if (filter.types?.length) q = q.where('type', 'in', filter.types);
    if (filter.links)
      q = q.where((eb) =>
        eb.or([eb(sql`lower(search_text)`, 'like', '%http://%'), eb(sql`lower(search_text)`, 'like', '%https://%')]),
      );
    return q;
  }

  /** A page of the user's favourites, newest first, with how many match in all. */
  async page(
    userId: number,
    filter: FavoriteKindFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: FavoriteRow[]; total: number }> {
    const q = this.filtered(userId, filter);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The words of every favourite of the user that has words, newest first: what a search looks through. */
  words(userId: number, filter: FavoriteKindFilter): Promise<Array<{ id: number; search_text: string }>> {
    return this.filtered(userId, filter)
      .where('search_text', '<>', '')
      .select(['id', 'search_text'])
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Removes those of `ids` that are the user's, with the files they kept, in one transaction;
   * answers the favourites removed and the files they kept.
   */
  remove(userId: number, ids: readonly number[]): Promise<{ ids: number[]; fileIds: number[] }> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .deleteFrom('favourites')
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .returning('id')
        .execute();
      const removed = rows.map((r) => r.id);
      if (!removed.length) return { ids: [], fileIds: [] };
      const files = await trx
        .deleteFrom('favourite_files')
        .where('favourite_id', 'in', removed)
        .returning('file_id')
        .execute();
      return { ids: removed, fileIds: [...new Set(files.map((f) => f.file_id))] };
    });
  }
}
