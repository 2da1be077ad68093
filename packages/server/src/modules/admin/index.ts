/** What other modules may use of admin; everything else in this folder is its own. */
export { AdminRepo } from './repo';
export { COMMAND_LINE, paging, type Actor, type AuditLog } from './audit';
export type { LiveParts } from './live';
export { AdminService } from './service';
export { adminRoutes } from './routes';
export { AdminSecurity, adminSecurityRoutes } from './security';
