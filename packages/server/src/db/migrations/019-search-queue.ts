import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The advisory lock between the search indexer (held alone, for a batch) and the removals that
 * follow a withdrawal or deletion (held shared, to the end of their transaction) on PostgreSQL.
 */
export const SEARCH_INDEX_LOCK = 7_243_002;

/**
 * Search is indexed after the commit, in batches, instead of in the send's own transaction
 * (issue 34: the index's writes tripled the tail of every private message on SQLite, and on
 * PostgreSQL a send paid for flushing GIN's pending list now and then).
 *
 * The queue is the messages themselves: message ids commit in the order they are drawn (on
 * PostgreSQL under MESSAGE_SEQUENCE_LOCK, on SQLite one writer), so `search_indexed.through`, the
 * last id the index has seen, splits the messages into those indexed and those still to be. A
 * crash loses nothing: the indexer starts again from `through`.
 *
 * Withdrawal, deletion and a change of words reach the index at once, in their own transaction,
 * for the messages already indexed; the indexer reads the others as they are when it gets to them.
 * - SQLite: the FTS5 table stays; its insert trigger goes, its update trigger fires only for
 *   messages at or before `through`.
 * - PostgreSQL: the trigram index moves off `messages` to `message_search` (the words of each live
 *   message indexed so far), which a trigger keeps after each withdrawal, deletion or change,
 *   under SEARCH_INDEX_LOCK shared, so that a batch being indexed and a withdrawal are ordered.
 */
export function searchQueue(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('search_indexed')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('through', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into search_indexed (id, through) select 1, coalesce(max(id), 0) from messages`.execute(db);
      if (dialect === 'postgres') {
        await postgres(db);
        return;
      }
      await sql`drop trigger message_search_insert`.execute(db);
      await sql`drop trigger message_search_update`.execute(db);
      await sql`create trigger message_search_update after update of search_text, is_undo, is_deleted on messages
        when old.id <= (select through from search_indexed)
          and (old.search_text is not new.search_text or old.is_undo is not new.is_undo or old.is_deleted is not new.is_deleted)
        begin
          delete from message_search where rowid = old.id;
          insert into message_search (rowid, search_text)
            select new.id, new.search_text where new.is_deleted = 0 and new.is_undo = 0 and new.search_text <> '';
        end`.execute(db);
    },
  };
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_search')
    .addColumn('msg_id', 'bigint', (c) => c.primaryKey())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into message_search (msg_id, search_text)
    select id, search_text from messages where is_deleted = 0 and is_undo = 0 and search_text <> ''`.execute(db);
  await sql`create index message_search_words on message_search using gin (search_text gin_trgm_ops)`.execute(db);
  await sql`drop index messages_search`.execute(db);
  await sql`create function message_search_follow() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(${sql.lit(SEARCH_INDEX_LOCK)});
      if old.id > (select through from search_indexed) then
        return null;
      end if;
      delete from message_search where msg_id = old.id;
      if tg_op = 'UPDATE' and new.is_deleted = 0 and new.is_undo = 0 and new.search_text <> '' then
        insert into message_search (msg_id, search_text) values (new.id, new.search_text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger message_search_update after update of search_text, is_undo, is_deleted on messages
    for each row when (old.search_text is distinct from new.search_text
      or old.is_undo is distinct from new.is_undo or old.is_deleted is distinct from new.is_deleted)
    execute function message_search_follow()`.execute(db);
  await sql`create trigger message_search_delete after delete on messages
    for each row execute function message_search_follow()`.execute(db);
}
