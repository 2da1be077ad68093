/**
 * A media URL this app may load in a player or viewer: a file of our own `/storage/`, never
 * another origin's address passed in a link.
 */
export function storageUrl(src: string | null | undefined, origin = globalThis.location?.origin): string | null {
  if (!src || !origin) return null;
  try {
    const url = new URL(src, origin);
    if (url.origin !== origin || !url.pathname.startsWith('/storage/')) return null;
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

/** `m:ss` for a duration in seconds (video length labels). */
export function formatClockDuration(seconds: number): string {
  const s = Math.max(0, Math.round(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
