/** What other modules may use of admin; everything else in this folder is its own. */
export { AdminRepo } from './repo';
export { AdminService, COMMAND_LINE, type Actor, type LiveParts } from './service';
export { adminRoutes } from './routes';
