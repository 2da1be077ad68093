import type { PasskeyCreationOptions, PasskeyRequestOptions, RouteBody } from '@sparrow/protocol';

/**
 * Whether this browser can use passkeys at all (WebAuthn in a secure context): without it the
 * login page shows no passkey button and the passkey page offers no adding.
 */
export function passkeysAvailable(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

/** @simplewebauthn/browser, fetched when a passkey is first used, not with the page. */
const webauthn = () => import('@simplewebauthn/browser');

/** Has the browser make a passkey for these options; throws when the person cancels or the authenticator refuses. */
export async function createPasskey(
  options: PasskeyCreationOptions,
): Promise<RouteBody<'passkeyRegister'>['credential']> {
  const { startRegistration } = await webauthn();
  return startRegistration({ optionsJSON: options });
}

/** Has the browser sign the options' challenge with a passkey the person picks. */
export async function signWithPasskey(
  options: PasskeyRequestOptions,
): Promise<RouteBody<'passkeyLogin'>['credential']> {
  const { startAuthentication } = await webauthn();
  return startAuthentication({ optionsJSON: options });
}
