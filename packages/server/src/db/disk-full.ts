/**
 * A write the disk had no room for, on either database or in a file of ours: SQLite's SQLITE_FULL
 * (its file cannot grow), PostgreSQL's 53100 disk_full, or Node's ENOSPC. The condition lasts
 * until an operator frees space; the caller is told to try later (503), as an upload is, rather
 * than that the server failed.
 */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
