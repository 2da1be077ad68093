import * as z from 'zod';
import { password } from './fields';
import { PasskeyAssertion } from './passkeys';

/**
 * Two-step sign-in (两步验证, docs/protocol.md §3): a user with a second factor who proves the first
 * (password, e-mailed code, the directory's password) is answered a ticket instead of a session;
 * `loginTwoStep` trades the ticket and a code from an authenticator app (TOTP) or a recovery code
 * for the session. The setup routes (`twoStepStatus`, `totpBegin`, `totpConfirm`, `totpDisable`,
 * `recoveryCodesNew`) are the user's own.
 */

/** A ticket as `login` answers it: 43 characters of base64url, 256 random bits. */
export const loginTicket = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** Six digits from an authenticator app. */
export const totpCode = z
  .string()
  .trim()
  .regex(/^[0-9]{6}$/);

/** A recovery code as shown (`xxxxx-xxxxx`), case and the dash as the user types them. */
export const recoveryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/);

/** An authenticator app's code or a recovery code. */
const secondFactorCode = z.union([totpCode, recoveryCode]);

/** `/common/Pub/loginTwoStep`: the second step of a sign-in `login` answered with a ticket. */
export const LoginTwoStepBody = z
  .object({
    /** `two_step.ticket` from `login`'s answer. */
    ticket: loginTicket,
    /** Six digits from the authenticator app, or one of the recovery codes. */
    code: secondFactorCode.optional(),
    /** Instead of a code: a passkey's answer to `passkeyLoginOptions` asked with this ticket. */
    passkey: PasskeyAssertion.optional(),
    /** The socket's client_id, to bind it at once. */
    client_id: z.string().trim().min(1).max(64).optional(),
  })
  .refine((b) => b.code !== undefined || b.passkey !== undefined, { path: ['code'], message: 'required' });

/** `/enterprise/im/totpConfirm`, `recoveryCodesNew`: a code from the authenticator app. */
export const TotpCodeBody = z.object({
  /** Six digits from the authenticator app. */
  code: totpCode,
});

/** `/enterprise/im/totpDisable`: turning two-step sign-in off takes the password and a code. */
export const TotpDisableBody = z.object({
  /**
   * What proves it is the user (AuthService `reauthenticate`): the account's password, the
   * directory's for a directory account, or another code of the app or a recovery code for an
   * account with no password (made through a provider's sign-in).
   */
  password,
  /** Six digits from the authenticator app, or one of the recovery codes. */
  code: secondFactorCode,
});

/** How a ticket may be answered: an authenticator app's code, a recovery code, a passkey. */
export type TwoStepMethod = 'totp' | 'recovery' | 'passkey';

/** `login`'s answer to a client that sent `two_step: 1` for a user with a second factor: no session yet. */
export interface TwoStepPending {
  two_step: {
    /** Sent with `loginTwoStep`; good for LOGIN_TICKET_TTL_MS and LOGIN_TICKET_TRIES_MAX wrong codes, once. */
    ticket: string;
    /** The ways this user may answer it. */
    methods: TwoStepMethod[];
  };
}

/** `twoStepStatus`: what the user has and what the server asks of them. */
export interface TwoStepStatus {
  /** An authenticator app is set up and confirmed. */
  totp: boolean;
  /** Recovery codes not used yet. */
  recoveryLeft: number;
  passkeys: number;
  /** The server requires a second factor of this user (`account.twoStepRequired`). */
  required: boolean;
}

/** `totpBegin`: a new secret, waiting for its first code. */
export interface TotpSetup {
  /** `otpauth://totp/...`: what the QR code holds. */
  uri: string;
  /** The same secret in base32, for typing it in by hand. */
  secret: string;
}

/** `totpConfirm`, `recoveryCodesNew`: the recovery codes, shown this once. */
export interface RecoveryCodes {
  codes: string[];
}
