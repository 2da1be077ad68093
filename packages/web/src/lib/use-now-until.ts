import { useEffect, useState } from 'react';

/** setTimeout's longest wait; a later deadline is reached in steps. */
const MAX_WAIT_MS = 2_147_483_647;

/**
 * The current time, read again when the nearest future deadline passes, so that a view showing
 * "muted until 14:05" changes at 14:05 without polling. A deadline already past when it arrives
 * is caught by a timer of a few milliseconds.
 */
export function useNowUntil(deadlines: readonly number[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = deadlines.reduce((min, d) => (d > now && d < min ? d : min), Infinity);
  useEffect(() => {
    if (next === Infinity) return;
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, next - Date.now()) + 50);
    const timer = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}
