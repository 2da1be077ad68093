import path from 'node:path';
import { parseS3Url } from './storage/s3-url';
import { hostList, type HostResolver } from './lib/outbound';
import type { PushLimits } from './modules/push/limits';
import { CALL_LOCK_TTL_MS, CALL_PEER_GONE_MS, CALL_RING_TIMEOUT_MS } from '@sparrow/protocol';

/** Process configuration, from the environment (docs/operations.md "Configuration"). */
export interface ServerConfig {
  port: number;
  host: string;
  /** Where the SQLite file, uploads and the outbox live. */
  dataDir: string;
  /** PostgreSQL URL; SQLite in dataDir when absent. */
  databaseUrl: string | undefined;
  /** Redis URL for the cross-node bus, presence and rate limits; in-process when absent. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel, so deployments sharing one Redis stay apart. */
  redisPrefix: string;
  /**
   * Where uploads live when several server processes share them: `s3://bucket?endpoint=…` (an
   * S3-compatible store, docs/operations.md "Configuration"); `<dataDir>/uploads` when absent.
   */
  storageUrl: string | undefined;
  /** SMTP URL for verification codes; the log and data/outbox when absent. */
  smtpUrl: string | undefined;
  /** The address users reach this server at (links in QR codes and mails). */
  publicUrl: string;
  /**
   * True when PUBLIC_URL was set. Without it, a QR link names the address the client used (the
   * request's origin, as far as TRUST_PROXY trusts forwarded headers), not `publicUrl`'s localhost.
   */
  publicUrlSet: boolean;
  /** The built web client to serve at `/`; not served when absent. */
  webDist: string | undefined;
  logLevel: string;
  /** How often the configuration table is checked for changes by other processes, ms. */
  configPollMs: number;
  /** How often each node pushes messages stored and never pushed, ms (OUTBOX_SWEEP_MS); 0: never, not even at start. */
  outboxSweepMs: number;
  /**
   * How often each node indexes new messages for search, ms (SEARCH_INDEX_MS); 0: only before a
   * search, which always brings the index up to date first.
   */
  searchIndexMs: number;
  /** How often each node runs the retention sweep, ms (RETENTION_SWEEP_MS, a day); 0: only on demand and when a policy changes. */
  retentionSweepMs: number;
  /**
   * How often each node looks for data exports to build and archives to delete, ms (EXPORT_SWEEP_MS);
   * 0: only at start and when one is asked for.
   */
  exportSweepMs: number;
  /**
   * Which peers may set X-Forwarded-For (true: any). Per-IP limits (login lockout, registration
   * interval) hold only when a client cannot choose its own address.
   */
  trustProxy: boolean | string;
  /**
   * Registrations one client address may make per hour (REGISTER_PER_HOUR; 0: no limit), beside
   * the console's `registerInterval`: without it one address could make accounts without end.
   */
  registerPerHour: number;
  /** TURN servers handed to callers with short-lived credentials (TURN_URLS, comma-separated). */
  turnUrls: string[];
  /** The secret coturn's `use-auth-secret` shares with us (TURN_SECRET). */
  turnSecret: string | undefined;
  /** How long TURN credentials hold, s. */
  turnTtlS: number;
  /** 'relay' makes clients use TURN only, hiding their addresses from each other. */
  iceTransportPolicy: 'all' | 'relay';
  /** Bearer token that lets a scraper not on this machine read /metrics (METRICS_TOKEN); loopback only when absent. */
  metricsToken: string | undefined;
  /** Accept push subscriptions at plain-http push services (PUSH_ALLOW_HTTP=1; tests and local push servers only). */
  pushAllowHttp: boolean;
  /**
   * Push service hosts allowed (PUSH_ALLOWED_HOSTS: names, or suffixes such as
   * `.push.services.mozilla.com`); any host at a public address when empty.
   */
  pushAllowedHosts: string[];
  /**
   * Push services at loopback and private addresses too (PUSH_ALLOW_INTERNAL=1): tests, and a push
   * server on the operator's own network together with PUSH_ALLOWED_HOSTS. Never on by default.
   */
  pushAllowInternal: boolean;
  /** Bot webhooks at plain-http URLs (BOT_WEBHOOK_ALLOW_HTTP=1; tests and a bot on the server's own machine). */
  botWebhookAllowHttp: boolean;
  /** Bot webhook hosts allowed (BOT_WEBHOOK_ALLOWED_HOSTS, names or suffixes); any host at a public address when empty. */
  botWebhookAllowedHosts: string[];
  /** Bot webhooks at loopback and private addresses too (BOT_WEBHOOK_ALLOW_INTERNAL=1): tests, and bots on the operator's own network. */
  botWebhookAllowInternal: boolean;
  /**
   * How often each node tries the bot deliveries due, ms (BOT_DELIVERY_SWEEP_MS; the shortest retry's
   * delay, 5 000): retries and what a stopped node left; an event owed is tried at once. 0: only then.
   */
  botDeliverySweepMs: number;
  /** Outbound push limits (modules/push/service.ts `PUSH_LIMITS`); changed by tests only. */
  pushLimits?: Partial<PushLimits>;
  /** Resolves host names for outbound requests (lib/outbound.ts); the system's resolver when absent, a table in tests. */
  resolveHost?: HostResolver;
  /**
   * How long a process told to stop (SIGTERM) goes on serving while /readyz answers 503, before it
   * closes, ms (SHUTDOWN_DRAIN_MS; 0: it closes at once): long enough for a load balancer probing
   * /readyz to take it out first. SIGINT (Ctrl-C) closes at once.
   */
  shutdownDrainMs: number;
  /** Call timings, ms; shortened by tests only (docs/operations.md "Configuration"). */
  calls: { ringTimeoutMs: number; lockTtlMs: number; peerGoneMs: number; sweepMs: number };
  /** What one client may hold of this process (docs/operations.md "Configuration", "Security and failures"). */
  resources: ResourceLimits;
}

