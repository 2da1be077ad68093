import { graphemeLength } from './text';

/**
 * 最近在线 and 状态 (docs/product.md §3): how a last-seen time and a status's expiry read, and whether a
 * status still shows. The server and the web client ask these, never a copy of them.
 */

/** A person's status (状态) as it is presented: a short text, one emoji or '', and when it ends. */
export interface UserStatus {
  /** At most STATUS_TEXT_MAX characters; '' when only the emoji is set. */
  text: string;
  /** One emoji, or ''. */
  emoji: string;
  /** When it stops showing, ms; null while it lasts until changed. */
  until: number | null;
}

/** Who sees my last-seen time (最近在线): 0 everyone who may see my profile, 1 friends only (仅好友), 2 nobody (不显示). */
export type LastSeenTo = 0 | 1 | 2;

/** The emoji the status page offers (any single emoji is accepted). */
export const STATUS_EMOJI_PRESETS = ['📅', '💼', '🍜', '🚗', '🏖️', '🤒', '🎧', '🌙'] as const;

/** A text a client shows through its translations: the key and its parameters. */
export interface Label {
  key:
    | 'lastSeen.justNow'
    | 'lastSeen.minutes'
    | 'lastSeen.hours'
    | 'lastSeen.yesterday'
    | 'lastSeen.date'
    | 'lastSeen.fullDate'
    | 'status.untilTime'
    | 'status.untilDate';
  params: Record<string, string | number>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A last-seen time as the server presents it: rounded down to the minute, so no one learns the second. */
export function roundLastSeen(ms: number): number {
  return Math.floor(ms / MINUTE) * MINUTE;
}

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/**
 * How long ago someone was last seen, as messengers round it (in the reader's local time): 刚刚 under
 * a minute, N分钟前 under an hour, N小时前 under a day, 昨天 HH:mm on the calendar day before, then the
 * date (with its year when not this year's). A time ahead of `now` (another clock) reads as 刚刚.
 */
export function lastSeenLabel(lastSeen: number, now: number): Label {
  const ago = now - lastSeen;
  if (ago < MINUTE) return { key: 'lastSeen.justNow', params: {} };
  if (ago < HOUR) return { key: 'lastSeen.minutes', params: { count: Math.floor(ago / MINUTE) } };
  if (ago < DAY) return { key: 'lastSeen.hours', params: { count: Math.floor(ago / HOUR) } };
  const seen = new Date(lastSeen);
  const today = new Date(now);
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1).getTime();
  if (dayStart(seen) === yesterday) return { key: 'lastSeen.yesterday', params: { time: clock(seen) } };
  const month = seen.getMonth() + 1;
  const day = seen.getDate();
  if (seen.getFullYear() === today.getFullYear()) return { key: 'lastSeen.date', params: { month, day } };
  return { key: 'lastSeen.fullDate', params: { year: seen.getFullYear(), month, day } };
}

/** When a status ends, as its owner and readers see it: the time alone when it is today, else the date and time. */
export function statusUntilLabel(until: number, now: number): Label {
  const end = new Date(until);
  if (dayStart(end) === dayStart(new Date(now))) return { key: 'status.untilTime', params: { time: clock(end) } };
  return { key: 'status.untilDate', params: { month: end.getMonth() + 1, day: end.getDate(), time: clock(end) } };
}

/** The status still to show at `now`: none when empty or past its `until`. */
export function liveStatus(status: UserStatus | null | undefined, now: number): UserStatus | null {
  if (!status || (!status.text && !status.emoji)) return null;
  if (status.until !== null && status.until <= now) return null;
  return status;
}

/** The end of the local day of `now` (23:59:59.999), the status page's 今天 expiry. */
export function endOfDay(now: number): number {
  const d = new Date(now);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() - 1;
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
/** Drawn as a picture: by default (Emoji_Presentation), or asked to be (U+FE0F); © or ™ alone is text. */
const AS_PICTURE = /\p{Emoji_Presentation}|\uFE0F/u;
/** A keycap: a digit, # or *, the optional U+FE0F, and U+20E3 (1️⃣ #️⃣). */
const KEYCAP = /^[0-9#*]\uFE0F?\u20E3$/u;

/**
 * True for one emoji (a single grapheme drawn as a picture: a flag, a skin tone, a family, a
 * keycap), or ''. A character that is text by default (©, ™, ❤) counts with its U+FE0F only.
 */
export function isStatusEmoji(text: string): boolean {
  if (text === '') return true;
  if (text.length > 16 || graphemeLength(text, 1) !== 1) return false;
  return KEYCAP.test(text) || (PICTOGRAPHIC.test(text) && AS_PICTURE.test(text));
}
