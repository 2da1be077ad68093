import {
  SESSION_TTL_MS,
  SocketCloseCodes,
  TOKEN_PREFIX,
  TOKEN_SCOPES,
  TOKEN_TOUCH_MS,
  type TokenScope,
} from '@sparrow/protocol';
import DataLoader from 'dataloader';
import type { Transaction } from 'kysely';
import type { Database } from '../../db';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { randomToken, sha256 } from '../../lib/crypto';
import { type UserRepo, type UserRow } from '../user';
import type { AccessTokenRepo } from './access-tokens-repo';
import { type SessionRepo } from './session-repo';
import { needsTwoStepSetup, type TwoStepRequirement } from './two-step-policy';

/** A live session's user as the heartbeat reads it. */
type SessionState = { role: number; two_step: number; must_change_password: number };

/** A signed-in caller: the session and its (active) user. */
export interface Session {
  id: number;
  userId: number;
  isMobile: boolean;
  user: UserRow;
  /** True for a session made by QR login (`sessions.via` 'qr'): it may not approve another. */
  viaQr?: boolean;
  /**
   * A call made with a personal access token (`id` is then 0: no session row, no socket): the
   * token, and the scopes the route loop lets it through on.
   */
  token?: TokenGrant;
}

/** A personal access token a call came with, and what it may do. */
export interface TokenGrant {
  id: number;
  scopes: readonly TokenScope[];
}

/** A token's scopes as stored (comma-separated), those this code knows. */
export function scopesOf(stored: string): TokenScope[] {
  return stored.split(',').filter((s): s is TokenScope => (TOKEN_SCOPES as readonly string[]).includes(s));
}

/**
 * How often a session in use records it and slides its expiry on: a write per active session, so
 * not on every call; ten minutes of a thirty-day lifetime.
 */
export const TOUCH_EVERY_MS = 10 * 60_000;

/** How long a heartbeat's session check waits for others to share its statement. */
const ALIVE_BATCH_MS = 50;

/** The token part of an `Authorization` value: `bearer <token>` or the bare token. */
export function tokenOf(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim().replace(/^bearer\s+/i, '');
  return value.length >= 16 && value.length <= 200 ? value : null;
}

/** True for a phone or tablet user agent: sessions are grouped by device class for multipleLogin. */
export function isMobileAgent(ua: string | undefined): boolean {
  return /Mobile|Android|iPhone|iPad|HarmonyOS/i.test(ua ?? '');
}

/** Where a session is made from: the client's id, device class, user agent and address. */
export interface SessionClient {
  cid: string;
  isMobile: boolean;
  userAgent: string;
  ip: string;
}

/**
 * How a session was made (`sessions.via`): '' a password or an e-mailed code, 'qr' QR login,
 * 'passkey', 'oidc' a provider's single sign-on, 'ldap' the directory's password.
 */
export type SessionVia = '' | 'qr' | 'passkey' | 'oidc' | 'ldap';

/** Opaque, revocable sessions; tokens stored as their SHA-256. */
export class SessionService {
  private readonly sessions: SessionRepo;
  private readonly users: UserRepo;
  private readonly tokens: AccessTokenRepo;

  constructor(
    repos: Pick<Repos, 'sessions' | 'users' | 'accessTokens'>,
    private readonly now: () => number,
  ) {
    this.sessions = repos.sessions;
    this.users = repos.users;
    this.tokens = repos.accessTokens;
  }

  /**
   * The session of an `Authorization` value, or null when the token is missing, unknown, expired
   * or revoked. Not remembered against the request: an entry per request in a long-lived WeakMap
   * kept each request's objects through the next young-generation collection.
   */
  async fromToken(header: string | undefined): Promise<Session | null> {
    const token = tokenOf(header);
    if (!token) return null;
    const now = this.now();
    const row = await this.sessions.withUserByTokenHash(sha256(token));
    if (!row || row.revoked_at !== null || row.expires_at <= now || row.status !== 1) return null;
    if (now - row.session_seen > TOUCH_EVERY_MS) {
      await this.sessions.touch(row.session_id, now, now + SESSION_TTL_MS);
    }
    const {
      session_id,
      is_mobile,
      via,
      session_seen: _l,
      expires_at: _e,
      revoked_at: _r,
      token_hash: _t,
      ...user
    } = row;
    return { id: session_id, userId: user.id, isMobile: is_mobile === 1, user, viaQr: via === 'qr' };
  }

  /**
   * Who makes an HTTP call: the session of its `Authorization` value, or a personal access token's
   * user with the token's grant (`spt_…`), or null. Only the route loop takes tokens: the socket,
   * an export's download and the other GETs ask `fromToken`, which never does.
   */
  async caller(header: string | undefined): Promise<Session | null> {
    const token = tokenOf(header);
    if (!token?.startsWith(TOKEN_PREFIX)) return this.fromToken(header);
    const row = await this.tokens.withUserByHash(sha256(token));
    // A session's random token may begin as a personal one does (once in 64⁴).
    if (!row) return this.fromToken(header);
    const now = this.now();
    if (row.status !== 1 || (row.token_expires !== 0 && row.token_expires <= now)) return null;
    // A bot acts for its owner: not once its owner is disabled or gone.
    if (row.is_bot === 1 && row.owner_status !== 1) return null;
    if (now - row.token_used > TOKEN_TOUCH_MS) await this.tokens.touch(row.token_id, now);
    const { token_id, token_scopes, token_expires: _e, token_used: _u, owner_status: _o, ...user } = row;
    return { id: 0, userId: user.id, isMobile: false, user, token: { id: token_id, scopes: scopesOf(token_scopes) } };
  }

