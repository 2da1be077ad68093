import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config';
import type { Db } from './db';
import type { Dialect } from './db/dialect';
import type { Limits } from './lib/limits';
import type { Mailer } from './lib/mailer';
import type { Sealer } from './lib/sealed';
import type { SessionService } from './modules/auth/session';
import type { ConfigService } from './modules/system/config-service';
import type { KeywordScreen } from './modules/keywords/screen';
import type { Access } from './modules/access';
import type { Metrics } from './modules/ops';
import type { Realtime } from './realtime/realtime';
import type { Repos } from './repos';
import type { Storage } from './storage/storage';

/** The shared parts a module is built from; one per process. */
export interface AppContext {
  env: ServerConfig;
  db: Db;
  dialect: Dialect;
  /** Every repository, built once; services take theirs from here. */
  repos: Repos;
  /** Who may see and touch what (modules/access.ts). */
  access: Access;
  config: ConfigService;
  /** The keyword rules (敏感词) as this process applies them (modules/keywords/screen.ts). */
  keywords: KeywordScreen;
  sessions: SessionService;
  realtime: Realtime;
  limits: Limits;
  mailer: Mailer;
  /** Secrets at rest (TOTP seeds, providers' client secrets), sealed under the instance secret (lib/sealed.ts). */
  sealer: Sealer;
  storage: Storage;
  /** The process's Prometheus counters (modules/ops/metrics.ts). */
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** The current time in ms; tests move it forward. */
  now: () => number;
}
