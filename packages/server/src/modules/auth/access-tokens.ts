import {
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  TOKENS_PER_USER_MAX,
  type AccessToken,
  type AccessTokenCreated,
  type RouteInput,
  type TokenScope,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Actor, AuditLog } from '../admin';
import type { Repos } from '../../repos';
import type { AccessTokenRow } from './access-tokens-repo';
import { scopesOf, type Session } from './session';

const DAY_MS = 86_400_000;
/** The secret's characters `hint` keeps after the prefix. */
const HINT_CHARS = 4;

/** What AccessTokenService is built from. */
export interface AccessTokenParts {
  repos: Pick<Repos, 'accessTokens'>;
  now: () => number;
}

/**
 * A new token's secret and the row that keeps it (its SHA-256, never the secret): for `userId`,
 * with these scopes, ending `days` days from `now` (0 never).
 */
export function mintToken(
  userId: number,
  spec: { name: string; scopes: readonly TokenScope[]; days: number },
  now: number,
): { token: string; values: Omit<AccessTokenRow, 'id'> } {
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  const values = {
    user_id: userId,
    name: spec.name,
    token_hash: sha256(token),
    hint: token.slice(0, TOKEN_PREFIX.length + HINT_CHARS),
    scopes: TOKEN_SCOPES.filter((s) => spec.scopes.includes(s)).join(','),
    create_time: now,
    expires_at: spec.days === 0 ? 0 : now + spec.days * DAY_MS,
    last_used: 0,
  };
  return { token, values };
}

function present(row: AccessTokenRow): AccessToken {
  return {
    id: row.id,
    name: row.name,
    scopes: scopesOf(row.scopes),
    hint: row.hint,
    create_time: row.create_time,
    expires_at: row.expires_at,
    last_used: row.last_used,
  };
}

/**
 * Personal access tokens (开发者, docs/protocol.md §9): made, listed and revoked by their user from
 * a signed-in session (never with a token); a call with one is let through by the route loop on the
 * routes its scopes name (ROUTE_SCOPES). `admin` only from an administrator.
 */
export class AccessTokenService {
  constructor(
    private readonly ctx: AccessTokenParts,
    private readonly audit: Pick<AuditLog, 'append'>,
  ) {}

  /** Makes a token; its secret is in this answer only (stored as its SHA-256). */
  async create(session: Session, body: RouteInput<'tokenCreate'>, ip: string): Promise<AccessTokenCreated> {
    if (body.scopes.includes('admin') && session.user.role !== 1) throw new AppError('Forbidden');
    const { token, values } = mintToken(session.userId, body, this.ctx.now());
    const id = await this.ctx.repos.accessTokens.add(values, TOKENS_PER_USER_MAX);
    if (id === 'full') throw new AppError('TokensFull');
    await this.audit.append({ adminId: session.userId, ip }, 'tokenCreate', `user:${session.userId}`, {
      token: id,
      name: body.name,
      scopes: values.scopes,
    });
    return { ...present({ id, ...values }), token };
  }

  /** The user's tokens, newest first, without their secrets. */
  async list(userId: number): Promise<AccessToken[]> {
    return (await this.ctx.repos.accessTokens.listOf(userId)).map(present);
  }

  /**
   * Revokes one of the user's tokens at once, by the user or an administrator (`actor`); another
   * user's, or one that is gone, is NotFound alike.
   */
  async revoke(userId: number, id: number, actor: Actor): Promise<void> {
    if (!(await this.ctx.repos.accessTokens.remove(userId, id))) throw new AppError('NotFound');
    await this.audit.append(actor, 'tokenRevoke', `user:${userId}`, { token: id });
  }
}
