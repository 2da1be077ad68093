import { LONG_PRESS_MS, LONG_PRESS_TOLERANCE_PX } from '@sparrow/protocol';

export interface LongPressTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const defaultTimers: LongPressTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface LongPressOptions {
  onLongPress: (x: number, y: number) => void;
  ms?: number;
  /** How far the finger may wander before the press counts as a scroll. */
  tolerance?: number;
  timers?: LongPressTimers;
}

/**
 * Long-press detection (docs/product.md §9: 350 ms, 10 px tolerance) as a small state machine, free of
 * the DOM so that it can be tested with fake timers. `up()` answers whether the press fired,
 * so the caller can swallow the click that follows a long press.
 */
export class LongPress {
  private timer: unknown = null;
  private start: { x: number; y: number } | null = null;
  private fired = false;
  private readonly ms: number;
  private readonly tolerance: number;
  private readonly timers: LongPressTimers;

  constructor(private readonly options: LongPressOptions) {
    this.ms = options.ms ?? LONG_PRESS_MS;
    this.tolerance = options.tolerance ?? LONG_PRESS_TOLERANCE_PX;
    this.timers = options.timers ?? defaultTimers;
  }

  down(x: number, y: number): void {
    this.clear();
    this.fired = false;
    this.start = { x, y };
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      if (!this.start) return;
      this.fired = true;
      this.options.onLongPress(this.start.x, this.start.y);
    }, this.ms);
  }

  move(x: number, y: number): void {
    if (!this.start || this.timer === null) return;
    if (Math.hypot(x - this.start.x, y - this.start.y) > this.tolerance) this.cancel();
  }

  /** The finger lifted: answers true when the long press fired during this press. */
  up(): boolean {
    const fired = this.fired;
    this.clear();
    this.start = null;
    return fired;
  }

  cancel(): void {
    this.clear();
    this.start = null;
  }

  private clear(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}
