import { PASSWORD_MAX, PASSWORD_MIN, type UserInfo } from '@sparrow/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api, sendCode } from '../../api';
import { Cell, CellGroup } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { Field, PasswordField } from '../../components/Field';
import { Page } from '../../components/Page';
import { SendCodeButton } from '../../components/SendCodeButton';
import { useForm } from '../../lib/use-form';
import { checkCode, checkEmailOrPhone, checkPassword, checkRepeat, checkRequired } from '../../lib/validation';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { restrictionLifted } from '../../session/account';
import { session, useSession } from '../../stores/session';
import { AccountDeletePage } from './account-delete';
import { DataExportPage } from './data-export';

type Method = 'original' | 'code';

function PasswordForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const back = useBackTo(paths.secure);
  const canUseCode = user.is_auth === 1;
  const [method, setMethod] = useState<Method>('original');
  const form = useForm({ originalPassword: '', code: '', password: '', repassword: '' }, (v) => ({
    originalPassword: method === 'original' ? checkRequired(v.originalPassword, 'validation.originalPassword') : null,
    code: method === 'code' ? checkCode(v.code) : null,
    password: checkPassword(v.password),
    repassword: checkRepeat(v.password, v.repassword),
  }));

  const handleSendCode = async () => {
    await sendCode(user.account, 'ChangePassword', { loading: true });
    return true;
  };

  const handleSubmit = form.submit(async (v) => {
    const proof = method === 'original' ? { originalPassword: v.originalPassword } : { code: v.code.trim() };
    await api.editPassword({ password: v.password, ...proof }, { loading: true, quiet: true });
    feedback.toast(t('secure.passwordDone'));
    if (user.must_change_password) await restrictionLifted();
    back();
  });

  return (
    <Page title={t('secure.changePassword')} onBack={back}>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <fieldset className="segmented">
          <legend>{t('secure.method')}</legend>
          {(['original', 'code'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} />
              {m === 'original' ? t('secure.byOriginal') : t('secure.byCode')}
            </label>
          ))}
        </fieldset>
        {method === 'code' && !canUseCode ? (
          <p className="form-note" role="note">
            {t('secure.codeNeedsAuth')}
          </p>
        ) : (
          <>
            <div className="form">
              {method === 'original' ? (
                <PasswordField
                  label={t('secure.originalPassword')}
                  placeholder={t('secure.originalPasswordPlaceholder')}
                  autoComplete="current-password"
                  name="originalPassword"
                  {...form.bind('originalPassword')}
                />
              ) : (
                <Field
                  label={t('secure.code')}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  name="code"
                  hint={t('secure.codeTo', { account: user.account })}
                  {...form.bind('code')}
                  trailing={<SendCodeButton onSend={handleSendCode} />}
                />
              )}
              <PasswordField
                label={t('secure.newPassword')}
                placeholder={t('register.passwordPlaceholder', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
                autoComplete="new-password"
                name="password"
                {...form.bind('password')}
              />
              <PasswordField
                label={t('secure.confirmPassword')}
                autoComplete="new-password"
                name="repassword"
                {...form.bind('repassword')}
              />
            </div>
            <div className="actions">
              <button type="submit" className="button button-primary" disabled={form.busy}>
                {t('secure.submitPassword')}
              </button>
            </div>
          </>
        )}
      </form>
    </Page>
  );
}

function AccountForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const back = useBackTo(paths.secure);
  const needsOldCode = user.is_auth === 1;
  const form = useForm({ account: '', newCode: '', code: '' }, (v) => ({
    account: checkEmailOrPhone(v.account),
    newCode: checkCode(v.newCode),
    code: needsOldCode ? checkCode(v.code) : null,
  }));

  const sendTo = async (account: string) => {
    await sendCode(account, 'ChangeAccount', { loading: true });
    return true;
  };

  const handleSendNew = async () => {
    const problem = checkEmailOrPhone(form.values.account);
    if (problem) {
      feedback.toast(t(problem.key));
      return false;
    }
    return sendTo(form.values.account.trim());
  };

  const handleSubmit = form.submit(async (v) => {
    const account = v.account.trim();
    await api.editAccount(
      { account, newCode: v.newCode.trim(), code: needsOldCode ? v.code.trim() : '' },
      { loading: true, quiet: true },
    );
    session.setUser(await api.checkuser({}, { quiet: true }));
    feedback.toast(t('secure.accountDone', { account }));
    back();
  });

  return (
    <Page title={t('secure.bindAccount')} onBack={back}>
      <p className="form-note">{t('secure.bindHint')}</p>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form cell-group">
          <Field
            label={t('secure.newAccount')}
            placeholder={t('secure.newAccountPlaceholder')}
            autoComplete="email"
            autoCapitalize="off"
            name="account"
            {...form.bind('account')}
          />
          <Field
            label={t('secure.newCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            name="newCode"
            {...form.bind('newCode')}
            trailing={<SendCodeButton onSend={handleSendNew} />}
          />
          {needsOldCode && (
            <Field
              label={t('secure.oldCode')}
              inputMode="numeric"
              name="code"
              hint={t('secure.codeTo', { account: user.account })}
              {...form.bind('code')}
              trailing={<SendCodeButton onSend={() => sendTo(user.account)} />}
            />
          )}
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {t('secure.submitAccount')}
          </button>
        </div>
      </form>
    </Page>
  );
}

/** Security: the account and its verification, change password, bind an email or phone, download my data, delete my account. */
export default function SecurePage() {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const [params] = useSearchParams();
  const action = params.get('action');

  if (!user) return null;
  if (action === 'password') return <PasswordForm user={user} />;
  if (action === 'account') return <AccountForm user={user} />;
  if (action === 'delete') return <AccountDeletePage />;
  if (action === 'export') return <DataExportPage />;

  const verified = user.is_auth === 1;
  return (
    <Page title={t('routes.secure')}>
      <CellGroup>
        <Cell
          title={t('secure.account')}
          value={
            <>
              {user.account}
              <span className={`tag ${verified ? 'tag-ok' : 'tag-muted'}`}>
                {verified ? t('secure.verified') : t('secure.unverified')}
              </span>
            </>
          }
        />
      </CellGroup>
      <CellGroup>
        <Cell title={t('secure.changePassword')} to={`${paths.secure}?action=password`} />
        <Cell title={t('secure.bindAccount')} to={`${paths.secure}?action=account`} />
        <Cell title={t('twoStep.title')} to={paths.twoStep} />
        <Cell title={t('routes.passkeys')} to={paths.passkeys} />
        <Cell title={t('secure.devices')} to={paths.devices} />
      </CellGroup>
      <CellGroup>
        <Cell title={t('secure.exportTitle')} to={`${paths.secure}?action=export`} />
        <Cell title={t('secure.deleteAccount')} to={`${paths.secure}?action=delete`} />
      </CellGroup>
    </Page>
  );
}
