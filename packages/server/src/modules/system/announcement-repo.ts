import type { Selectable } from 'kysely';
import type { Db } from '../../db';
import type { AnnouncementsTable } from '../../db/schema';

export type AnnouncementRow = Selectable<AnnouncementsTable>;

/** The only SQL on system announcements (written by admins, read by the servers). */
export class AnnouncementRepo {
  constructor(private readonly db: Db) {}

  /** Stores an announcement; returns its id. */
  async insert(title: string, notice: string, now: number): Promise<number> {
    const row = await this.db
      .insertInto('announcements')
      .values({ title, notice, create_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The newest announcement's id, or 0. */
  async newestId(): Promise<number> {
    const row = await this.db
      .selectFrom('announcements')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
    return Number(row?.m ?? 0);
  }

  newest(): Promise<AnnouncementRow | undefined> {
    return this.db.selectFrom('announcements').selectAll().orderBy('id', 'desc').executeTakeFirst();
  }

  /** Announcements newest first, a page of them, and how many there are. */
  async page(offset: number, limit: number): Promise<{ rows: AnnouncementRow[]; total: number }> {
    const rows = await this.db
      .selectFrom('announcements')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const { n } = await this.db
      .selectFrom('announcements')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** Withdraws an announcement: nobody reads it any more; false when there was none. */
  async remove(id: number): Promise<boolean> {
    const res = await this.db.deleteFrom('announcements').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Announcements after `id`, oldest first. */
  after(id: number): Promise<AnnouncementRow[]> {
    return this.db.selectFrom('announcements').selectAll().where('id', '>', id).orderBy('id').execute();
  }

  /** Announcements after `readId` published at or after `since` (a user's sign-up: older ones are not theirs). */
  async countUnread(readId: number, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('announcements')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '>', readId)
      .where('create_time', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
