import SQLite from 'better-sqlite3';

/**
 * Copies the SQLite database `source` to `dest` through SQLite's online backup API while the server
 * keeps running and writing: the copy is the database as of one moment, every write committed
 * before it included, in one file (rollback journal mode). Used by the operator's `backup`, the
 * copy taken before an upgrade and the check's scratch copy.
 */
export async function copySqlite(source: string, dest: string): Promise<void> {
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    // All the pages in one step: one read transaction, so a consistent copy however busy the
    // writers are (in steps, each write of another connection would start the copy over).
    await live.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  // The copy comes in the live database's WAL mode: in rollback mode it is one file, whoever opens it.
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** SQLite's `PRAGMA integrity_check` of a database file: 'ok', or what it found. */
export function sqliteIntegrity(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}
