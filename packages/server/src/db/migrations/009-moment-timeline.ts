import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Moments: a timeline per reader (fan-out on write). A post is written to its author's rows and to
 * those of each friend its visibility admits when it is published; a feed page reads the reader's
 * rows by (user_id, post_id). Existing posts are written to the timelines of the author and of
 * today's friends their visibility admits.
 */
export function momentTimeline(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // On SQLite the rows are stored in key order (no rowid), so a page is one contiguous read.
      await db.schema
        .createTable('moment_timeline')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('author_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('moment_timeline_pk', ['user_id', 'post_id'])
        .$call((b) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
        .execute();
      await sql`
        insert into moment_timeline (user_id, post_id, author_id)
        select p.user_id, p.id, p.user_id from moment_posts p
      `.execute(db);
      await sql`
        insert into moment_timeline (user_id, post_id, author_id)
        select f.friend_user_id, p.id, p.user_id
        from moment_posts p
        join friends f on f.user_id = p.user_id
        where p.visibility = 1
          or (p.visibility = 3 and exists (
            select 1 from moment_targets t where t.post_id = p.id and t.user_id = f.friend_user_id))
          or (p.visibility = 4 and not exists (
            select 1 from moment_targets t where t.post_id = p.id and t.user_id = f.friend_user_id))
      `.execute(db);
    },
  };
}
