/**
 * A unique constraint's refusal, on either database: the way an insert learns that the same key
 * was written first, perhaps by a request at the same moment on another server, after a check
 * that read it free.
 */

/** Whether `err` is a unique constraint's refusal: SQLite's SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY), PostgreSQL's 23505. */
export function isUniqueViolation(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * `write`'s result, or undefined when a unique constraint refused it; any other error is thrown.
 * Not for a write inside a transaction that goes on after it: PostgreSQL ends such a transaction
 * at the error (use `ON CONFLICT` there).
 */
export async function unlessDuplicate<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) return undefined;
    throw err;
  }
}
