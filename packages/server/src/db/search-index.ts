import { sql } from 'kysely';
import type { Dialect } from './dialect';
import { whoTokens, wordTokens } from '../modules/im/search-text';

// What the search index holds and how it is written (migration 019): one home for the migration and SearchRepo.

/**
 * The advisory lock between the search indexer (held alone, for a batch) and the removals that
 * follow a withdrawal or deletion (held shared, to the end of their transaction) on PostgreSQL.
 */
export const SEARCH_INDEX_LOCK = 7_243_002;

/** The index's rows of the messages read from `messages`: each id with its tokens, space-separated. */
export function indexRows(
  rows: ReadonlyArray<{ id: number; chat_type: number; from_user: number; to_id: number; search_text: string }>,
): Array<{ id: number; words: string }> {
  return rows.map((r) => ({
    id: Number(r.id),
    words: [...wordTokens(r.search_text), ...whoTokens(r.chat_type, Number(r.from_user), Number(r.to_id))].join(' '),
  }));
}

/** Statement that writes index rows, on either database. */
export function insertIndexRows(dialect: Dialect, rows: ReadonlyArray<{ id: number; words: string }>) {
  return dialect === 'postgres'
    ? sql`insert into message_search (msg_id, words)
        select id, array_to_tsvector(string_to_array(words, ' '))
        from unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.words)}::text[]) as r(id, words)`
    : sql`insert into message_words (rowid, words) values ${sql.join(rows.map((r) => sql`(${r.id}, ${r.words})`))}`;
}
