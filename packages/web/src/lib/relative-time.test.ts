import { describe, expect, it } from 'vitest';
import en from '../i18n/locales/en.json';
import zh from '../i18n/locales/zh-Hans.json';
import { formatRelative, formatSeparator, needsTimeSeparator, relativeTime } from './relative-time';

const at = (y: number, mo: number, d: number, h = 12, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();
const now = at(2025, 9, 16, 15, 30);

function translator(messages: { time: Record<string, string> }) {
  return (key: string, options?: { count: number }) =>
    messages.time[key.slice('time.'.length)]!.replace('{{count}}', String(options?.count ?? ''));
}

describe('relative time (docs/product.md §9)', () => {
  it('under a minute is just now, also for a clock a little ahead', () => {
    expect(relativeTime(now - 59_999, now)).toEqual({ kind: 'justNow' });
    expect(relativeTime(now + 5000, now)).toEqual({ kind: 'justNow' });
  });

  it('then minutes, then hours on the same day', () => {
    expect(relativeTime(now - 60_000, now)).toEqual({ kind: 'minutes', count: 1 });
    expect(relativeTime(now - 59 * 60_000, now)).toEqual({ kind: 'minutes', count: 59 });
    expect(relativeTime(now - 60 * 60_000, now)).toEqual({ kind: 'hours', count: 1 });
    expect(relativeTime(at(2025, 9, 16, 0, 1), now)).toEqual({ kind: 'hours', count: 15 });
  });

  it('yesterday by the calendar, even when fewer than 24 hours ago', () => {
    expect(relativeTime(at(2025, 9, 15, 23, 59), now)).toEqual({ kind: 'yesterday' });
    expect(relativeTime(at(2025, 9, 15, 0, 0), now)).toEqual({ kind: 'yesterday' });
  });

  it('days up to 30, then the date', () => {
    expect(relativeTime(at(2025, 9, 14), now)).toEqual({ kind: 'days', count: 2 });
    expect(relativeTime(at(2025, 8, 17), now)).toEqual({ kind: 'days', count: 30 });
    expect(relativeTime(at(2025, 8, 16), now)).toEqual({ kind: 'date' });
  });

  it('says it in the interface language', () => {
    expect(formatRelative(now - 10_000, now, translator(zh), 'zh-Hans')).toBe('刚刚');
    expect(formatRelative(now - 5 * 60_000, now, translator(zh), 'zh-Hans')).toBe('5分钟前');
    expect(formatRelative(now - 3 * 3600_000, now, translator(en), 'en')).toBe('3 h ago');
    expect(formatRelative(at(2025, 9, 15), now, translator(en), 'en')).toBe('Yesterday');
    expect(formatRelative(at(2025, 9, 10), now, translator(zh), 'zh-Hans')).toBe('6天前');
    expect(formatRelative(at(2025, 3, 2), now, translator(en), 'en')).toBe('3/2');
    expect(formatRelative(at(2024, 3, 2), now, translator(en), 'en')).toBe('3/2/2024');
  });

  it('time lines add the clock time from yesterday on', () => {
    expect(formatSeparator(now - 120_000, now, translator(zh), 'zh-Hans')).toBe('2分钟前');
    expect(formatSeparator(at(2025, 9, 15, 9, 5), now, translator(zh), 'zh-Hans')).toBe('昨天 09:05');
  });

  it('puts a time line before the first message and after a gap of more than five minutes', () => {
    expect(needsTimeSeparator(undefined, now)).toBe(true);
    expect(needsTimeSeparator(now - 5 * 60_000, now)).toBe(false);
    expect(needsTimeSeparator(now - 5 * 60_000 - 1, now)).toBe(true);
  });
});
