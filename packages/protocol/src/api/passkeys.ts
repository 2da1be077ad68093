import * as z from 'zod';
import { PASSKEY_NAME_MAX } from '../limits';
import { clientId, password, personText, rowId } from './fields';

/**
 * Passkeys (通行密钥, WebAuthn, docs/protocol.md §3): a signed-in user adds one
 * (`passkeyRegisterOptions`, then `passkeyRegister` with what the browser's authenticator made),
 * lists, renames and removes them; anyone signs in with one and no password
 * (`passkeyLoginOptions`, then `passkeyLogin`), or answers a two-step ticket with one
 * (`passkeyLoginOptions` with the ticket, then `loginTwoStep` with `passkey`). A passkey counts as
 * two factors. The options are WebAuthn's JSON forms, given as they are to the browser's
 * `navigator.credentials.create()` / `get()` (through @simplewebauthn/browser), and the credential
 * is the browser's answer in its JSON form.
 */

/** Base64url without padding, as WebAuthn's JSON forms write bytes. */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/);

/** A credential's id: at most 384 bytes (512 characters of base64url). */
const credentialId = base64url(512);

/** What the browser reports of the extensions (only `credProps` is read, and only by the browser). */
const extensionResults = z
  .object({
    /** Whether the authenticator made a discoverable credential. */
    credProps: z.object({ rk: z.boolean().optional() }).optional(),
  })
  .default({});

/** A new credential as the browser answers `create()` (`RegistrationResponseJSON`). */
export const PasskeyRegistration = z.object({
  id: credentialId,
  rawId: credentialId,
  response: z.object({
    /** The browser's client data: the challenge, the page's origin and the ceremony's type. */
    clientDataJSON: base64url(4096),
    /** CBOR: the authenticator's data (the credential's public key) and its attestation statement. */
    attestationObject: base64url(32_768),
    /** How the authenticator is reached ('internal', 'hybrid', 'usb'…), kept for later sign-ins. */
    transports: z.array(z.string().max(16)).max(8).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
  type: z.literal('public-key'),
});

/** A signature by a credential as the browser answers `get()` (`AuthenticationResponseJSON`). */
export const PasskeyAssertion = z.object({
  id: credentialId,
  rawId: credentialId,
  response: z.object({
    clientDataJSON: base64url(4096),
    /** The authenticator's data: the relying party's hash, flags and the signature counter. */
    authenticatorData: base64url(2048),
    signature: base64url(1024),
    /** The user handle the credential was made for (a discoverable credential always gives it). */
    userHandle: base64url(128).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResults,
  type: z.literal('public-key'),
});

/** A passkey's name as its owner sees it in the list. */
export const passkeyName = personText(PASSKEY_NAME_MAX, 1);

/**
 * Proof that the caller is the user, asked before a passkey is added or removed (a passkey is a
 * way in of its own): the account's password; for an account the directory answers for, its
 * password there; for an account with no password, a current code of the authenticator app or a
 * recovery code (AuthService `reauthenticate`).
 */
const proof = password;

/** `/enterprise/passkey/registerOptions`: the options for adding a passkey, once the caller is proven. */
export const PasskeyRegisterOptionsBody = z.object({
  /** The account's password (or what stands for it, above). */
  password: proof,
});

/** `/enterprise/passkey/register`: the browser's new credential for the options just asked for. */
export const PasskeyRegisterBody = z.object({
  credential: PasskeyRegistration,
  /** What to call it; without it, the browser and system of the caller ("Chrome · Linux"). */
  name: passkeyName.optional(),
});

/** `/enterprise/passkey/rename`. */
export const PasskeyRenameBody = z.object({
  /** The passkey's id, as `passkeyList` lists it. */
  id: rowId,
  name: passkeyName,
});

/** `/enterprise/passkey/remove`. */
export const PasskeyRemoveBody = z.object({
  /** The passkey's id, as `passkeyList` lists it. */
  id: rowId,
  /** The account's password (or what stands for it, as for `passkeyRegisterOptions`). */
  password: proof,
});

/** A two-step ticket as `login` answers it (two-step.ts, which takes a passkey's answer from here). */
const ticket = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** `/common/Pub/passkeyLoginOptions`: the options for signing in with a passkey. */
export const PasskeyLoginOptionsBody = z.object({
  /**
   * A two-step ticket `login` answered: the options then name that user's passkeys only, and
   * the answer goes to `loginTwoStep`. Without it, any passkey of this server may answer.
   */
  ticket: ticket.optional(),
});

/** `/common/Pub/passkeyLogin`: signing in with a passkey and no password. */
export const PasskeyLoginBody = z.object({
  credential: PasskeyAssertion,
  /** The socket's client_id, to bind it at once. */
  client_id: clientId.optional(),
});

/** A credential named in options: one to exclude when adding, or one that may answer. */
export interface PasskeyDescriptor {
  id: string;
  type: string;
  transports?: string[];
}

/** `passkeyRegisterOptions`' answer: WebAuthn's `PublicKeyCredentialCreationOptionsJSON`. */
export interface PasskeyCreationOptions {
  rp: { id?: string; name: string };
  /** `id`: the user handle (base64url), the same for every passkey of one user. */
  user: { id: string; name: string; displayName: string };
  challenge: string;
  pubKeyCredParams: Array<{ alg: number; type: 'public-key' }>;
  timeout?: number;
  /** The caller's passkeys: an authenticator holding one makes no second. */
  excludeCredentials?: PasskeyDescriptor[];
  authenticatorSelection?: {
    authenticatorAttachment?: 'platform' | 'cross-platform';
    requireResidentKey?: boolean;
    residentKey?: 'discouraged' | 'preferred' | 'required';
    userVerification?: 'discouraged' | 'preferred' | 'required';
  };
  attestation?: 'direct' | 'enterprise' | 'indirect' | 'none';
  extensions?: { credProps?: boolean };
}

/** `passkeyLoginOptions`' answer: WebAuthn's `PublicKeyCredentialRequestOptionsJSON`. */
export interface PasskeyRequestOptions {
  challenge: string;
  timeout?: number;
  rpId?: string;
  /** Empty for a sign-in without an account (any passkey the browser holds for this site). */
  allowCredentials?: PasskeyDescriptor[];
  userVerification?: 'discouraged' | 'preferred' | 'required';
}

/** A passkey as its owner's list shows it. */
export interface Passkey {
  id: number;
  name: string;
  /** When it was added, ms. */
  create_time: number;
  /** When it last signed in, ms; 0 never. */
  last_used: number;
  /** Backed up and synced across the owner's devices (a password manager's or a platform's passkey). */
  synced: boolean;
}
