import { describe, expect, it } from 'vitest';
import { endOfDay, isStatusEmoji, lastSeenLabel, liveStatus, roundLastSeen, statusUntilLabel } from './presence';

// Clocks in local time, so that the rule reads the same in any time zone.
const at = (month: number, day: number, hour: number, minute: number, second = 0, year = 2026) =>
  new Date(year, month - 1, day, hour, minute, second).getTime();
const NOW = at(11, 30, 15, 0);

describe('lastSeenLabel: how long ago, as messengers round it', () => {
  it('says 刚刚 under a minute, and for a clock ahead of ours', () => {
    expect(lastSeenLabel(NOW - 59_000, NOW)).toEqual({ key: 'lastSeen.justNow', params: {} });
    expect(lastSeenLabel(NOW, NOW).key).toBe('lastSeen.justNow');
    expect(lastSeenLabel(NOW + 30_000, NOW).key).toBe('lastSeen.justNow');
  });

  it('counts whole minutes under an hour', () => {
    expect(lastSeenLabel(NOW - 60_000, NOW)).toEqual({ key: 'lastSeen.minutes', params: { count: 1 } });
    expect(lastSeenLabel(NOW - 10 * 60_000 - 59_000, NOW)).toEqual({ key: 'lastSeen.minutes', params: { count: 10 } });
    expect(lastSeenLabel(NOW - 59 * 60_000, NOW).params).toEqual({ count: 59 });
  });

  it('counts whole hours under a day, even across midnight', () => {
    expect(lastSeenLabel(NOW - 3_600_000, NOW)).toEqual({ key: 'lastSeen.hours', params: { count: 1 } });
    expect(lastSeenLabel(at(11, 29, 15, 1), NOW)).toEqual({ key: 'lastSeen.hours', params: { count: 23 } });
  });

  it('says 昨天 HH:mm for yesterday past a day ago', () => {
    const now = at(11, 30, 0, 30);
    expect(lastSeenLabel(at(11, 29, 0, 5), now)).toEqual({ key: 'lastSeen.yesterday', params: { time: '00:05' } });
  });

  it('gives the date before that, with its year only when another year', () => {
    expect(lastSeenLabel(at(11, 28, 9, 0), NOW)).toEqual({ key: 'lastSeen.date', params: { month: 11, day: 28 } });
    expect(lastSeenLabel(at(12, 31, 23, 0, 0, 2025), NOW)).toEqual({
      key: 'lastSeen.fullDate',
      params: { year: 2025, month: 12, day: 31 },
    });
  });

  it('is rounded down to the minute by the server', () => {
    expect(roundLastSeen(at(11, 30, 14, 7, 42) + 123)).toBe(at(11, 30, 14, 7));
  });
});

describe('a status: until when, and whether it still shows', () => {
  const status = { text: '开会中', emoji: '📅', until: at(11, 30, 16, 0) };

  it('shows the time alone when it ends today, else the date too', () => {
    expect(statusUntilLabel(status.until, NOW)).toEqual({ key: 'status.untilTime', params: { time: '16:00' } });
    expect(statusUntilLabel(at(12, 1, 9, 30), NOW)).toEqual({
      key: 'status.untilDate',
      params: { month: 12, day: 1, time: '09:30' },
    });
  });

  it('stops showing at its end, and when empty', () => {
    expect(liveStatus(status, NOW)).toBe(status);
    expect(liveStatus(status, status.until)).toBeNull();
    expect(liveStatus({ ...status, until: null }, at(1, 1, 0, 0, 0, 2030))).not.toBeNull();
    expect(liveStatus({ text: '', emoji: '', until: null }, NOW)).toBeNull();
    expect(liveStatus(null, NOW)).toBeNull();
  });

  it('ends "today" at the last moment of the local day', () => {
    expect(endOfDay(NOW)).toBe(at(12, 1, 0, 0) - 1);
  });

  it('takes one emoji, however many code points draw it, or none', () => {
    for (const one of ['', '📅', '🏖️', '👍🏽', '👨‍👩‍👧', '🇨🇳']) expect(isStatusEmoji(one), one).toBe(true);
    for (const bad of ['📅📅', 'a', '开', '📅 ', ':)']) expect(isStatusEmoji(bad), bad).toBe(false);
    // Keycaps are emoji; characters drawn as text by default only with U+FE0F.
    for (const one of ['1️⃣', '#️⃣', '*️⃣', '1\u20E3', '©️', '™️', '❤️']) expect(isStatusEmoji(one), one).toBe(true);
    for (const bad of ['©', '™', '❤', '1', '#', '1️⃣1️⃣', 'a\uFE0F', '1\uFE0F'])
      expect(isStatusEmoji(bad), bad).toBe(false);
  });
});