  /**
   * Whether sessions are live and their users active, asked by every socket's heartbeat: the asks
   * of ALIVE_BATCH_MS are answered by one statement (a node of 20 000 sockets would otherwise run
   * 800 a second for them).
   */
  private readonly liveness = new DataLoader<number, SessionState | null>(
    async (ids) => {
      const rows = await this.sessions.states(ids);
      const now = this.now();
      return ids.map((id) => {
        const row = rows.get(id);
        const live = row !== undefined && row.revoked_at === null && row.expires_at > now && row.status === 1;
        return live ? row : null;
      });
    },
    { cache: false, maxBatchSize: 512, batchScheduleFn: (run) => setTimeout(run, ALIVE_BATCH_MS) },
  );

  /** True while a session is live and its user active. */
  async alive(sessionId: number): Promise<boolean> {
    return (await this.liveness.load(sessionId)) !== null;
  }

  /**
   * What a socket's heartbeat asks: the session is live, its user active, and it serves more than a
   * password change or the setup of a second factor the server requires (`requirement`, the
   * `account.twoStepRequired` of now: a socket bound before the policy was turned on is closed).
   */
  async servesSocket(sessionId: number, requirement: TwoStepRequirement): Promise<boolean> {
    const state = await this.liveness.load(sessionId);
    return state !== null && state.must_change_password !== 1 && !needsTwoStepSetup(state, requirement);
  }

  /**
   * Records the language a signed-in user's client now speaks, so that pushes and event lines
   * follow a language switch.
   */
  async rememberLanguage(session: Session, locale: string): Promise<void> {
    if (session.user.language === locale) return;
    await this.users.update(session.userId, { language: locale });
    session.user.language = locale;
  }

  /** Starts a session; the token is returned once and never stored in the clear. */
  async create(userId: number, info: SessionClient, via: SessionVia = ''): Promise<{ id: number; token: string }> {
    const token = randomToken(32);
    const id = await this.sessions.insert({ ...this.row(userId, info, sha256(token)), via });
    return { id, token };
  }

  /**
   * Starts a session confirmed by the session `approvedBy` (QR login), in the caller's transaction,
   * under a token hash the caller holds: the token itself is the secret of the page being signed in.
   */
  async createApproved(
    trx: Transaction<Database>,
    userId: number,
    info: SessionClient,
    tokenHash: string,
    approvedBy: number,
  ): Promise<number> {
    return this.sessions.insert({ ...this.row(userId, info, tokenHash), via: 'qr', approved_by: approvedBy }, trx);
  }

  private row(userId: number, info: SessionClient, tokenHash: string) {
    const now = this.now();
    return {
      token_hash: tokenHash,
      user_id: userId,
      cid: info.cid.slice(0, 64),
      is_mobile: info.isMobile ? 1 : 0,
      user_agent: info.userAgent.slice(0, 255),
      ip: info.ip.slice(0, 64),
      create_time: now,
      last_seen: now,
      expires_at: now + SESSION_TTL_MS,
      revoked_at: null,
    };
  }

  /** A user's live sessions (only those made `via` one way when given), newest first. */
  liveOf(userId: number, via?: SessionVia) {
    return this.sessions.liveOf(userId, this.now(), via);
  }

  /** Revokes a live session of this user (made `via` that way when given); false when they have none by that id. */
  revokeOwn(userId: number, sessionId: number, via?: SessionVia): Promise<boolean> {
    return this.sessions.revokeOwn(userId, sessionId, this.now(), via);
  }

  async revoke(sessionId: number): Promise<void> {
    await this.sessions.revoke(sessionId, this.now());
  }

  /**
   * Revokes a user's live sessions other than `keepId` (only those of one device class when
   * `isMobile` is given); returns their ids.
   */
  async revokeOthers(userId: number, keepId: number, isMobile?: boolean): Promise<number[]> {
    const ids = await this.sessions.liveIdsOf(userId, keepId, this.now(), isMobile);
    if (ids.length) await this.sessions.revokeMany(ids, this.now());
    return ids;
  }

  /** Revokes every session of a user (disabled by an operator). */
  async revokeAll(userId: number): Promise<number[]> {
    return this.revokeOthers(userId, 0);
  }
}

/**
 * Ends a user's other sessions of one device class, as a new sign-in does when
 * sysInfo.multipleLogin is 0, and tells their sockets why.
 */
export async function forceOffline(
  parts: { sessions: Pick<SessionService, 'revokeOthers'>; realtime: Pick<Realtime, 'kick'> },
  userId: number,
  keepId: number,
  isMobile: boolean,
): Promise<void> {
  const revoked = await parts.sessions.revokeOthers(userId, keepId, isMobile);
  await parts.realtime.kick(userId, revoked, SocketCloseCodes.SessionEnded, {
    type: 'offline',
    data: { id: userId, client_id: '', isMobile },
  });
}
