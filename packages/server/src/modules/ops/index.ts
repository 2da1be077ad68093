export { isLoopback, metricsAccess } from './access';
export { Readiness, READY_TIMEOUT_MS, type ReadyReport } from './health';
export { Metrics } from './metrics';
export { buildOpenApi } from './openapi';
export { OpsRepo } from './repo';
export { registerOpsRoutes } from './routes';
