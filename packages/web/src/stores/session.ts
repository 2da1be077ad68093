import type { UserInfo } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { storage } from '../lib/storage';

export interface SessionState {
  /** `bearer <token>` as login returned it; null when signed out. */
  token: string | null;
  user: UserInfo | null;
  /**
   * Signed out on purpose (logout, or taken offline): the next sign-in starts at home rather than
   * on the page that was open.
   */
  signedOut: boolean;
}

/** The signed-in user and their token, mirrored to localStorage (userInfo, authToken). */
export const sessionStore = createStore<SessionState>()(() => ({
  token: storage.get('authToken'),
  user: storage.get('userInfo'),
  signedOut: false,
}));

export function useSession<T>(selector: (s: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

export const session = {
  signIn(token: string, user: UserInfo): void {
    storage.set('authToken', token);
    storage.set('userInfo', user);
    sessionStore.setState({ token, user, signedOut: false });
  },
  setUser(user: UserInfo): void {
    storage.set('userInfo', user);
    sessionStore.setState({ user });
  },
  patchUser(patch: Partial<UserInfo>): void {
    const user = sessionStore.getState().user;
    if (user) session.setUser({ ...user, ...patch });
  },
  /**
   * Logout (docs/product.md §4): user info, token and the socket's client id go. `signedOut`: on purpose, so
   * that no page asks to be come back to.
   */
  clear(signedOut = false): void {
    storage.remove('authToken');
    storage.remove('userInfo');
    storage.remove('client_id');
    sessionStore.setState({ token: null, user: null, signedOut });
  },
  /** The sign-out has reached the login page: a page opened from now on is come back to again. */
  forgetSignOut(): void {
    if (sessionStore.getState().signedOut) sessionStore.setState({ signedOut: false });
  },
  isSignedIn(): boolean {
    return sessionStore.getState().token !== null;
  },
};
