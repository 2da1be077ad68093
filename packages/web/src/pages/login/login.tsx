import type { TwoStepPending } from '@sparrow/protocol';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, sendCode } from '../../api';
import { afterLocale } from '../../i18n';
import logo from '../../assets/logo.svg';
import { feedback } from '../../components/feedback';
import { Field, PasswordField } from '../../components/Field';
import { LanguageSelect } from '../../components/LanguageSelect';
import { Page } from '../../components/Page';
import { SendCodeButton } from '../../components/SendCodeButton';
import { useForm } from '../../lib/use-form';
import { checkAccount, checkCode, checkLoginPassword } from '../../lib/validation';
import { paths, withQuery } from '../../nav/paths';
import { preloadRoute } from '../../nav/preload';
import { signIn } from '../../session/account';
import { SsoButtons } from '../../components/sso/SsoButtons';
import { useConfig } from '../../stores/config';
import { session } from '../../stores/session';
import { PasskeyLogin } from './PasskeyLogin';

type Mode = 'password' | 'code';

/** The second step (两步验证): its own chunk, fetched once a sign-in asks for it. */
// The second step's words are in the locale's rest part: the form waits for them, never showing keys.
const TwoStepLogin = lazy(afterLocale(() => import('./TwoStepLogin')));

/** 扫码登录: its own chunk, so the form's first screen does not wait for it. */
const QrLoginPanel = lazy(() => import('../../components/qr/QrLoginPanel'));

/** Where the login code is shown first (a desk's screen); narrower screens show the form, the code a tap away. */
const QR_FIRST = '(min-width: 1024px)';

/**
 * Login by account and password, by a code sent to the account's email or phone, or by scanning a
 * login code with a phone already signed in (扫码登录: first on a wide screen).
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const sysInfo = useConfig((s) => s.config?.sysInfo);
  // The page a signed-out visitor opened (a scanned code's landing page): back there after signing in.
  const redirect = useSearchParams()[0].get('redirect');
  const [mode, setMode] = useState<Mode>('password');
  const [byQr, setByQr] = useState(() => window.matchMedia(QR_FIRST).matches);
  const [secondStep, setSecondStep] = useState<TwoStepPending['two_step'] | null>(null);
  const form = useForm({ account: '', password: '', code: '' }, (v) => ({
    account: checkAccount(v.account),
    password: mode === 'password' ? checkLoginPassword(v.password) : null,
    code: mode === 'code' ? checkCode(v.code) : null,
  }));

  useEffect(() => {
    // The next screen after a login; fetched while the user types.
    preloadRoute(paths.home);
    // Arrived after signing out: a page opened from now on is come back to after signing in.
    session.forgetSignOut();
  }, []);

  const handleSubmit = form.submit(async ({ account, password, code }) => {
    const body = mode === 'password' ? { account, password, two_step: 1 } : { account, code, two_step: 1 };
    const result = await api.login(body, { loading: true, quiet: true });
    // Arriving at the next page says it worked: a "登录成功" toast would only linger over it.
    if ('two_step' in result) setSecondStep(result.two_step);
    else signIn(result, redirect);
  });

  // A provider's sign-in of a user with a second factor: that step, in the form's place.
  const showSecondStep = useCallback((challenge: TwoStepPending['two_step']) => {
    setByQr(false);
    setSecondStep(challenge);
  }, []);

  const handleSendCode = async () => {
    if (checkAccount(form.values.account)) {
      feedback.toast(t('validation.accountFirst'));
      return false;
    }
    await sendCode(form.values.account.trim(), 'Login', { loading: true });
    return true;
  };

  const name = sysInfo?.name || t('app.name');
  if (byQr) {
    return (
      <Page title={t('routes.login')} back={false} className="auth">
        <div className="auth-hero">
          <img className="auth-logo" src={sysInfo?.logo || logo} alt="" />
          <h2 className="auth-heading">{t('login.heading', { name })}</h2>
        </div>
        <Suspense fallback={<span className="spinner" aria-hidden="true" />}>
          <QrLoginPanel onSignedIn={(login) => signIn(login, redirect)} onUsePassword={() => setByQr(false)} />
        </Suspense>
        <SsoButtons redirect={redirect} onSecondStep={showSecondStep} />
        <LanguageSelect />
      </Page>
    );
  }
  return (
    <Page title={t('routes.login')} back={false} className="auth">
      <div className="auth-hero">
        <img className="auth-logo" src={sysInfo?.logo || logo} alt="" />
        <h2 className="auth-heading">{t('login.heading', { name })}</h2>
        <p className="auth-sub">{t('login.subheading')}</p>
      </div>
      {secondStep ? (
        <Suspense fallback={<span className="spinner" aria-hidden="true" />}>
          <TwoStepLogin
            challenge={secondStep}
            onSignedIn={(result) => signIn(result, redirect)}
            onRestart={() => setSecondStep(null)}
          />
        </Suspense>
      ) : (
        <form onSubmit={(e) => void handleSubmit(e)} noValidate>
          <div className="form">
            <Field
              label={t('login.account')}
              placeholder={t('login.accountPlaceholder')}
              autoComplete="username"
              autoCapitalize="off"
              name="account"
              {...form.bind('account')}
            />
            {mode === 'password' ? (
              <PasswordField
                label={t('login.password')}
                placeholder={t('login.passwordPlaceholder')}
                autoComplete="current-password"
                name="password"
                {...form.bind('password')}
              />
            ) : (
              <Field
                label={t('login.code')}
                placeholder={t('login.codePlaceholder')}
                inputMode="numeric"
                autoComplete="one-time-code"
                name="code"
                {...form.bind('code')}
                trailing={<SendCodeButton onSend={handleSendCode} />}
              />
            )}
          </div>
          <div className="actions">
            <button type="submit" className="button button-primary" disabled={form.busy}>
              {t('login.submit')}
            </button>
          </div>
          <div className="auth-switch">
            <button
              type="button"
              className="button button-link"
              onClick={() => setMode(mode === 'password' ? 'code' : 'password')}
            >
              {mode === 'password' ? t('login.useCode') : t('login.usePassword')}
            </button>
            <button type="button" className="button button-link" onClick={() => setByQr(true)}>
              {t('qrLogin.useQr')}
            </button>
            <PasskeyLogin onSignedIn={(result) => signIn(result, redirect)} />
            <span>
              {t('login.noAccount')}{' '}
              <Link to={withQuery(paths.register, { redirect: redirect ?? undefined })}>{t('login.register')}</Link>
            </span>
          </div>
        </form>
      )}
      <SsoButtons redirect={redirect} onSecondStep={showSecondStep} />
      <LanguageSelect />
    </Page>
  );
}
