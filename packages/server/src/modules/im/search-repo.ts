import { sql, type QueryResult } from 'kysely';
import type { Dialect } from '../../db/dialect';
import { runAtomically, type Work } from '../../db/at-once';
import type { Db } from '../../db';
import { indexRows, insertIndexRows, SEARCH_INDEX_LOCK } from '../../db/search-index';
import { readableBy } from './readable-repo';
import type { MessageRow, ReaderGroups } from './repo';
import { readerTokens, termQuery, type TermQuery } from './search-text';

/** What a search asks of the messages besides its words. */
export interface SearchFilter {
  /** One chat only. */
  chatKey?: string | undefined;
  types?: readonly string[] | undefined;
  fromUser?: number | undefined;
  startTime?: number | undefined;
  endTime?: number | undefined;
}

/** `%word%` for LIKE with a backslash as its escape, the word's own wildcards taken literally. */
const likeTerm = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An FTS5 query: every term's tokens, and one of the reader's `whoTokens`. */
function ftsQuery(terms: readonly TermQuery[], who: readonly string[]): string {
  const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;
  const words = terms.flatMap((q) => q.tokens.map(({ token, prefix }) => quote(token) + (prefix ? '*' : '')));
  return [...words, `(${who.map(quote).join(' OR ')})`].join(' AND ');
}

/** The same as a PostgreSQL tsquery, read as it is written (no parser, no dictionary). */
function tsQuery(terms: readonly TermQuery[], who: readonly string[]): string {
  const quote = (t: string) => `'${t.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  const words = terms.flatMap((q) => q.tokens.map(({ token, prefix }) => quote(token) + (prefix ? ':*' : '')));
  return [...words, `(${who.map(quote).join(' | ')})`].join(' & ');
}

/** Search over the word index (migration 019): what a reader finds, and bringing the index up to date. */
export class SearchRepo {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Messages a reader may see whose words hold every term, newest first, with how many in all.
   * The word index (migration 019) is asked for the terms' tokens among the reader's own chats
   * (`whoTokens`: their private chats, the groups they are in), so that it walks the reader's
   * matches and nothing else; the reader's rules are applied to what it finds. A term whose
   * tokens do not say it is there as typed (three Chinese characters and more, "budget.txt"),
   * and one with no letters or digits (punctuation, emoji), are checked in the message's words.
   * Withdrawn and deleted messages are never found.
   */
  async search(
    userId: number,
    groups: ReaderGroups,
    terms: readonly string[],
    filter: SearchFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: MessageRow[]; total: number }> {
    let q = readableBy(this.db, this.dialect, userId, groups.hidingHistory).where(
      sql<boolean>`m.is_deleted = 0 and m.is_undo = 0 and m.search_text <> ''`,
    );
    const asked = terms.map((term) => ({ term, query: termQuery(term) }));
    const indexed = asked.flatMap(({ query }) => (query ? [query] : []));
    if (indexed.length) {
      const who = readerTokens(userId, groups.ids);
      q = q.where(
        this.dialect === 'postgres'
          ? sql<boolean>`m.id in (select s.msg_id from message_search s where s.words @@ ${tsQuery(indexed, who)}::tsquery)`
          : sql<boolean>`m.id in (select rowid from message_words where message_words match ${ftsQuery(indexed, who)})`,
      );
    }
    for (const { term, query } of asked) {
      if (query && !query.recheck) continue;
      q = q.where(
        this.dialect === 'postgres'
          ? sql<boolean>`strpos(lower(m.search_text), lower(${term})) > 0`
          : sql<boolean>`m.search_text like ${likeTerm(term)} escape '\\'`,
      );
    }
    if (filter.chatKey !== undefined) q = q.where('m.chat_key', '=', filter.chatKey);
    if (filter.types?.length) q = q.where('m.type', 'in', filter.types);
    if (filter.fromUser !== undefined) q = q.where('m.from_user', '=', filter.fromUser);
    if (filter.startTime !== undefined) q = q.where('m.create_time', '>=', filter.startTime);
    if (filter.endTime !== undefined) q = q.where('m.create_time', '<=', filter.endTime);
    // The page and the count of all matches in one pass over the matches; past the last page, counted alone.
    const found = await q
      .selectAll('m')
      .select(sql<number>`count(*) over ()`.as('matches'))
      // On PostgreSQL not by the primary key's order, which tempts its planner to walk every message
      // backwards for the LIMIT: every match is counted anyway, and the reader's indexes find them.
      .orderBy(this.dialect === 'postgres' ? sql`m.id + 0` : sql`m.id`, 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = found.length
      ? Number(found[0]!.matches)
      : Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return { rows: found.map(({ matches: _, ...row }) => row), total };
  }

  /** The last message id the search index has seen, and the newest message's (0: none). */
  async searchBacklog(): Promise<{ through: number; newest: number }> {
    const row = await this.db
      .selectFrom('search_indexed')
      .select((eb) => [
        'through',
        eb
          .selectFrom('messages')
          .select((m) => m.fn.max('id').as('n'))
          .as('newest'),
      ])
      .executeTakeFirstOrThrow();
    return { through: Number(row.through), newest: Number(row.newest ?? 0) };
  }

  /**
   * Indexes for search the next `limit` messages the index has not seen, in one transaction, and
   * answers how many it passed: 0 when none wait, or on PostgreSQL when another node is indexing
   * and `wait` is false (with `wait`, after that node's batch). See migration 019.
   */
  indexForSearch(limit: number, wait: boolean): Promise<number> {
    return runAtomically(this.db, () => this.indexing(limit, wait));
  }

  private *indexing(limit: number, wait: boolean): Work<number> {
    const { db } = this;
    if (this.dialect === 'postgres') {
      const lock = wait
        ? sql<{ got: boolean }>`select true as got from (select pg_advisory_xact_lock(${SEARCH_INDEX_LOCK})) l`
        : sql<{ got: boolean }>`select pg_try_advisory_xact_lock(${SEARCH_INDEX_LOCK}) as got`;
      if (!(yield lock.compile(db)).rows.some((r) => (r as { got: boolean }).got)) return 0;
    }
    const { through } = (yield sql`select through from search_indexed`.compile(db)).rows[0] as { through: number };
    const { rows } = (yield sql`select id, chat_type, from_user, to_id, search_text, is_undo, is_deleted
      from messages where id > ${through} order by id limit ${limit}`.compile(db)) as QueryResult<
      Pick<MessageRow, 'id' | 'chat_type' | 'from_user' | 'to_id' | 'search_text' | 'is_undo' | 'is_deleted'>
    >;
    if (!rows.length) return 0;
    const live = rows.filter((r) => r.is_deleted === 0 && r.is_undo === 0 && r.search_text !== '');
    if (live.length) yield insertIndexRows(this.dialect, indexRows(live)).compile(db);
    yield sql`update search_indexed set through = ${rows.at(-1)!.id}`.compile(db);
    return rows.length;
  }
}
