import { SSO_START_PATH, ssoPath, type SsoButton, type TwoStepPending } from '@sparrow/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api';
import { signIn } from '../../session/account';
import './sso.css';

/** The errors the callback names in `sso_error` that have a message of their own. */
const NAMED_ERRORS = new Set(['SsoFailed', 'SsoNotAllowed', 'UserDisabled']);

/**
 * The login page's single sign-on (docs/product.md "Single sign-on"): a "使用 XX 登录" button per
 * provider the operator enabled, each a link to the server's start of the round trip; and, back
 * from it, the login page's `sso_code` exchanged once for a session (or its `sso_error` said). A
 * user with a second factor is answered its ticket instead: `onSecondStep` shows that step.
 */
export function SsoButtons({
  redirect,
  onSecondStep,
}: {
  redirect: string | null;
  onSecondStep: (challenge: TwoStepPending['two_step']) => void;
}) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [providers, setProviders] = useState<SsoButton[]>([]);
  const [busy, setBusy] = useState(false);
  const code = params.get('sso_code');
  const error = params.get('sso_error');
  const exchanged = useRef<string | null>(null);

  useEffect(() => {
    let live = true;
    api.ssoProviders({}, { silent: true }).then(
      (list) => live && setProviders(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    // A code is good once: a second render (React's development double effect) must not spend it again.
    if (!code || exchanged.current === code) return;
    exchanged.current = code;
    setBusy(true);
    const done = () => {
      setBusy(false);
      setParams((p) => (p.delete('sso_code'), p), { replace: true });
    };
    api.ssoExchange({ code }, { loading: true, quiet: true }).then((login) => {
      if ('two_step' in login) {
        done();
        onSecondStep(login.two_step);
      } else signIn(login, redirect);
    }, done);
  }, [code, redirect, setParams, onSecondStep]);

  if (busy)
    return (
      <p role="status" className="auth-footer">
        {t('login.sso.signingIn')}
      </p>
    );
  return (
    <>
      {error && (
        <p role="alert" className="sso-error">
          {NAMED_ERRORS.has(error)
            ? t(`login.sso.error.${error as 'SsoFailed' | 'SsoNotAllowed' | 'UserDisabled'}`)
            : t('login.sso.error.other')}
        </p>
      )}
      {providers.length > 0 && (
        <nav className="actions sso-buttons" aria-label={t('login.sso.others')}>
          {providers.map((p) => (
            <a key={p.id} className="button button-default" href={ssoPath(SSO_START_PATH, p.id)}>
              {t('login.sso.button', { label: p.label })}
            </a>
          ))}
        </nav>
      )}
    </>
  );
}
