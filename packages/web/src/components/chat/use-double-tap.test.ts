import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOUBLE_TAP_MS, DoubleTap } from './use-double-tap';

describe('DoubleTap', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const detector = () => {
    const on = { tap: vi.fn(), doubleTap: vi.fn() };
    return { on, taps: new DoubleTap(on) };
  };

  it('acts on a double tap at once and never on its taps', () => {
    const { on, taps } = detector();
    taps.tap();
    vi.advanceTimersByTime(DOUBLE_TAP_MS / 2);
    taps.tap();
    expect(on.doubleTap).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DOUBLE_TAP_MS * 2);
    expect(on.tap).not.toHaveBeenCalled();
  });

  it('acts on a single tap once the window has passed, and two slow taps are two taps', () => {
    const { on, taps } = detector();
    taps.tap();
    expect(on.tap).not.toHaveBeenCalled();
    vi.advanceTimersByTime(DOUBLE_TAP_MS);
    expect(on.tap).toHaveBeenCalledTimes(1);
    taps.tap();
    vi.advanceTimersByTime(DOUBLE_TAP_MS);
    expect(on.tap).toHaveBeenCalledTimes(2);
    expect(on.doubleTap).not.toHaveBeenCalled();
  });

  it('forgets a tap it was told to cancel (the row left the screen)', () => {
    const { on, taps } = detector();
    taps.tap();
    taps.cancel();
    vi.advanceTimersByTime(DOUBLE_TAP_MS);
    expect(on.tap).not.toHaveBeenCalled();
  });
});
