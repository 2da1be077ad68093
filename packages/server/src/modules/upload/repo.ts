import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Database, Db } from '../../db';
import { inTransaction, lockRow, onPostgres } from '../../db/locks';
import type { FilesTable } from '../../db/schema';
import { storageUrl } from '../../storage/storage';

export type FileRow = Selectable<FilesTable>;

/** Each file's turn on this process (SQLite: the only process): the tail of the work waiting on it. */
const turns = new Map<number, Promise<unknown>>();

/** Runs `work` once the work queued before it on the same file has ended, on this process. */
async function inTurn<T>(fileId: number, work: () => Promise<T>): Promise<T> {
  const before = turns.get(fileId) ?? Promise.resolve();
  const mine = before.then(work, work);
  const tail = mine.catch(() => undefined);
  turns.set(fileId, tail);
  try {
    return await mine;
  } finally {
    if (turns.get(fileId) === tail) turns.delete(fileId);
  }
}

/** The only SQL on stored files and who uploaded them. */
export class FileRepo {
  constructor(private readonly db: Db | Transaction<Database>) {}

  /**
   * Runs `work` holding the file's lock, with this repository as the lock's holder sees it:
   * freeing a file (the check that nothing uses it, the mark, removing its bytes) and storing its
   * bytes again (an upload of the same content) take turns. On PostgreSQL the lock is the file's
   * row (FOR UPDATE, in a transaction around `work`, so across nodes; a send naming the file holds
   * it shared while it stores the message); on SQLite, one process, a turn per file on it.
   */
  guarded<T>(fileId: number, work: (files: FileRepo) => Promise<T>): Promise<T> {
    if (!onPostgres(this.db)) return inTurn(fileId, () => work(this));
    return inTransaction(this.db, async (trx) => {
      await lockRow(trx, 'files', fileId);
      return work(new FileRepo(trx));
    });
  }

  /**
   * Marks a file's bytes removed (`removed_at`) unless something still uses it (`inUse`), in one
   * transaction; answers the row when it was marked, for its bytes to
   * be removed next. From then on a send naming it is refused (MessageStoreRepo.store).
   */
  freeIfUnused(fileId: number, url: string, now: number): Promise<FileRow | undefined> {
    return inTransaction(this.db, async (trx) => {
      const files = new FileRepo(trx);
      const file = await trx.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst();
      if (!file?.storage_key || file.removed_at > 0) return undefined;
      if (await files.inUse(fileId, url)) return undefined;
      await trx.updateTable('files').set({ removed_at: now }).where('id', '=', fileId).execute();
      return file;
    });
  }

  /**
   * Whether another file's row, its bytes kept, stores its bytes or its thumbnail at `key`: content
   * keys are shared by the same bytes, so a thumbnail may be the bytes of an upload, or of another
   * image's thumbnail, and freeing one file must leave them.
   */
  async keyShared(fileId: number, key: string): Promise<boolean> {
    const others = () =>
      this.db.selectFrom('files').select('id').where('id', '!=', fileId).where('removed_at', '=', 0).limit(1);
    // The bytes of a file are at the key of their hash: found by the hash's index.
    const hash = /^[0-9a-f]{2}\/([0-9a-f]{64})\./.exec(key)?.[1];
    if (hash && (await others().where('hash', '=', hash).where('storage_key', '=', key).executeTakeFirst()))
      return true;
    return (await others().where('thumb', '=', storageUrl(key)).executeTakeFirst()) !== undefined;
  }

  /** Clears a file's removed mark, its bytes being stored again (and its thumbnail's address, made again). */
  async revive(fileId: number, thumb: string): Promise<void> {
    await this.db.updateTable('files').set({ removed_at: 0, thumb }).where('id', '=', fileId).execute();
  }

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
   * Whether anything still uses a file: a live (not deleted, not withdrawn) message, a sticker, a
   * user's or group's avatar at `url`, a moment, a merged forward's record, a favourite, a report,
   * or a message held for review that waits.
   */
  async inUse(fileId: number, url: string): Promise<boolean> {
    // One use is enough: each question is asked only while the ones before found none.
    const uses = [
      () =>
        this.db
          .selectFrom('messages')
          .select('id')
          .where('file_id', '=', fileId)
          // The condition of the partial index messages_file, for SQLite to use it.
          .where('file_id', '<>', 0)
          .where('is_deleted', '=', 0)
          .where('is_undo', '=', 0)
          .limit(1)
          .executeTakeFirst(),
      () => this.db.selectFrom('emoji').select('id').where('file_id', '=', fileId).executeTakeFirst(),
      () => this.db.selectFrom('users').select('id').where('avatar', '=', url).executeTakeFirst(),
      () => this.db.selectFrom('groups').select('id').where('avatar', '=', url).executeTakeFirst(),
      () => this.db.selectFrom('moment_images').select('id').where('file_id', '=', fileId).executeTakeFirst(),
      () =>
        this.db.selectFrom('moment_settings').select('user_id').where('cover_file_id', '=', fileId).executeTakeFirst(),
      () =>
        this.db.selectFrom('forward_record_files').select('record_id').where('file_id', '=', fileId).executeTakeFirst(),
      () => this.db.selectFrom('favourite_files').select('file_id').where('file_id', '=', fileId).executeTakeFirst(),
      () => this.db.selectFrom('report_files').select('file_id').where('file_id', '=', fileId).executeTakeFirst(),
      () =>
        this.db
          .selectFrom('held_items')
          .select('id')
          .where('file_id', '=', fileId)
          // The condition of the partial index held_items_file, for SQLite to use it.
          .where('file_id', '<>', 0)
          // Waiting (HeldStatus.Waiting): an approved one is a message now, a rejected one goes nowhere.
          .where('status', '=', 0)
          .executeTakeFirst(),
    ];
    for (const use of uses) if ((await use()) !== undefined) return true;
    return false;
  }
}