/** Bounds on what one client may hold of a server process; each from its environment variable. */
export interface ResourceLimits {
  /** Uploads one user may have in progress at once (UPLOADS_PER_USER). */
  uploadsPerUser: number;
  /** Uploads in progress at once, everyone's (UPLOADS_IN_FLIGHT). */
  uploadsInFlight: number;
  /**
   * Open TCP connections one address may hold (CONNECTIONS_PER_ADDRESS; 0: no cap). Proxies that
   * TRUST_PROXY trusts are not capped: every client's connections come through them.
   */
  connectionsPerAddress: number;
  /** Sockets one user may have bound at once; the oldest is closed for a new one (SOCKETS_PER_USER). */
  socketsPerUser: number;
  /** How long a request may take to arrive, headers and body, ms (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** How long a request's headers may take to arrive, ms (HTTP_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** A connection on which nothing moves this long is closed, ms (HTTP_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
  /** How long an idle keep-alive connection waits for its next request, ms (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
}

/** A whole number from the environment, or the default when unset or not one. */
function count(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}

const here = path.dirname(new URL(import.meta.url).pathname);
const repoRoot = path.resolve(here, '../../..');

/**
 * TRUST_PROXY: "true", "false", or addresses and ranges; by default a proxy on this host only. Not
 * the private networks too: any device of a LAN could then name itself any client address and
 * walk past the per-address login lockout and registration limit. A LAN proxy is named by address.
 */
function trustProxyOf(value: string | undefined): boolean | string {
  if (value === undefined || value === '') return 'loopback';
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

/**
 * REGISTER_PER_HOUR: a whole number, 20 when absent or not one. Twenty a family or a small office
 * behind one address does not reach in an hour; a larger group joining at once is let in by the
 * console (manage/userCreate, invitations) or by raising it.
 */
/** STORAGE_URL, checked at start so that a mistyped one stops the server instead of losing uploads. */
function storageUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  parseS3Url(value);
  return value;
}

/** Reads the configuration from environment variables, with defaults for a one-machine install. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8000);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(process.cwd(), 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX ?? 'sparrow:',
    storageUrl: storageUrlOf(env.STORAGE_URL),
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    publicUrlSet: Boolean(env.PUBLIC_URL),
    webDist: env.WEB_DIST ?? path.join(repoRoot, 'packages/web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    configPollMs: Number(env.CONFIG_POLL_MS ?? 2000),
    outboxSweepMs: Number(env.OUTBOX_SWEEP_MS ?? 5000),
    searchIndexMs: Number(env.SEARCH_INDEX_MS ?? 250),
    retentionSweepMs: Number(env.RETENTION_SWEEP_MS ?? 86_400_000),
    exportSweepMs: Number(env.EXPORT_SWEEP_MS ?? 5000),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    registerPerHour: count(env.REGISTER_PER_HOUR, 20),
    turnUrls: (env.TURN_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    turnSecret: env.TURN_SECRET || undefined,
    turnTtlS: Number(env.TURN_TTL_S ?? 86_400),
    iceTransportPolicy: env.ICE_TRANSPORT_POLICY === 'relay' ? 'relay' : 'all',
    metricsToken: env.METRICS_TOKEN || undefined,
    pushAllowHttp: env.PUSH_ALLOW_HTTP === '1',
    pushAllowedHosts: hostList(env.PUSH_ALLOWED_HOSTS),
    pushAllowInternal: env.PUSH_ALLOW_INTERNAL === '1',
    botWebhookAllowHttp: env.BOT_WEBHOOK_ALLOW_HTTP === '1',
    botWebhookAllowedHosts: hostList(env.BOT_WEBHOOK_ALLOWED_HOSTS),
    botWebhookAllowInternal: env.BOT_WEBHOOK_ALLOW_INTERNAL === '1',
    botDeliverySweepMs: count(env.BOT_DELIVERY_SWEEP_MS, 5_000),
    shutdownDrainMs: count(env.SHUTDOWN_DRAIN_MS, 0),
    calls: {
      ringTimeoutMs: Number(env.CALL_RING_TIMEOUT_MS ?? CALL_RING_TIMEOUT_MS),
      lockTtlMs: Number(env.CALL_LOCK_TTL_MS ?? CALL_LOCK_TTL_MS),
      peerGoneMs: Number(env.CALL_PEER_GONE_MS ?? CALL_PEER_GONE_MS),
      sweepMs: Number(env.CALL_SWEEP_MS ?? 5_000),
    },
    resources: {
      // The moments page uploads its nine images at once.
      uploadsPerUser: count(env.UPLOADS_PER_USER, 10),
      uploadsInFlight: count(env.UPLOADS_IN_FLIGHT, 32),
      connectionsPerAddress: count(env.CONNECTIONS_PER_ADDRESS, 256),
      // More than a family's phones, tablets and desktops, each with a few tabs open, ever hold.
      socketsPerUser: count(env.SOCKETS_PER_USER, 50),
      // The web client gives up on an upload after 60 s (NETWORK_TIMEOUT_MS) and on other calls after 10 s.
      requestTimeoutMs: count(env.HTTP_REQUEST_TIMEOUT_MS, 60_000),
      headersTimeoutMs: count(env.HTTP_HEADERS_TIMEOUT_MS, 10_000),
      idleTimeoutMs: count(env.HTTP_IDLE_TIMEOUT_MS, 30_000),
      // Longer than a proxy's idle upstream connections (nginx: 60 s), so it never sends a request
      // on a connection this server is closing.
      keepAliveTimeoutMs: count(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 72_000),
    },
  };
}
