import { LOCALE_NAMES, LOCALES, type Locale } from '@sparrow/protocol';
import { GlobalOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { changeLocale } from '../i18n';
import { useSettings } from '../stores/settings';
import { feedback } from './feedback';

/** The language switch of the pages before sign-in: each language named in itself. */
export function LanguageSelect() {
  const { t } = useTranslation();
  const language = useSettings((s) => s.language);
  return (
    <label className="language-select">
      <GlobalOutline aria-hidden="true" />
      <span className="visually-hidden">{t('setting.language')}</span>
      <select
        value={language}
        onChange={(e) => {
          changeLocale(e.target.value as Locale).catch(() => feedback.toast(t('errors.noNetwork')));
        }}
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}
