import { APP_VERSION, LOCALE_NAMES, LOCALES, type Locale } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { checkForUpdate } from '../../app/system';
import { Cell, CellGroup, OptionList, SwitchCell } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { useLocaleChoice } from '../../i18n/use-locale-choice';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { signOut } from '../../session/account';
import { settings, useSettings } from '../../stores/settings';
import { PushSwitches } from './push-switches';

function LanguagePicker() {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const [language, handleChange] = useLocaleChoice(() => feedback.toast(t('errors.noNetwork')));
  return (
    <Page title={t('setting.language')} onBack={back}>
      <OptionList
        legend={t('setting.language')}
        name="language"
        options={LOCALES}
        value={language}
        label={(locale: Locale) => LOCALE_NAMES[locale]}
        lang={(locale: Locale) => locale}
        onChange={handleChange}
      />
    </Page>
  );
}

/** Settings: language, message alerts, round avatars, updates, logout. */
export default function SettingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const language = useSettings((s) => s.language);
  const appSetting = useSettings((s) => s.appSetting);

  if (params.get('action') === 'language') return <LanguagePicker />;

  const handleLogout = async () => {
    const ok = await feedback
      .confirm({
        content: t('setting.logoutConfirm'),
        confirmText: t('setting.logout'),
        cancelText: t('common.cancel'),
        danger: true,
      })
      // Without the dialog (its chunk could not load) the user still gets signed out.
      .catch(() => true);
    if (ok) await signOut();
  };

  return (
    <Page title={t('routes.setting')}>
      <CellGroup>
        <Cell title={t('setting.language')} value={LOCALE_NAMES[language]} to={`${paths.setting}?action=language`} />
      </CellGroup>
      <CellGroup title={t('setting.notifications')}>
        <SwitchCell
          title={t('setting.voice')}
          checked={appSetting.voiceStatus}
          onChange={(voiceStatus) => settings.setAppSetting({ voiceStatus })}
        />
        <SwitchCell
          title={t('setting.vibrate')}
          checked={appSetting.vibrateStatus}
          onChange={(vibrateStatus) => settings.setAppSetting({ vibrateStatus })}
        />
        <PushSwitches />
      </CellGroup>
      <CellGroup title={t('setting.general')}>
        <SwitchCell
          title={t('setting.circleAvatar')}
          checked={appSetting.circleAvatar}
          onChange={(circleAvatar) => settings.setAppSetting({ circleAvatar })}
        />
        <Cell title={t('setting.checkUpdate')} value={APP_VERSION} onClick={() => void checkForUpdate(true)} />
      </CellGroup>
      <CellGroup title={t('block.privacy')}>
        <Cell title={t('block.entry')} to={paths.blocked} />
        <Cell title={t('report.mine')} to={paths.reports} />
      </CellGroup>
      <div className="actions">
        <button type="button" className="button button-danger" onClick={() => void handleLogout()}>
          {t('setting.logout')}
        </button>
      </div>
    </Page>
  );
}
