import { ACCOUNT_MAX, ACCOUNT_MIN, PASSWORD_MAX, PASSWORD_MIN } from '@sparrow/protocol';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, sendCode } from '../../api';
import { loadSystemInfo } from '../../app/system';
import { feedback } from '../../components/feedback';
import { Field, PasswordField } from '../../components/Field';
import { LanguageSelect } from '../../components/LanguageSelect';
import { Page } from '../../components/Page';
import { SendCodeButton } from '../../components/SendCodeButton';
import type { MessageKey } from '../../i18n/keys';
import { useForm } from '../../lib/use-form';
import {
  checkAccount,
  checkCode,
  checkPassword,
  checkRealname,
  checkRepeat,
  checkRequired,
} from '../../lib/validation';
import { paths, withQuery } from '../../nav/paths';
import { signIn } from '../../session/account';
import { useConfig } from '../../stores/config';

const accountLabel: Record<0 | 1 | 2 | 3, MessageKey> = {
  0: 'register.accountAny',
  1: 'register.accountPhone',
  2: 'register.accountEmail',
  3: 'register.accountPhoneOrEmail',
};

/**
 * Sign-up with the rules of docs/product.md §5 shown inline. sysInfo.regauth decides whether the account
 * must be a phone or email (then a code, sendCode type 2, is needed) and regtype 2 asks for an
 * invite code.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const sysInfo = useConfig((s) => s.config?.sysInfo);
  const regauth = sysInfo?.regauth ?? 0;
  const needsCode = regauth !== 0;
  const needsInvite = sysInfo?.regtype === 2;
  // Where the visitor was going before signing up (a scanned code's landing page).
  const redirect = useSearchParams()[0].get('redirect');

  useEffect(() => {
    // regauth and regtype may have changed since the stored copy.
    void loadSystemInfo();
  }, []);

  const form = useForm({ account: '', code: '', realname: '', password: '', repassword: '', inviteCode: '' }, (v) => ({
    account: checkAccount(v.account, regauth),
    code: needsCode ? checkCode(v.code) : null,
    realname: checkRealname(v.realname),
    password: checkPassword(v.password),
    repassword: checkRepeat(v.password, v.repassword),
    inviteCode: needsInvite ? checkRequired(v.inviteCode, 'validation.inviteCode') : null,
  }));

  const handleSendCode = async () => {
    const problem = checkAccount(form.values.account, regauth);
    if (problem) {
      feedback.toast(t(problem.key, problem.params));
      return false;
    }
    await sendCode(form.values.account.trim(), 'Register', { loading: true });
    return true;
  };

  const handleSubmit = form.submit(async (v) => {
    const account = v.account.trim();
    await api.register(
      {
        account,
        password: v.password,
        repassword: v.repassword,
        realname: v.realname.trim(),
        ...(needsCode ? { code: v.code.trim() } : {}),
        ...(needsInvite ? { inviteCode: v.inviteCode.trim() } : {}),
      },
      { loading: true, quiet: true },
    );
    const result = await api.login({ account, password: v.password }, { loading: true });
    if ('authToken' in result) signIn(result, redirect);
  });

  const lengths = { min: ACCOUNT_MIN, max: ACCOUNT_MAX };
  return (
    <Page title={t('routes.register')} className="auth">
      <div className="auth-hero auth-hero-compact">
        <h2 className="auth-heading">{t('register.heading')}</h2>
        {needsInvite && <p className="auth-sub">{t('register.inviteOnly')}</p>}
      </div>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form">
          <Field
            label={t(accountLabel[regauth])}
            placeholder={regauth === 0 ? t('register.accountPlaceholder', lengths) : undefined}
            autoComplete="username"
            autoCapitalize="off"
            inputMode={regauth === 1 ? 'tel' : regauth === 2 ? 'email' : undefined}
            name="account"
            {...form.bind('account')}
          />
          {needsCode && (
            <Field
              label={t('register.code')}
              placeholder={t('register.codePlaceholder')}
              inputMode="numeric"
              autoComplete="one-time-code"
              name="code"
              {...form.bind('code')}
              trailing={<SendCodeButton onSend={handleSendCode} />}
            />
          )}
          <Field
            label={t('register.realname')}
            placeholder={t('register.realnamePlaceholder')}
            autoComplete="nickname"
            name="realname"
            {...form.bind('realname')}
          />
          <PasswordField
            label={t('register.password')}
            placeholder={t('register.passwordPlaceholder', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
            autoComplete="new-password"
            name="password"
            {...form.bind('password')}
          />
          <PasswordField
            label={t('register.repassword')}
            placeholder={t('register.repasswordPlaceholder')}
            autoComplete="new-password"
            name="repassword"
            {...form.bind('repassword')}
          />
          {needsInvite && (
            <Field
              label={t('register.inviteCode')}
              placeholder={t('register.inviteCodePlaceholder')}
              autoCapitalize="off"
              name="inviteCode"
              {...form.bind('inviteCode')}
            />
          )}
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {t('register.submit')}
          </button>
        </div>
        <p className="auth-footer">
          {t('register.haveAccount')}
          <Link to={withQuery(paths.login, { redirect: redirect ?? undefined })}>{t('register.goLogin')}</Link>
        </p>
      </form>
      <LanguageSelect />
    </Page>
  );
}
