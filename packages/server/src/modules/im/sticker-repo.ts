import type { Db } from '../../db';

/**
 * What sending a sticker reads of a user's collection. The emoji module owns the table; this read
 * lives here until its repository offers it.
 */
export class StickerRepo {
  constructor(private readonly db: Db) {}

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
