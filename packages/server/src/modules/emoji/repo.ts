import type { Db } from '../../db';

/** A sticker of a user's collection, with where its file is stored. */
export interface EmojiWithFile {
  id: number;
  file_id: number;
  name: string;
  storage_key: string;
}

/** The only SQL on sticker collections. */
export class EmojiRepo {
  constructor(private readonly db: Db) {}

  /** A user's stickers, front first (highest sort, then newest). */
  listOf(userId: number): Promise<EmojiWithFile[]> {
    return this.db
      .selectFrom('emoji as e')
      .innerJoin('files as f', 'f.id', 'e.file_id')
      .select(['e.id', 'e.file_id', 'e.name', 'f.storage_key'])
      .where('e.user_id', '=', userId)
      .orderBy('e.sort', 'desc')
      .orderBy('e.id', 'desc')
      .execute();
  }

  /** Adds a file to a user's stickers at `sort`; one already there only moves to `sort`. */
  async upsert(userId: number, fileId: number, name: string, sort: number, now: number): Promise<void> {
    await this.db
      .insertInto('emoji')
      .values({ user_id: userId, file_id: fileId, name, sort, create_time: now })
      .onConflict((oc) => oc.columns(['user_id', 'file_id']).doUpdateSet({ sort }))
      .execute();
  }

  /** Those of `ids` that are the user's stickers, with their files. */
  mine(userId: number, ids: number[]): Promise<{ id: number; file_id: number }[]> {
    return this.db
      .selectFrom('emoji')
      .select(['id', 'file_id'])
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Removes those of `ids` that are the user's stickers. */
  async remove(userId: number, ids: number[]): Promise<void> {
    await this.db.deleteFrom('emoji').where('user_id', '=', userId).where('id', 'in', ids).execute();
  }

  /** Sets where one of the user's stickers sorts. */
  async setSort(userId: number, id: number, sort: number): Promise<void> {
    await this.db.updateTable('emoji').set({ sort }).where('user_id', '=', userId).where('id', '=', id).execute();
  }

  /** Whether `fileId` is in `userId`'s sticker collection. */
  async collected(userId: number, fileId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('emoji')
      .select('id')
      .where('user_id', '=', userId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
