import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';
import { indexRows, insertIndexRows, SEARCH_INDEX_LOCK } from '../search-index';

/** Messages read, worked out and indexed per statement while this migration fills the index. */
const BACKFILL_BATCH = 5000;

/**
 * Search by words, indexed after the commit (issue 34).
 *
 * **Off the send.** 008's trigram index was written in the send's own transaction: it tripled the
 * tail of every private message on SQLite, and on PostgreSQL a send paid now and then for flushing
 * GIN's pending list. The messages are now indexed in batches after their commit. The queue is
 * the messages themselves: ids commit in the order they are drawn (on PostgreSQL under
 * MESSAGE_SEQUENCE_LOCK, on SQLite one writer), so `search_indexed.through`, the last id the index
 * has read, splits the messages into those indexed and those still to be. A crash loses nothing:
 * the indexer goes on from `through`. Withdrawal and deletion of a message already indexed take it
 * out at once, by trigger, in their own transaction; the indexer reads the others as they are when
 * it gets to them. On PostgreSQL the trigger takes SEARCH_INDEX_LOCK shared, so that a batch being
 * indexed and a withdrawal are ordered.
 *
 * **By words.** Trigrams found Chinese of three characters and more, but an English word's
 * trigrams ("the", "ing") are each in a large share of all messages, and two Chinese characters
 * have none: both read every message of the reader's chats. The index now holds `wordTokens`
 * (words, and pairs of Chinese characters) and `whoTokens` (who may read the message), so that
 * a search asks for its words among its reader's chats and the index walks nothing else. The
 * tokens are made here, in JavaScript, the same for both databases: SQLite's FTS5 table
 * `message_words` (unicode61, splitting only where the tokens already are; no positions, prefix
 * indexes of one and two characters), PostgreSQL's `message_search.words` (a tsvector of the
 * tokens as they are, GIN). `messages.search_text` stays: a longer Chinese term is checked in it.
 */
export function searchIndex(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('search_indexed')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('through', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into search_indexed (id, through) select 1, coalesce(max(id), 0) from messages`.execute(db);
      if (dialect === 'postgres') await postgres(db);
      else await sqlite(db);
      await backfill(db, dialect);
      // Built once the rows are in, faster than entry by entry.
      if (dialect === 'postgres')
        await sql`create index message_search_words on message_search using gin (words)`.execute(db);
    },
  };
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger message_search_insert`.execute(db);
  await sql`drop trigger message_search_update`.execute(db);
  await sql`drop trigger message_search_delete`.execute(db);
  await sql`drop table message_search`.execute(db);
  await sql`create virtual table message_words using fts5(
    words, content='', contentless_delete=1, detail=none, prefix='1 2',
    tokenize="unicode61 remove_diacritics 0 tokenchars '_'")`.execute(db);
  await sql`create trigger message_words_update after update of search_text, is_undo, is_deleted on messages
    when old.id <= (select through from search_indexed)
      and (old.search_text is not new.search_text or old.is_undo is not new.is_undo or old.is_deleted is not new.is_deleted)
    begin
      delete from message_words where rowid = old.id;
    end`.execute(db);
  await sql`create trigger message_words_delete after delete on messages
    when old.id <= (select through from search_indexed)
    begin
      delete from message_words where rowid = old.id;
    end`.execute(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`drop index messages_search`.execute(db);
  await db.schema
    .createTable('message_search')
    .addColumn('msg_id', 'bigint', (c) => c.primaryKey())
    .addColumn('words', sql`tsvector`, (c) => c.notNull())
    .execute();
  await sql`create function message_search_follow() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(${sql.lit(SEARCH_INDEX_LOCK)});
      delete from message_search where msg_id = old.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger message_search_update after update of search_text, is_undo, is_deleted on messages
    for each row when (old.search_text is distinct from new.search_text
      or old.is_undo is distinct from new.is_undo or old.is_deleted is distinct from new.is_deleted)
    execute function message_search_follow()`.execute(db);
  await sql`create trigger message_search_delete after delete on messages
    for each row execute function message_search_follow()`.execute(db);
}

/** The messages this migration found stored, indexed in batches by id. */
async function backfill(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const { rows: state } = await sql<{ through: number }>`select through from search_indexed`.execute(db);
  const through = Number(state[0]!.through);
  let after = 0;
  for (;;) {
    const { rows } = await sql<{
      id: number;
      chat_type: number;
      from_user: number;
      to_id: number;
      search_text: string;
    }>`
      select id, chat_type, from_user, to_id, search_text from messages
      where id > ${after} and id <= ${through} and is_deleted = 0 and is_undo = 0 and search_text <> ''
      order by id limit ${BACKFILL_BATCH}`.execute(db);
    if (!rows.length) return;
    await insertIndexRows(dialect, indexRows(rows)).execute(db);
    after = Number(rows.at(-1)!.id);
  }
}
