/** File size units of docs/product.md §9, each 1024 times the one before. */
export const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte count as people read it: `512 B`, `1.5 KB`, `23.4 MB`, `117 MB`. One decimal under 100,
 * none from 100 up; a trailing `.0` is dropped. Anything not a finite positive number reads `0 B`.
 */
export function formatFileSize(bytes: number): string {
  let n = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  let unit = 0;
  while (n >= 1024 && unit < SIZE_UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(n)} B`;
  // 1023.96 KB would print as "1024 KB": round first, then move up a unit if it reached 1024.
  let shown = n < 100 ? Math.round(n * 10) / 10 : Math.round(n);
  if (shown >= 1024 && unit < SIZE_UNITS.length - 1) {
    shown = 1;
    unit++;
  }
  return `${String(shown)} ${SIZE_UNITS[unit]}`;
}

/** Megabytes (how `fileUpload.size` and `emojiSize` are configured) in bytes. */
export const mbToBytes = (mb: number): number => Math.floor(mb * 1024 * 1024);
