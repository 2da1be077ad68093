import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolCounts } from '../../db';

/** What the Web Push series read at each scrape (PushService.counts). */
export interface WebPushCounts {
  sent: number;
  gone: number;
  failed: number;
  refused: number;
  dropped: number;
  running: number;
  waiting: number;
  queueDropped: number;
}

/** What the socket gauges read at each scrape: the sockets this node holds, and how many are bound. */
export interface SocketCounts {
  open(): number;
  bound(): number;
}

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const PUSH_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

let runtime: Registry | undefined;

/**
 * The runtime's standard series (CPU, memory, heap, event-loop delay, GC): one set per process,
 * however many servers it builds, since each set keeps an event-loop monitor running.
 */
function runtimeRegistry(): Registry {
  if (!runtime) {
    runtime = new Registry();
    collectDefaultMetrics({ register: runtime });
  }
  return runtime;
}

/**
 * The process's Prometheus metrics (docs/protocol.md §7), in a registry of its own so that two servers in
 * one process (the tests) count apart. What the send path touches is a plain number added to,
 * read into the registry's series only when scraped: a message costs no allocation here.
 */
export class Metrics {
  readonly registry = new Registry();
  /** What is counted as it happens; the series read it at each scrape. */
  private readonly counts = {
    byType: new Map<string, number>(),
    refusals: new Map<string, number>(),
    pushes: 0,
    dbSeconds: 0,
    dbQueries: 0,
    sockets: { open: () => 0, bound: () => 0 } as SocketCounts,
    pool: undefined as (() => PoolCounts) | undefined,
    webPush: undefined as (() => WebPushCounts) | undefined,
  };
  private readonly http: Histogram<'method' | 'route' | 'code'>;
  private readonly httpChildren = new Map<string, Histogram.Internal<'method' | 'route' | 'code'>>();
  private readonly pushDelay: Histogram;

  constructor() {
    runtimeRegistry();
    this.http = new Histogram({
      name: 'sparrow_http_request_duration_seconds',
      help: 'HTTP requests by method, route (its pattern; "unknown" for no route) and status code, and how long they took',
      labelNames: ['method', 'route', 'code'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
    this.pushDelay = new Histogram({
      name: 'sparrow_push_delay_seconds',
      help: 'From a push being published to its frame being written to the sockets on this node',
      buckets: PUSH_BUCKETS,
      registers: [this.registry],
    });
    const read = this.counts;
    new Gauge({
      name: 'sparrow_sockets',
      help: 'Sockets this node holds: open (all) and bound (signed in to a user)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        this.set({ state: 'open' }, read.sockets.open());
        this.set({ state: 'bound' }, read.sockets.bound());
      },
    });
    new Counter({
      name: 'sparrow_messages_sent_total',
      help: 'Messages stored, by type (text, image, event, webrtc…)',
      labelNames: ['type'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [type, n] of read.byType) this.inc({ type }, n);
      },
    });
    new Counter({
      name: 'sparrow_pushes_delivered_total',
      help: 'Pushes handed to the sockets of their users on this node',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read.pushes);
      },
    });
    new Counter({
      name: 'sparrow_rate_limit_refusals_total',
      help: 'Calls refused by a rate limit, by the error answered (TooMany, SendTooFast, LoginLocked…)',
      labelNames: ['limit'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [limit, n] of read.refusals) this.inc({ limit }, n);
      },
    });
    new Counter({
      name: 'sparrow_db_query_seconds_total',
      help: 'Time spent in database statements',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read.dbSeconds);
      },
    });
    new Gauge({
      name: 'sparrow_db_pool_connections',
      help: 'PostgreSQL pool: connections open (total) and idle, and requests waiting for one (waiting)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const pool = read.pool?.();
        if (!pool) return;
        for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, pool[state]);
      },
    });
    new Counter({
      name: 'sparrow_web_push_total',
      help: 'Web Push requests by outcome: sent, gone (404/410, subscription deleted), failed, refused (an internal address or a host not allowed, never contacted; counted in failed too), dropped (from a full queue, never sent)',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        this.reset();
        const push = read.webPush?.();
        if (!push) return;
        for (const outcome of ['sent', 'gone', 'failed', 'refused'] as const) this.inc({ outcome }, push[outcome]);
        this.inc({ outcome: 'dropped' }, push.queueDropped);
      },
    });
    new Counter({
      name: 'sparrow_web_push_subscriptions_dropped_total',
      help: 'Web Push subscriptions deleted after failing too many times in a row',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read.webPush?.().dropped ?? 0);
      },
    });
    new Gauge({
      name: 'sparrow_web_push_queue',
      help: 'Web Push requests in flight (running) and waiting for a slot (waiting) on this node',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const push = read.webPush?.();
        this.set({ state: 'running' }, push?.running ?? 0);
        this.set({ state: 'waiting' }, push?.waiting ?? 0);
      },
    });
    new Counter({
      name: 'sparrow_db_queries_total',
      help: 'Database statements run',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read.dbQueries);
      },
    });
  }

  /** Where the socket gauges read from (the hub, once it exists). */
  watchSockets(sockets: SocketCounts): void {
    this.counts.sockets = sockets;
  }

  /** Where the pool gauge reads from (PostgreSQL's pool; none on SQLite). */
  watchPool(pool: () => PoolCounts): void {
    this.counts.pool = pool;
  }

  /** Where the Web Push series read from (the push service, once it exists). */
  watchWebPush(counts: () => WebPushCounts): void {
    this.counts.webPush = counts;
  }

  /** One HTTP request answered; `route` is the matched pattern, so ids in paths do not make new series. */
  request(method: string, route: string, code: number, seconds: number): void {
    const key = `${method} ${code} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.http.labels({ method, route, code: String(code) });
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  messageStored(type: string): void {
    this.counts.byType.set(type, (this.counts.byType.get(type) ?? 0) + 1);
  }

  /** A push handed to the sockets of its users on this node, `delayMs` after it was published. */
  pushDelivered(delayMs: number): void {
    this.counts.pushes++;
    this.pushDelay.observe(delayMs / 1000);
  }

  refused(limit: string): void {
    this.counts.refusals.set(limit, (this.counts.refusals.get(limit) ?? 0) + 1);
  }

  /** One database statement that took `ms`. */
  query(ms: number): void {
    this.counts.dbQueries++;
    this.counts.dbSeconds += ms / 1000;
  }

  /** The Prometheus text exposition of every series. */
  async text(): Promise<string> {
    const [own, runtimeText] = await Promise.all([this.registry.metrics(), runtimeRegistry().metrics()]);
    return `${own}\n${runtimeText}`;
  }
}
