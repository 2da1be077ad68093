import * as z from 'zod';
import { TOKEN_DAYS_MAX, TOKEN_NAME_MAX } from '../limits';
import { personText, rowId } from './fields';

/**
 * Personal access tokens (开发者, docs/protocol.md §9): a user's tokens for scripts and tools,
 * sent as `Authorization: Bearer spt_…` on the routes their scopes name (`ROUTE_SCOPES` in
 * routes.ts). A token reaches no route outside its scopes, never the socket, and the console's
 * routes only with `admin`, which only an administrator may give a token.
 */

/** What a token may do; each route a token may call needs one of them (routes.ts `ROUTE_SCOPES`). */
export const TOKEN_SCOPES = ['messages:read', 'messages:send', 'groups:manage', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** How every personal access token begins: a token is told from a session's by it, and found by secret scanners. */
export const TOKEN_PREFIX = 'spt_';

/** How long a new token lives, days; 0 never ends. */
export const TOKEN_DAYS = [0, 7, 30, 90, 365] as const;

/** `/enterprise/token/create`: a token with a name, scopes and a lifetime; its secret is answered once. */
export const TokenCreateBody = z.object({
  name: personText(TOKEN_NAME_MAX, 1),
  /** Each scope once; `admin` only from an administrator. */
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .min(1)
    .max(TOKEN_SCOPES.length)
    .refine((s) => new Set(s).size === s.length, { message: 'duplicate' }),
  /** Days until it ends (one of TOKEN_DAYS), 0 for never. */
  days: z
    .number()
    .int()
    .min(0)
    .max(TOKEN_DAYS_MAX)
    .refine((d) => (TOKEN_DAYS as readonly number[]).includes(d), { message: 'days' }),
});

/** `/enterprise/token/revoke`: one of the caller's tokens; another user's is answered as one that does not exist. */
export const TokenRevokeBody = z.object({ id: rowId });

/** A token as `tokenList` lists it: never its secret. */
export interface AccessToken {
  id: number;
  name: string;
  scopes: TokenScope[];
  /** The secret's first characters (`spt_AbCd`), to tell tokens apart. */
  hint: string;
  /** ms. */
  create_time: number;
  /** When it ends, ms; 0 never. */
  expires_at: number;
  /** When it was last used, ms (recorded at most every minute); 0 never. */
  last_used: number;
}

/** `tokenCreate`'s answer: the token, with its secret, shown this once. */
export interface AccessTokenCreated extends AccessToken {
  token: string;
}
