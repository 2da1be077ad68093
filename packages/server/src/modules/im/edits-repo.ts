import { sql, type QueryResult } from 'kysely';
import type { Db } from '../../db';
import { runAtomically, type Work } from '../../db/at-once';
import type { Dialect } from '../../db/dialect';
import { indexRows, insertIndexRows, SEARCH_INDEX_LOCK } from '../../db/search-index';
import type { MessageRow } from './repo';
import { searchText } from './search-text';

/** An earlier version of an edited text. */
export interface EditRow {
  content: string;
  edited_at: number;
  by: number;
}

/** The new text of an edit, and the version it must replace. */
export interface EditChange {
  msgId: number;
  /** The message's `edited_at` as the caller read it: the edit is made only over that version. */
  expected: number;
  content: string;
  by: number;
  now: number;
}

/**
 * Edited texts (migration 022): replacing a message's text keeps the one it replaces in
 * `message_edits`, and brings the search index to the new words.
 */
export class EditRepo {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Replaces a live message's text, compare-and-set on `edited_at`: the row changes only if it is
   * still the version `expected` names (and neither withdrawn nor deleted), and the text it had
   * becomes one earlier version. Answers the row as it now is, or undefined when another edit,
   * a withdrawal or a deletion came first. In the same transaction the search index drops the
   * message's old words (the trigger of migration 019 as its search text changes, and here again
   * when it does not) and, for a message the indexer has passed, takes the new ones; one it has
   * not reached yet it reads as edited. On PostgreSQL the index's shared lock is held, after the
   * message's row, as a withdrawal holds them.
   */
  edit(change: EditChange): Promise<MessageRow | undefined> {
    return runAtomically(this.db, () => this.editing(change));
  }

  private *editing(c: EditChange): Work<MessageRow | undefined> {
    const { db } = this;
    const pg = this.dialect === 'postgres';
    const read = db.selectFrom('messages').selectAll().where('id', '=', c.msgId);
    const before = (yield (pg ? read.forUpdate() : read).compile()).rows[0] as MessageRow | undefined;
    if (!before || before.is_undo || before.is_deleted || Number(before.edited_at) !== c.expected) return undefined;
    const editedAt = Math.max(c.now, c.expected + 1);
    const search = searchText(before.type, c.content, before.extends);
    const updated = (yield db
      .updateTable('messages')
      .set({ content: c.content, search_text: search, edited_at: editedAt })
      .where('id', '=', c.msgId)
      .where('edited_at', '=', c.expected)
      .where('is_undo', '=', 0)
      .where('is_deleted', '=', 0)
      .returningAll()
      .compile()) as QueryResult<MessageRow>;
    const row = updated.rows[0];
    if (!row) return undefined;
    yield db
      .insertInto('message_edits')
      .values({ msg_id: c.msgId, content: before.content, edited_at: editedAt, by: c.by })
      .compile();
    if (pg) yield sql`select pg_advisory_xact_lock_shared(${SEARCH_INDEX_LOCK})`.compile(db);
    yield (
      pg
        ? sql`delete from message_search where msg_id = ${c.msgId}`
        : sql`delete from message_words where rowid = ${c.msgId}`
    ).compile(db);
    const { through } = (yield sql`select through from search_indexed`.compile(db)).rows[0] as { through: number };
    if (c.msgId <= Number(through) && search !== '')
      yield insertIndexRows(this.dialect, indexRows([{ ...row, search_text: search }])).compile(db);
    return row;
  }

  /** A message's earlier versions, oldest first. */
  async versions(msgId: number): Promise<EditRow[]> {
    const rows = await this.db
      .selectFrom('message_edits')
      .select(['content', 'edited_at', 'by'])
      .where('msg_id', '=', msgId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ content: r.content, edited_at: Number(r.edited_at), by: Number(r.by) }));
  }
}
