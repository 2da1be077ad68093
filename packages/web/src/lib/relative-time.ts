/**
 * Relative time of docs/product.md §9: under a minute "just now", then minutes, hours (the same day),
 * yesterday, days up to 30, then the date. Pure, so lists and tests share one rule.
 */
export type RelativeTime =
  | { kind: 'justNow' }
  | { kind: 'minutes'; count: number }
  | { kind: 'hours'; count: number }
  | { kind: 'yesterday' }
  | { kind: 'days'; count: number }
  | { kind: 'date' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const RELATIVE_DAYS_MAX = 30;

/** Whole calendar days between two instants in local time (0 on the same day). */
export function calendarDaysBetween(earlier: number, later: number): number {
  const a = new Date(earlier);
  const b = new Date(later);
  const dayA = Date.UTC(a.getFullYear(), a.getMonth(), a.getDate());
  const dayB = Date.UTC(b.getFullYear(), b.getMonth(), b.getDate());
  return Math.round((dayB - dayA) / 86_400_000);
}

export function relativeTime(ms: number, now: number): RelativeTime {
  const diff = now - ms;
  // A clock a little ahead of ours still reads as just now.
  if (diff < MINUTE) return { kind: 'justNow' };
  if (diff < HOUR) return { kind: 'minutes', count: Math.floor(diff / MINUTE) };
  const days = calendarDaysBetween(ms, now);
  if (days <= 0) return { kind: 'hours', count: Math.floor(diff / HOUR) };
  if (days === 1) return { kind: 'yesterday' };
  if (days <= RELATIVE_DAYS_MAX) return { kind: 'days', count: days };
  return { kind: 'date' };
}

/** Two messages further apart than this get a time line between them (WeChat's habit). */
export const TIME_SEPARATOR_GAP_MS = 5 * MINUTE;

/** Whether a message sent at `ms` starts a new time block after one sent at `previous`. */
export function needsTimeSeparator(previous: number | undefined, ms: number): boolean {
  return previous === undefined || ms - previous > TIME_SEPARATOR_GAP_MS;
}

type Translate = (
  key: 'time.justNow' | 'time.minutes' | 'time.hours' | 'time.yesterday' | 'time.days',
  options?: { count: number },
) => string;

/** The words for a relative time in the interface language. */
export function formatRelative(ms: number, now: number, t: Translate, locale: string): string {
  const r = relativeTime(ms, now);
  switch (r.kind) {
    case 'justNow':
      return t('time.justNow');
    case 'minutes':
      return t('time.minutes', { count: r.count });
    case 'hours':
      return t('time.hours', { count: r.count });
    case 'yesterday':
      return t('time.yesterday');
    case 'days':
      return t('time.days', { count: r.count });
    case 'date':
      return formatDate(ms, locale, now);
  }
}

/** A date, with the year only when it is not this year's. */
export function formatDate(ms: number, locale: string, now: number): string {
  const sameYear = new Date(ms).getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(locale, {
    year: sameYear ? undefined : 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).format(ms);
}

export function formatClock(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hour12: false }).format(ms);
}

/**
 * The line between blocks of messages: the relative time, and from yesterday on the clock time
 * too, so that a conversation read later still says when things were said.
 */
export function formatSeparator(ms: number, now: number, t: Translate, locale: string): string {
  const r = relativeTime(ms, now);
  const words = formatRelative(ms, now, t, locale);
  if (r.kind === 'justNow' || r.kind === 'minutes' || r.kind === 'hours') return words;
  return `${words} ${formatClock(ms, locale)}`;
}

/** A moment as a date and a time in the reader's language ("2026年11月30日 15:24"): lists of tokens, passkeys and the console's rows. */
export function formatDateTime(ms: number, locale: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
