export { isLoopback, metricsAccess } from './access';
export { backup, pgDumpAdvice, restore, type BackupReport } from './backup';
export { Readiness, READY_TIMEOUT_MS, type ReadyReport } from './health';
export { Metrics } from './metrics';
export { buildOpenApi } from './openapi';
export { OpsRepo } from './repo';
export { registerOpsRoutes } from './routes';
