import type { Redis } from 'ioredis';
import { loadRedis } from '../../lib/lazy';
import type { OpsRepo } from './repo';

/** How long the database and Redis have to answer before the server is not ready (docs/protocol.md §7). */
export const READY_TIMEOUT_MS = 1_000;

/** One part's state: `ok`, or why it is not ready (`stopping`: the process itself, draining before it closes). */
export type PartState = 'ok' | 'timeout' | 'stopping' | `error: ${string}`;

export interface ReadyReport {
  ready: boolean;
  parts: Record<string, PartState>;
}

function within(promise: Promise<unknown>, ms: number): Promise<PartState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PartState>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const answered = promise.then(
    (): PartState => 'ok',
    (err: unknown): PartState => `error: ${err instanceof Error ? err.message : String(err)}`,
  );
  return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this process can serve: the database and Redis (when configured) each answer within
 * READY_TIMEOUT_MS. Redis is asked over a connection of its own that does not retry, so a lost
 * Redis shows at once rather than after the bus's retries. A process told to stop is not ready
 * while it drains (`stopping`, SHUTDOWN_DRAIN_MS in main.ts) and goes on serving everything else;
 * once closing, it answers 503 to every request before any handler runs (Fastify's
 * return503OnClosing), this probe's included.
 */
export class Readiness {
  private readonly redis: Redis | undefined;
  private stopping = false;

  constructor(
    private readonly repo: OpsRepo,
    redisUrl: string | undefined,
  ) {
    if (redisUrl) {
      this.redis = new (loadRedis().Redis)(redisUrl, { maxRetriesPerRequest: 0, connectTimeout: READY_TIMEOUT_MS });
      // A lost connection is reported by the probe; ioredis would otherwise print each attempt.
      this.redis.on('error', () => undefined);
    }
  }

  async check(): Promise<ReadyReport> {
    const checks: Array<Promise<[string, PartState]>> = [
      within(this.repo.ping(), READY_TIMEOUT_MS).then((s) => ['database', s]),
    ];
    if (this.redis) {
      const redis = this.redis;
      checks.push(within(redis.ping(), READY_TIMEOUT_MS).then((s) => ['redis', s]));
    }
    const parts: Record<string, PartState> = Object.fromEntries(await Promise.all(checks));
    if (this.stopping) parts.server = 'stopping';
    return { ready: Object.values(parts).every((s) => s === 'ok'), parts };
  }

  /** The process is stopping: not ready from now on, so that a load balancer sends no more to it. */
  stop(): void {
    this.stopping = true;
  }

  close(): void {
    this.redis?.disconnect();
  }
}
