import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/** The share of a word index segment's rows deleted, %, at which SQLite rewrites the segment. */
const DELETE_MERGE_PERCENT = 50;

/**
 * SQLite's word index `message_words` (migration 019) rewrites a segment of the index once
 * `deletemerge` per cent of its rows are deleted, inside the commit of the delete that crossed the
 * mark, however small: the whole segment at once, its common words' long lists with it. The
 * retention sweep deletes the oldest rows, the bulk of the largest segments, and at FTS5's 10 % each
 * of those commits held the connection (and every send waiting on it) for a rewrite of the segment,
 * ten rewrites of it in all. At 50 % a segment is rewritten about twice over, and holds at most as
 * many deleted rows as live ones until then (bench/retention.mjs, docs/benchmarks.md). PostgreSQL
 * has no such index: nothing changes there.
 */
export function wordIndexMerge(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'sqlite') return;
      await sql`insert into message_words (message_words, rank) values ('deletemerge', ${sql.lit(DELETE_MERGE_PERCENT)})`.execute(
        db,
      );
    },
  };
}
