/**
 * The single sign-on round trip's paths and times (docs/protocol.md "Single sign-on"), apart from
 * api/sso.ts's schemas: the login page's buttons need these and not zod.
 */

/** `GET /auth/oidc/:id/start`: the login page's button goes here; answered by a redirect to the provider. */
export const SSO_START_PATH = '/auth/oidc/:id/start';
/** `GET /auth/oidc/:id/callback`: the provider sends the browser back here (the redirect URI to register there). */
export const SSO_CALLBACK_PATH = '/auth/oidc/:id/callback';

/** A path of the round trip for one provider. */
export const ssoPath = (path: typeof SSO_START_PATH | typeof SSO_CALLBACK_PATH, id: string) =>
  path.replace(':id', encodeURIComponent(id));

/** How long the one-time code of a finished round trip may be exchanged, ms. */
export const SSO_CODE_VALID_MS = 60_000;
/** How long a started round trip waits for the provider's answer, ms. */
export const SSO_LOGIN_VALID_MS = 10 * 60_000;

/** A provider's button on the login page (`ssoProviders`). */
export interface SsoButton {
  id: string;
  /** What the button says after "使用"/"Sign in with": the operator's label. */
  label: string;
}
