import { LOCALE_NAMES, LOCALES, type Locale } from '@sparrow/protocol';
import { GlobalOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useLocaleChoice } from '../i18n/use-locale-choice';
import { feedback } from './feedback';

/** The language switch of the pages before sign-in: each language named in itself. */
export function LanguageSelect() {
  const { t } = useTranslation();
  const [language, choose] = useLocaleChoice(() => feedback.toast(t('errors.noNetwork')));
  return (
    <label className="language-select">
      <GlobalOutline aria-hidden="true" />
      <span className="visually-hidden">{t('setting.language')}</span>
      <select value={language} onChange={(e) => choose(e.target.value as Locale)}>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}
