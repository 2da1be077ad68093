import { FALLBACK_LOCALE, type Locale } from '@sparrow/protocol';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { settings } from '../stores/settings';
import type { MessageKey, Messages } from './keys';

// Each locale is its own chunk: only the one in use is fetched. Every locale has every key
// (locales.test.ts), so English, the fallback, is fetched only if a key is ever missing.
const loaders = import.meta.glob<Messages>('./locales/*.json', { import: 'default' });

async function loadMessages(locale: Locale): Promise<Messages> {
  const load = loaders[`./locales/${locale}.json`];
  if (!load) throw new Error(`no messages for ${locale}`);
  return load();
}

async function ensureLoaded(locale: Locale): Promise<void> {
  if (i18next.hasResourceBundle(locale, 'translation')) return;
  i18next.addResourceBundle(locale, 'translation', await loadMessages(locale));
}

function applyDocumentLanguage(locale: Locale): void {
  document.documentElement.lang = locale;
}

/** Starts i18next in the saved locale; resolves once its messages are in. */
export async function initI18n(locale: Locale): Promise<void> {
  const messages = await loadMessages(locale);
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: FALLBACK_LOCALE,
    load: 'currentOnly',
    resources: { [locale]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
    // A key missing from the locale in use brings the fallback in, for the renders after it.
    saveMissing: true,
    missingKeyHandler: () => {
      if (i18next.language === FALLBACK_LOCALE) return;
      ensureLoaded(FALLBACK_LOCALE).catch(() => {
        // Offline: the key itself stays on screen.
      });
    },
  });
  applyDocumentLanguage(locale);
}

/** Switches the interface language and remembers it (stored item `language`). */
export async function changeLocale(locale: Locale): Promise<void> {
  await ensureLoaded(locale);
  await i18next.changeLanguage(locale);
  settings.setLanguage(locale);
  applyDocumentLanguage(locale);
}

export { i18next };

/**
 * t() for a key chosen at run time with its {{placeholders}}: i18next's typed overloads cannot
 * check a key and its values when both are variables.
 */
export function translate(key: MessageKey, params: Record<string, string | number> = {}): string {
  return String(i18next.t(key as never, params as never));
}
