import type { LoginResult } from '@sparrow/protocol';
import { api, endSession } from '../api';
import { feedback } from '../components/feedback';
import { i18next } from '../i18n';
import { USER_ITEMS, storage } from '../lib/storage';
import { navigateTo } from '../nav/navigation';
import { paths, withQuery } from '../nav/paths';
import { currentPath, loginPath, returnPath } from '../nav/return-to';
import { loadRealtime } from './connection';
import { presence } from '../stores/presence';
import { session, sessionStore } from '../stores/session';

/**
 * After login: keep the token and user, then open the page the visitor came for (`redirect`), or
 * home; a user whose password an admin set chooses their own first.
 */
export function signIn(result: LoginResult, redirect?: string | null): void {
  session.signIn(result.authToken, result.userInfo);
  if (result.userInfo.must_change_password) {
    navigateTo(withQuery(paths.secure, { action: 'password' }), { replace: true });
    void feedback.alert({
      title: i18next.t('errors.tip'),
      content: i18next.t('secure.mustChange'),
      confirmText: i18next.t('common.confirm'),
    });
    return;
  }
  // The server requires a second factor of this user, who has none: nothing else works until it is set up.
  if (result.userInfo.two_step_setup) {
    navigateTo(paths.twoStep, { replace: true });
    return;
  }
  navigateTo(returnPath(redirect) ?? paths.home, { replace: true });
}

/**
 * The server no longer knows this session (code -1, HTTP 401): sign in again, then come back here.
 * Told late (after a toast) and by any request, so a -1 that arrives once the user has signed out
 * (a call still on its way while logout revoked the token) changes nothing.
 */
export function sessionEnded(): void {
  if (sessionStore.getState().token === null) return;
  const userId = sessionStore.getState().user?.user_id;
  session.clear();
  // What was kept for offline stays on no shared browser; like the drafts, the messages on their way wait for the sign-in.
  if (userId !== undefined) void forgetLocal(userId, { keepOutbox: true });
  navigateTo(loginPath(currentPath()), { replace: true });
}

/**
 * The socket was refused for this session (it ended elsewhere: a password change, a revoked
 * token): the request layer says so and signs in again, once, as for code -1 (docs/product.md §8).
 */
export function sessionInvalid(): void {
  // Refused while the password an admin set is being changed, or a second factor the server requires
  // is being set up: that page opens the socket again (`restrictionLifted`).
  const user = sessionStore.getState().user;
  if (user?.must_change_password || user?.two_step_setup) return;
  endSession(i18next.t('errors.authExpired')).catch(() => undefined);
}

/**
 * A session held back until its user did one thing (changed the password an admin set, set up the
 * second factor the server requires) may now do everything: the user's record says so, and the
 * socket the server refused opens again.
 */
export async function restrictionLifted(): Promise<void> {
  session.setUser(await api.checkuser({}, { quiet: true }));
  const { socket } = await loadRealtime();
  socket.start();
}

/** The local store's copy of a user goes (chat/registry.ts `clearLocal`), after the session has. */
function forgetLocal(userId: number, options: { keepOutbox?: boolean } = {}): Promise<void> {
  return import('../chat/registry').then((m) => m.clearLocal(userId, options)).catch(() => undefined);
}

function dropSession(): void {
  // Drafts, stored lists and the catch-up cursor of this user stay on no shared browser.
  for (const key of USER_ITEMS) storage.remove(key);
  session.clear(true);
  presence.clear();
}

/** Logout (docs/product.md §4): revoke the token on the server, clear what is stored, go to login. */
export async function signOut(): Promise<void> {
  const clientId = storage.get('client_id');
  const userId = sessionStore.getState().user?.user_id;
  // This browser's pushes were the signed-out user's: the next user of it must not get them.
  await import('./push').then((m) => m.disablePush()).catch(() => undefined);
  try {
    await api.logout(clientId ? { client_id: clientId } : {}, { loading: true, quiet: true });
  } catch {
    // Signing out on this device must work even when the server cannot be reached.
  }
  // Like the drafts, the messages still on their way and those kept for offline stay on no shared browser;
  // cleared once signed out here, so that no write of the session's follows the clearing.
  dropSession();
  if (userId !== undefined) await forgetLocal(userId);
  navigateTo(paths.login, { replace: true });
}

/**
 * My account was deleted (注销账号): the server has already ended every session; what this browser
 * holds of it goes, and the login page follows.
 */
export async function accountDeleted(): Promise<void> {
  const userId = sessionStore.getState().user?.user_id;
  await import('./push').then((m) => m.dropPushSubscription()).catch(() => undefined);
  dropSession();
  if (userId !== undefined) await forgetLocal(userId);
  navigateTo(paths.login, { replace: true });
}

const OFFLINE_MESSAGES = {
  disabled: 'errors.accountDisabled',
  password: 'errors.passwordReset',
  ended: 'errors.sessionsEnded',
  device: 'errors.deviceEnded',
} as const;

/**
 * This session has ended (socket `offline`): another device took over, or an admin disabled the
 * account, set its password or signed it out (`reason`). The session is already revoked.
 */
export function forcedOffline(reason?: keyof typeof OFFLINE_MESSAGES): void {
  // The session cannot tell the server any more; the push service will answer the server 410.
  void import('./push').then((m) => m.dropPushSubscription()).catch(() => undefined);
  const userId = sessionStore.getState().user?.user_id;
  dropSession();
  // Nothing stays of an account an admin disabled or signed out, its drafts and messages on their way included.
  if (userId !== undefined) void forgetLocal(userId);
  navigateTo(paths.login, { replace: true });
  void feedback.alert({
    title: i18next.t('errors.tip'),
    content: i18next.t(reason ? OFFLINE_MESSAGES[reason] : 'errors.forcedOffline'),
    confirmText: i18next.t('common.confirm'),
  });
}
