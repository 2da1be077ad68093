import { APP_VERSION, LOCALE_NAMES, LOCALES, type Locale } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { checkForUpdate } from '../../app/system';
import { Cell, CellGroup, OptionList, SwitchCell } from '../../components/Cell';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { LastSeenCell, LastSeenPicker } from '../../components/presence/LastSeenTo';
import { ReadReceiptSwitch } from '../../components/receipts/ReadReceiptSwitch';
import { TypingSwitch } from '../../components/chat/TypingSwitch';
import { useLocaleChoice } from '../../i18n/use-locale-choice';
import { SEND_KEYS, type SendKey } from '../../lib/desk-keys';
import { THEME_CHOICES, type ThemeChoice } from '../../lib/color-theme';
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

const THEME_LABELS = { system: 'setting.themeSystem', light: 'setting.themeLight', dark: 'setting.themeDark' } as const;

/** 深色模式: follow the system's scheme, or always light, or always dark; shown at once. */
function ThemePicker() {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const theme = useSettings((s) => s.theme);
  return (
    <Page title={t('setting.theme')} onBack={back}>
      <OptionList
        legend={t('setting.theme')}
        name="theme"
        options={THEME_CHOICES}
        value={theme}
        label={(choice: ThemeChoice) => t(THEME_LABELS[choice])}
        onChange={(choice) => settings.setTheme(choice)}
      />
    </Page>
  );
}

const SEND_KEY_LABELS = { enter: 'desk.sendKeyEnter', ctrlEnter: 'desk.sendKeyCtrlEnter' } as const;

/** Which key sends a message at a keyboard; the other breaks the line. */
function SendKeyPicker() {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const sendKey = useSettings((s) => s.sendKey);
  return (
    <Page title={t('desk.sendKey')} onBack={back}>
      <OptionList
        legend={t('desk.sendKey')}
        name="sendKey"
        options={SEND_KEYS}
        value={sendKey}
        label={(key: SendKey) => t(SEND_KEY_LABELS[key])}
        onChange={(key: SendKey) => {
          settings.setSendKey(key);
          back();
        }}
      />
    </Page>
  );
}

/** Settings: language, dark mode, message alerts, round avatars, updates, logout. */
export default function SettingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const language = useSettings((s) => s.language);
  const appSetting = useSettings((s) => s.appSetting);
  const sendKey = useSettings((s) => s.sendKey);
  const theme = useSettings((s) => s.theme);

  if (params.get('action') === 'language') return <LanguagePicker />;
  if (params.get('action') === 'sendKey') return <SendKeyPicker />;
  if (params.get('action') === 'theme') return <ThemePicker />;
  if (params.get('action') === 'lastSeen') return <LastSeenPicker />;

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
        <Cell title={t('setting.theme')} value={t(THEME_LABELS[theme])} to={`${paths.setting}?action=theme`} />
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
        <Cell title={t('desk.sendKey')} value={t(SEND_KEY_LABELS[sendKey])} to={`${paths.setting}?action=sendKey`} />
        <Cell title={t('setting.checkUpdate')} value={APP_VERSION} onClick={() => void checkForUpdate(true)} />
      </CellGroup>
      <CellGroup title={t('block.privacy')}>
        <ReadReceiptSwitch />
        <TypingSwitch />
        <LastSeenCell />
        <Cell title={t('block.entry')} to={paths.blocked} />
        <Cell title={t('report.mine')} to={paths.reports} />
      </CellGroup>
      <CellGroup title={t('setting.developer')}>
        <Cell title={t('routes.tokens')} to={paths.tokens} />
        <Cell title={t('routes.bots')} to={paths.bots} />
      </CellGroup>
      <div className="actions">
        <button type="button" className="button button-danger" onClick={() => void handleLogout()}>
          {t('setting.logout')}
        </button>
      </div>
    </Page>
  );
}
