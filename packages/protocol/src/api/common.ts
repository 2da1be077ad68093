import * as z from 'zod';
import { LOGIN_PASSWORD_MAX } from '../limits';
import { account, clientId, code, email, flag, password, realname, userId } from './fields';

/** `/common/Pub/login`: by password, or by a code from sendCode type 1. */
export const LoginBody = z
  .object({
    /** Account, email or phone. */
    account,
    /** Password; omit when logging in by code. A directory's may be longer than Sparrow's own (LOGIN_PASSWORD_MAX). */
    password: z.string().min(1).max(LOGIN_PASSWORD_MAX).optional(),
    /** Six-digit code from sendCode type 1; instead of a password. */
    code: code.optional(),
    /** The socket's client_id, to bind it at once. */
    client_id: clientId.optional(),
    /**
     * 1: the client can take a second step (Sparrow's own): a user with a second factor is answered
     * `TwoStepPending` instead of a session. Without it such a user is refused `TwoStepClientTooOld`.
     */
    two_step: flag.optional(),
  })
  .refine((b) => b.password !== undefined || b.code !== undefined, {
    path: ['password'],
    message: 'required',
  });

/** `/common/Pub/register`. */
export const RegisterBody = z
  .object({
    /** Account name, email or phone, as sysInfo.regauth requires. */
    account,
    password,
    /** Must equal password when given. */
    repassword: z.string().optional(),
    /** Display name. */
    realname,
    /** Optional contact email; '' for none. */
    email: z.union([z.literal(''), email]).optional(),
    /** Code from sendCode type 2, when regauth asks for a phone or email. */
    code: code.optional(),
    /** Invite code, when sysInfo.regtype is 2. */
    inviteCode: z.string().trim().max(64).optional(),
  })
  .refine((b) => b.repassword === undefined || b.repassword === b.password, {
    path: ['repassword'],
    message: 'mismatch',
  });

/** `/common/Pub/logout`. */
export const LogoutBody = z.object({ client_id: clientId.optional() });

/** Purposes of a verification code. */
export const CodeType = { Login: 1, Register: 2, ChangePassword: 3, ChangeAccount: 4 } as const;

/** `/common/Pub/sendCode`. */
export const SendCodeBody = z.object({
  /** Email or phone (or, for types 1 and 3, an account that has one). */
  account: z.string().trim().min(1).max(128),
  /** 1 login, 2 register, 3 change password, 4 change account. */
  type: z.coerce.number().int().min(1).max(4),
});

/**
 * `/common/pub/offline`: what Raingad clients call when their socket closes. The server already
 * tells contacts when a user's last socket closes, so this only acknowledges.
 */
export const OfflineBody = z.object({
  /** Must be the session's own user. */
  user_id: userId.optional(),
});

/** `/common/Pub/bindUid`: join a live socket to the session's user. */
export const BindUidBody = z.object({
  client_id: clientId,
  /** Must be the session's own user. */
  user_id: userId,
  cid: z.string().trim().max(64).optional(),
});

/** `/common/pub/checkVersion`. */
export const CheckVersionBody = z.object({
  /** The caller's release: a version ("6.1.0") or, from Raingad clients, its numeric code (20250916). */
  release: z
    .union([z.string().trim().max(32), z.number().int().min(0).max(99_999_999)])
    .transform(String)
    .default(''),
  setupPage: flag.optional(),
  /** Platform of a Raingad app: 1101 Android, 1102 iOS. */
  type: z
    .union([z.string().trim().max(16), z.number().int().min(0).max(99_999)])
    .transform(String)
    .optional(),
});

/** `/common/Pub/checkuser`, `/common/Pub/getSystemInfo`: no body. */
export const EmptyBody = z.object({});

/** `/common/Pub/bindGroup` (kept for old clients). */
export const BindGroupBody = z.object({
  client_id: clientId,
  group_id: z.string().trim().max(32),
});
