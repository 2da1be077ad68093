import * as z from 'zod';
import type { DeviceName } from './qr-login';
import type { AccessToken } from './tokens';

/**
 * 登录设备 (docs/protocol.md §3): a user's live sessions, each with the device it was made on, and
 * ending them; the console's view of a user's sessions and second factors (§8).
 */

const sessionId = z.number().int().positive();

/** `/enterprise/im/sessionEnd`: one of the caller's live sessions. */
export const SessionEndBody = z.object({
  /** The session's id, as `sessions` lists it; another user's is answered as one that does not exist. */
  session_id: sessionId,
});

/** `/manage/userSecurity`, `/manage/twoStepReset`: a user. */
export const ManageUserSecurityBody = z.object({ user_id: z.number().int().positive() });

/** `/manage/sessionEnd`: one live session of a user. */
export const ManageSessionEndBody = z.object({
  user_id: z.number().int().positive(),
  /** The session's id, as `userSecurity` lists it; one of another user is answered as one that does not exist. */
  session_id: sessionId,
});

/** `/manage/tokenRevoke`: one personal access token of a user. */
export const ManageTokenRevokeBody = z.object({
  user_id: z.number().int().positive(),
  /** The token's id, as `userSecurity` lists it; one of another user is answered as one that does not exist. */
  id: z.number().int().positive(),
});

/**
 * How a session was made (`sessions.via`): '' a password or an e-mailed code, 'qr' QR login,
 * 'passkey', 'oidc' single sign-on, 'ldap' the directory's password.
 */
export const SESSION_VIAS = ['', 'qr', 'passkey', 'oidc', 'ldap'] as const;
export type SessionViaName = (typeof SESSION_VIAS)[number];

/** A live session as `sessions` (and `webSessions`, `userSecurity`) list it. */
export interface DeviceSession {
  session_id: number;
  /** The device, read from the user agent it signed in with. */
  device: DeviceName;
  /** How it signed in. */
  via: SessionViaName;
  /**
   * The approximate place of the address it signed in from ("广东省 深圳市"), while the server's
   * `sysInfo.ipregion` is on; '' when off, unknown, or a local address (see `lan`).
   */
  place: string;
  /** True for a loopback or private address (局域网), while `sysInfo.ipregion` is on. */
  lan: boolean;
  /** When it was made, ms. */
  create_time: number;
  /** When it was last used, ms (recorded at most every ten minutes). */
  last_seen: number;
  /** The session of the call that listed it. */
  current: boolean;
}

/** A user's sessions and second factors, as the console shows them (`userSecurity`). */
export interface ManagedUserSecurity {
  /** users.two_step: a second factor is on. */
  two_step: 0 | 1;
  /** An authenticator app is set up. */
  totp: boolean;
  /** Recovery codes not used yet. */
  recovery_left: number;
  passkeys: number;
  /** Live sessions, newest first; for the console each with the address it signed in from. */
  sessions: Array<DeviceSession & { ip: string }>;
  /** Personal access tokens, newest first, without their secrets. */
  tokens: AccessToken[];
}
