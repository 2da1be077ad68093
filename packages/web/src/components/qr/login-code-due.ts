import { QR_LOGIN_HIDDEN_POLL_MS, QR_LOGIN_POLL_MS } from '@sparrow/protocol';

/**
 * Why a login page would ask for a new QR login code (扫码登录): its first one, or one to replace a
 * code that expired unscanned.
 */
export type LoginCodeDue = 'first' | 'expired';

/**
 * Whether the page asks for its due code now. Codes are counted per address (the server's
 * `rateLimits.qrLogin.perMinute`), so a page asks only while it is visible: a background tab holds
 * its due code until it shows again. A replacement also needs an automatic refresh left; after
 * those the page waits for a tap.
 */
export function asksForLoginCode(
  due: LoginCodeDue | null,
  visibility: DocumentVisibilityState,
  autoRefreshesLeft: number,
): boolean {
  if (due === null || visibility !== 'visible') return false;
  return due === 'first' || autoRefreshesLeft > 0;
}

/** How long the page waits before asking where its code stands: longer while the tab is hidden. */
export function loginPollDelay(visibility: DocumentVisibilityState): number {
  return visibility === 'visible' ? QR_LOGIN_POLL_MS : QR_LOGIN_HIDDEN_POLL_MS;
}
