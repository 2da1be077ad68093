import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, ApiError } from '../../api';
import { paths } from '../../nav/paths';
import { session, sessionStore } from '../../stores/session';

/** Checks the stored token with checkuser: good → home, refused → login. */
export default function AutoLogin() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  useEffect(() => {
    let live = true;
    const go = (path: string) => {
      if (live) void navigate(path, { replace: true });
    };
    if (!sessionStore.getState().token) {
      go(paths.login);
      return;
    }
    api.checkuser({}, { silent: true }).then(
      (user) => {
        session.setUser(user);
        go(user.two_step_setup ? paths.twoStep : paths.home);
      },
      (e: unknown) => {
        const refused = e instanceof ApiError && (e.kind === 'session' || e.kind === 'unauthorized');
        // Offline is not a refusal: with a user on file, home works from what is stored.
        if (!refused && sessionStore.getState().user) {
          go(paths.home);
          return;
        }
        session.clear();
        go(paths.login);
      },
    );
    return () => {
      live = false;
    };
  }, [navigate]);

  return (
    <main id="main" className="status-center" aria-busy="true">
      <h1 className="visually-hidden">{t('routes.autoLogin')}</h1>
      <span className="spinner" aria-hidden="true" />
      <p role="status">{t('autoLogin.checking')}</p>
    </main>
  );
}
