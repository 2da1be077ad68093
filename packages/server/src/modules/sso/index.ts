/** What other modules may use of sso; everything else in this folder is its own. */
export * from './service';
export { ssoRoutes, registerSsoPages } from './routes';
