import { type LoginResult, type QrLoginCode } from '@sparrow/protocol';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { api, ApiError } from '../../api';
import { asksForLoginCode, loginPollDelay, type LoginCodeDue } from './login-code-due';

/** Codes the page asks for by itself as each expires unscanned, before it waits for a tap (about ten minutes). */
const AUTO_REFRESHES = 5;

/** What the login QR shows (扫码登录). */
export type QrLoginView =
  | { status: 'loading' | 'failed' }
  | { status: 'waiting' | 'confirmed' | 'cancelled' | 'expired'; qrUrl: string }
  | { status: 'scanned'; qrUrl: string; scanner: { realname: string; avatar: string } };

const onVisibilityChange = (changed: () => void) => {
  document.addEventListener('visibilitychange', changed);
  return () => document.removeEventListener('visibilitychange', changed);
};
const pageVisibility = () => document.visibilityState;

/**
 * A signed-out page's login code: asks for one once the page is visible, then asks where it stands (every
 * `loginPollDelay`, slower while hidden; any node answers: the state is the database's), refreshes it by itself as it expires unscanned
 * (a code that expires while the page is hidden is replaced when it shows again), and hands the session to `onSignedIn` once a phone confirms.
 */
export function useQrLogin(onSignedIn: (login: LoginResult) => void): { view: QrLoginView; refresh: () => void } {
  const [code, setCode] = useState<QrLoginCode | null>(null);
  const [view, setView] = useState<QrLoginView>({ status: 'loading' });
  const [due, setDue] = useState<LoginCodeDue | null>('first');
  const visibility = useSyncExternalStore(onVisibilityChange, pageVisibility);
  const autoLeft = useRef(AUTO_REFRESHES);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  const load = useCallback(async () => {
    setView({ status: 'loading' });
    try {
      const made = await api.qrLoginCreate({}, { silent: true, quiet: true });
      setCode(made);
      setView({ status: 'waiting', qrUrl: made.qrUrl });
    } catch {
      setCode(null);
      setView({ status: 'failed' });
    }
  }, []);

  useEffect(() => {
    if (!asksForLoginCode(due, visibility, autoLeft.current)) return;
    if (due === 'expired') autoLeft.current -= 1;
    setDue(null);
    void load();
  }, [due, visibility, load]);

  const polling = code !== null && (view.status === 'waiting' || view.status === 'scanned');
  useEffect(() => {
    if (!polling || !code) return;
    let live = true;
    const timer = setTimeout(() => {
      api.qrLoginState({ code: code.code, secret: code.secret }, { silent: true, quiet: true }).then(
        (s) => {
          if (!live) return;
          const qrUrl = code.qrUrl;
          if (s.state === 'confirmed' && s.login) {
            setView({ status: 'confirmed', qrUrl });
            signedIn.current(s.login);
          } else if (s.state === 'scanned' && s.scanner) {
            setView({ status: 'scanned', qrUrl, scanner: s.scanner });
          } else if (s.state === 'expired' && view.status === 'waiting' && autoLeft.current > 0) {
            if (document.visibilityState !== 'visible') setView({ status: 'expired', qrUrl });
            setDue('expired');
          } else if (s.state === 'waiting' || s.state === 'cancelled' || s.state === 'expired') {
            setView({ status: s.state, qrUrl });
          }
        },
        (error: unknown) => {
          // A code the server no longer keeps has expired; after a network failure the same view,
          // as a new object, sets the next ask.
          if (!live) return;
          if (error instanceof ApiError && error.kind === 'server') setView({ status: 'expired', qrUrl: code.qrUrl });
          else setView((v) => ({ ...v }));
        },
      );
    }, loginPollDelay(visibility));
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [polling, code, view, load, visibility]);

  const refresh = useCallback(() => {
    autoLeft.current = AUTO_REFRESHES;
    setDue(null);
    void load();
  }, [load]);

  return { view, refresh };
}
