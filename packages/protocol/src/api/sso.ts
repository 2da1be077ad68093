import * as z from 'zod';
import { clientId } from './fields';

export * from '../sso-paths';

/**
 * Single sign-on with OpenID Connect (docs/protocol.md §3 `/common/Pub/*` and §8): providers an
 * operator configures in the console, the login page's buttons, and the one-time code the
 * browser brings back from the provider's round trip, exchanged for a session.
 *
 * The round trip itself is two browser navigations outside the route table: `GET
 * SSO_START_PATH` redirects to the provider, which sends the browser to `GET SSO_CALLBACK_PATH`,
 * which redirects to the login page with `?sso_code=` (or `?sso_error=`, an error's name).
 */

/** A provider's id: its part of the paths and of `user_identities.provider` ('oidc:<id>'). */
export const ssoProviderId = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/);

/** A one-time code: 43 characters of base64url, 256 random bits. */
const oneTimeCode = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** `/common/Pub/ssoExchange`: the code the callback put in the login page's address, for a session. */
export const SsoExchangeBody = z.object({
  /** The `sso_code` of the login page's address: good once, for SSO_CODE_VALID_MS. */
  code: oneTimeCode,
  /** The socket's client_id, to bind it at once. */
  client_id: clientId.optional(),
});

const flag = z.coerce.number().int().min(0).max(1);

/** `/manage/ssoSave`: adds a provider or changes one (by id). */
export const ManageSsoSaveBody = z.object({
  id: ssoProviderId,
  /** The issuer's URL, whose `/.well-known/openid-configuration` describes it. */
  issuer: z.string().trim().url().max(255),
  client_id: z.string().trim().min(1).max(255),
  /** Write-only: '' or absent keeps the stored one. Sealed at rest, never answered. */
  client_secret: z.string().max(512).optional(),
  /** Space-separated; `openid` is added when missing, and the whole is kept in 255 characters. */
  scopes: z
    .string()
    .trim()
    .max(255 - 'openid '.length)
    .optional(),
  /** The button's text (使用 <label> 登录). */
  label: z.string().trim().min(1).max(32),
  /** 1: a first sign-in with no account found creates one. */
  create_accounts: flag.optional(),
  /** 1: a first sign-in whose verified e-mail is an account's links to that account. */
  link_email: flag.optional(),
  /** A claim (`groups`, `roles`) whose value `admin_value` makes the person an administrator; '' none. */
  admin_claim: z.string().trim().max(64).optional(),
  admin_value: z.string().trim().max(128).optional(),
  /** 0 hides the button and refuses its round trips. */
  enabled: flag.optional(),
});

/** `/manage/ssoDel`. */
export const ManageSsoDelBody = z.object({ id: ssoProviderId });

/** A provider as the console shows it: never its secret. */
export interface ManagedSsoProvider {
  id: string;
  issuer: string;
  client_id: string;
  /** 1 when a client secret is stored. */
  has_secret: 0 | 1;
  scopes: string;
  label: string;
  create_accounts: 0 | 1;
  link_email: 0 | 1;
  admin_claim: string;
  admin_value: string;
  enabled: 0 | 1;
  /** The redirect URI to register at the provider, as this server's address names it. */
  redirect_uri: string;
  update_time: number;
}
