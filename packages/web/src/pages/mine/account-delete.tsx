import { PASSWORD_MAX } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { PasswordField } from '../../components/Field';
import { Page } from '../../components/Page';
import { useForm } from '../../lib/use-form';
import { checkRequired } from '../../lib/validation';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { accountDeleted } from '../../session/account';

const WHAT_GOES = [
  'deleteWhatMessages',
  'deleteWhatFriends',
  'deleteWhatMoments',
  'deleteWhatGroups',
  'deleteWhatName',
] as const;

/** 注销账号: what deleting my account does, my password, a last confirmation, then the login page. */
export function AccountDeletePage() {
  const { t } = useTranslation();
  const back = useBackTo(paths.secure);
  const form = useForm({ password: '' }, (v) => ({
    password: checkRequired(v.password, 'validation.originalPassword'),
  }));

  const handleSubmit = form.submit(async (v) => {
    const sure = await feedback.confirm({
      title: t('secure.deleteConfirmTitle'),
      content: t('secure.deleteConfirmBody'),
      confirmText: t('secure.deleteConfirm'),
      cancelText: t('common.cancel'),
      danger: true,
    });
    if (!sure) return;
    await api.accountDelete({ password: v.password }, { loading: true, quiet: true });
    await accountDeleted();
    feedback.toast(t('secure.deleteDone'));
  });

  return (
    <Page title={t('secure.deleteAccount')} onBack={back}>
      <section aria-labelledby="delete-what">
        <h2 id="delete-what" className="cell-group-title">
          {t('secure.deleteWhat')}
        </h2>
        <ul className="form-note">
          {WHAT_GOES.map((key) => (
            <li key={key}>{t(`secure.${key}`)}</li>
          ))}
        </ul>
      </section>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        <div className="form cell-group">
          <PasswordField
            label={t('secure.deletePassword')}
            placeholder={t('secure.originalPasswordPlaceholder')}
            autoComplete="current-password"
            name="password"
            maxLength={PASSWORD_MAX}
            {...form.bind('password')}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-danger" disabled={form.busy}>
            {t('secure.deleteSubmit')}
          </button>
        </div>
      </form>
    </Page>
  );
}
