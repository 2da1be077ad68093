import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db';
import type { FilesTable } from '../../db/schema';

export type FileRow = Selectable<FilesTable>;

/** The only SQL on stored files and who uploaded them. */
export class FileRepo {
  constructor(private readonly db: Db) {}

  byId(id: number): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The file stored with these bytes (by their hash), if any. */
  byHash(hash: string): Promise<FileRow | undefined> {
    return this.db.selectFrom('files').selectAll().where('hash', '=', hash).executeTakeFirst();
  }

  /** Records stored bytes unless a row with the same hash is there already (the same bytes are kept once). */
  async insertUnlessStored(values: Insertable<FilesTable>): Promise<void> {
    await this.db
      .insertInto('files')
      .values(values)
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }

  /** As `insertUnlessStored`, then answers the row stored under that hash (this one or the first). */
  async insertOrGet(values: Insertable<FilesTable> & { hash: string }): Promise<FileRow> {
    await this.insertUnlessStored(values);
    return this.db.selectFrom('files').selectAll().where('hash', '=', values.hash).executeTakeFirstOrThrow();
  }

  /** Records that a user uploaded a file under a name. */
  async recordUpload(userId: number, fileId: number, name: string, now: number): Promise<void> {
    await this.db
      .insertInto('user_files')
      .values({ user_id: userId, file_id: fileId, name, create_time: now })
      .execute();
  }

  /** The name a user last uploaded a file under, if they did. */
  async uploadedName(userId: number, fileId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user_files')
      .select('name')
      .where('user_id', '=', userId)
      .where('file_id', '=', fileId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.name;
  }

  /**
   * Whether anything but a message still uses a file: a sticker, a user's or group's avatar at
   * `url`, a moment, a merged forward's record, or a favourite (messages are asked of the message repository first).
   */
  async inUse(fileId: number, url: string): Promise<boolean> {
    // One use is enough: each question is asked only while the ones before found none.
    const uses = [
      () => this.db.selectFrom('emoji').select('id').where('file_id', '=', fileId).executeTakeFirst(),
      () => this.db.selectFrom('users').select('id').where('avatar', '=', url).executeTakeFirst(),
      () => this.db.selectFrom('groups').select('id').where('avatar', '=', url).executeTakeFirst(),
      () => this.db.selectFrom('moment_images').select('id').where('file_id', '=', fileId).executeTakeFirst(),
      () =>
        this.db.selectFrom('moment_settings').select('user_id').where('cover_file_id', '=', fileId).executeTakeFirst(),
      () =>
        this.db.selectFrom('forward_record_files').select('record_id').where('file_id', '=', fileId).executeTakeFirst(),
      () => this.db.selectFrom('favourite_files').select('file_id').where('file_id', '=', fileId).executeTakeFirst(),
    ];
    for (const use of uses) if ((await use()) !== undefined) return true;
    return false;
  }
}
