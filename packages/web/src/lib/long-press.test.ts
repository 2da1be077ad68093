import { LONG_PRESS_MS, LONG_PRESS_TOLERANCE_PX } from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LongPress } from './long-press';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const fired: Array<[number, number]> = [];
  const lp = new LongPress({ onLongPress: (x, y) => fired.push([x, y]) });
  return { lp, fired };
}

describe('long press (docs/product.md §9: 350 ms, 10 px)', () => {
  it('fires after 350 ms held still, at the press point, and says so on release', () => {
    const { lp, fired } = setup();
    lp.down(100, 200);
    vi.advanceTimersByTime(LONG_PRESS_MS - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([[100, 200]]);
    expect(lp.up()).toBe(true);
  });

  it('a short tap does not fire and is an ordinary click', () => {
    const { lp, fired } = setup();
    lp.down(0, 0);
    vi.advanceTimersByTime(200);
    expect(lp.up()).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual([]);
  });

  it('tolerates a finger wandering up to 10 px', () => {
    const { lp, fired } = setup();
    lp.down(50, 50);
    lp.move(50 + 6, 50 + 8);
    vi.advanceTimersByTime(LONG_PRESS_MS);
    expect(fired).toHaveLength(1);
    expect(LONG_PRESS_TOLERANCE_PX).toBe(10);
  });

  it('moving further is a scroll: no long press', () => {
    const { lp, fired } = setup();
    lp.down(50, 50);
    lp.move(50, 50 + LONG_PRESS_TOLERANCE_PX + 1);
    vi.advanceTimersByTime(LONG_PRESS_MS * 2);
    expect(fired).toEqual([]);
    expect(lp.up()).toBe(false);
  });

  it('cancel (pointer left, scroll started) stops it', () => {
    const { lp, fired } = setup();
    lp.down(0, 0);
    lp.cancel();
    vi.advanceTimersByTime(LONG_PRESS_MS);
    expect(fired).toEqual([]);
  });

  it('a new press starts afresh', () => {
    const { lp, fired } = setup();
    lp.down(0, 0);
    vi.advanceTimersByTime(300);
    lp.down(5, 5);
    vi.advanceTimersByTime(300);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(fired).toEqual([[5, 5]]);
  });
});
