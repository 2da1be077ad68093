/** What other modules may use of auth; everything else in this folder is its own. */
export * from './session';
export * from './session-repo';
export * from './devices';
export { clientInfo } from './routes';
export { needsTwoStepSetup } from './two-step-policy';
export type { AuthService, ClientInfo } from './service';
export { mintToken } from './access-tokens';
