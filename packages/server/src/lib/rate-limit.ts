/** Counts events per key in a fixed window; the Redis implementation holds across nodes. */
export interface RateLimiter {
  /** Adds one event; returns how many are in the window now and the seconds until it resets. */
  hit(key: string, windowS: number): Promise<{ count: number; resetS: number }>;
  /** How many events are in the window now, without adding one. */
  peek(key: string): Promise<{ count: number; resetS: number }>;
  reset(key: string): Promise<void>;
  /** Takes one token from a bucket of `capacity` refilled at `perSecond`; false when empty. */
  take(key: string, capacity: number, perSecond: number): Promise<{ ok: boolean; retryS: number }>;
  close(): Promise<void>;
}

/** In-process rate limiter for a single node. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async hit(key: string, windowS: number) {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowS * 1000 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetS: Math.ceil((w.resetAt - t) / 1000) };
  }

  async peek(key: string) {
    const t = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= t) return { count: 0, resetS: 0 };
    return { count: w.count, resetS: Math.ceil((w.resetAt - t) / 1000) };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  async take(key: string, capacity: number, perSecond: number) {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: capacity, at: t };
    b.tokens = Math.min(capacity, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    this.buckets.set(key, b);
    if (b.tokens < 1) return { ok: false, retryS: Math.max(1, Math.ceil((1 - b.tokens) / perSecond)) };
    b.tokens -= 1;
    return { ok: true, retryS: 0 };
  }

  async close() {
    clearInterval(this.sweeper);
  }

  private sweep() {
    const t = this.now();
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
    for (const [k, b] of this.buckets) if (t - b.at > 600_000) this.buckets.delete(k);
  }
}

/**
 * The primary limiter (Redis, across nodes) while it answers, this node's own count while it does
 * not: a limiter out of reach must not refuse every call of every user.
 */
export class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly onError: (err: Error) => void,
  ) {}

  private async either<T>(call: (limiter: RateLimiter) => Promise<T>): Promise<T> {
    try {
      return await call(this.primary);
    } catch (err) {
      this.onError(err as Error);
      return call(this.fallback);
    }
  }

  hit(key: string, windowS: number) {
    return this.either((l) => l.hit(key, windowS));
  }

  peek(key: string) {
    return this.either((l) => l.peek(key));
  }

  reset(key: string) {
    return this.either((l) => l.reset(key));
  }

  take(key: string, capacity: number, perSecond: number) {
    return this.either((l) => l.take(key, capacity, perSecond));
  }

  async close() {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
