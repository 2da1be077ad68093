/**
 * Which announcement each person last dismissed in each group, on this device, so the banner at
 * the top of a chat shows a changed announcement once. Kept by a fingerprint of its HTML.
 */
const KEY = 'groupNoticeSeen';

/** FNV-1a over the UTF-16 code units: short, stable, enough to tell one announcement from the next. */
export function noticeFingerprint(notice: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < notice.length; i += 1) {
    h ^= notice.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${notice.length.toString(36)}-${h.toString(36)}`;
}

function read(): Record<string, string> {
  try {
    const raw = localStorage.getItem(KEY);
    const value: unknown = raw ? JSON.parse(raw) : {};
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

const slot = (userId: number, groupId: string) => `${userId}:${groupId}`;

export function isNoticeSeen(userId: number, groupId: string, notice: string): boolean {
  return read()[slot(userId, groupId)] === noticeFingerprint(notice);
}

export function markNoticeSeen(userId: number, groupId: string, notice: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...read(), [slot(userId, groupId)]: noticeFingerprint(notice) }));
  } catch {
    // Storage full or disabled: the banner comes back next time, nothing worse.
  }
}
