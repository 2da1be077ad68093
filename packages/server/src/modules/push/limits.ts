/**
 * The outbound limits of Web Push (defaults: `PUSH_LIMITS` in service.ts), apart from the service so
 * that config.ts, which the service reads, names them without importing it.
 */
export interface PushLimits {
  timeoutMs: number;
  concurrency: number;
  queueMax: number;
  failuresMax: number;
  failingMs: number;
}
