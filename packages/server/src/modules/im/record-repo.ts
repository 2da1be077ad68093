import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { ForwardRecordsTable } from '../../db/schema';

export type ForwardRecordRow = Selectable<ForwardRecordsTable>;

/** The only SQL on merged forwards' records and the files they hold. */
export class ForwardRecordRepo {
  constructor(private readonly db: Db) {}

  /** Stores a record's items (`body`, JSON) with the files they carry, in one transaction; answers its id. */
  create(ownerId: number, body: string, fileIds: readonly number[], now: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('forward_records')
        .values({ owner_id: ownerId, body, create_time: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const files = [...new Set(fileIds)].map((file_id) => ({ record_id: id, file_id }));
      if (files.length) await trx.insertInto('forward_record_files').values(files).execute();
      return id;
    });
  }

  byId(id: number): Promise<ForwardRecordRow | undefined> {
    return this.db.selectFrom('forward_records').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
