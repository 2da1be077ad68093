import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/** Rows read per statement of the backfill. */
const BACKFILL_BATCH = 5000;

/**
 * The words of a message that search finds, as this migration found them in stored messages: a
 * text's content, a file's name, a place's name and address, a card's name. New messages get
 * theirs from `searchText` (modules/im/search-text.ts) as they are stored.
 */
function wordsOf(type: string, content: string, ext: string): string {
  if (type === 'text') return content;
  let facts: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(ext);
    if (parsed && typeof parsed === 'object') facts = parsed as Record<string, unknown>;
  } catch {
    return '';
  }
  const names =
    type === 'file'
      ? [facts.name]
      : type === 'location'
        ? [facts.name, facts.address]
        : type === 'contact'
          ? [facts.displayName]
          : [];
  return names.filter((n): n is string => typeof n === 'string' && n !== '').join('\n');
}

/**
 * Full-text search over messages (issue 21): each message keeps the words it is found by in
 * `search_text`, indexed by trigrams so that Chinese matches inside words without a word splitter.
 * SQLite: an FTS5 table with the trigram tokenizer, kept by triggers in the message's own
 * transaction. PostgreSQL: a pg_trgm GIN index. Both leave withdrawn and deleted messages out.
 */
export function search(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('messages')
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await backfill(db);
      if (dialect === 'postgres') {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index messages_search on messages using gin (search_text gin_trgm_ops)
          where is_deleted = 0 and is_undo = 0 and search_text <> ''`.execute(db);
        return;
      }
      // Contentless: the words stay in messages.search_text; the index holds only the trigrams.
      await sql`create virtual table message_search using fts5(
        search_text, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
      await sql`insert into message_search (rowid, search_text)
        select id, search_text from messages where is_deleted = 0 and is_undo = 0 and search_text <> ''`.execute(db);
      await sql`create trigger message_search_insert after insert on messages
        when new.is_deleted = 0 and new.is_undo = 0 and new.search_text <> ''
        begin
          insert into message_search (rowid, search_text) values (new.id, new.search_text);
        end`.execute(db);
      await sql`create trigger message_search_update after update of search_text, is_undo, is_deleted on messages
        begin
          delete from message_search where rowid = old.id;
          insert into message_search (rowid, search_text)
            select new.id, new.search_text where new.is_deleted = 0 and new.is_undo = 0 and new.search_text <> '';
        end`.execute(db);
      await sql`create trigger message_search_delete after delete on messages
        begin
          delete from message_search where rowid = old.id;
        end`.execute(db);
    },
  };
}

/** Fills search_text of the messages stored before this migration, in batches by id. */
async function backfill(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; type: string; content: string; extends: string }>`
      select id, type, content, extends from messages
      where id > ${after} and is_deleted = 0 and is_undo = 0 and type in ('text', 'file', 'location', 'contact')
      order by id limit ${BACKFILL_BATCH}`.execute(db);
    if (!rows.length) return;
    // The migration's own transaction (db/upgrade.ts) holds the writes.
    for (const r of rows) {
      const words = wordsOf(r.type, r.content, r.extends);
      if (words) await sql`update messages set search_text = ${words} where id = ${r.id}`.execute(db);
    }
    after = Number(rows.at(-1)!.id);
  }
}
