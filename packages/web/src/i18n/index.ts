import { FALLBACK_LOCALE, type Locale } from '@sparrow/protocol';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { settings } from '../stores/settings';
import type { MessageKey, Messages } from './keys';

// Each locale comes in two chunks (tools/locale-parts.ts): the first holds the sections the login
// page and the code before it use, the rest every other section. Only the locale in use is fetched.
// Every locale has every key (locales.test.ts), so English, the fallback, is fetched only if a key
// is ever missing.
type Part = Partial<Messages>;
const parts = {
  first: import.meta.glob<Part>('./locales/*.json', { query: '?part=first', import: 'default' }),
  rest: import.meta.glob<Part>('./locales/*.json', { query: '?part=rest', import: 'default' }),
};
type PartName = keyof typeof parts;

/** Fetches in flight or done, one per locale and part; a failed one (offline) is tried again next time. */
const fetches = new Map<string, Promise<Part>>();
/** The parts i18next holds, as `fr first`. */
const added = new Set<string>();

function fetchPart(locale: Locale, part: PartName): Promise<Part> {
  const key = `${locale} ${part}`;
  let fetching = fetches.get(key);
  if (!fetching) {
    const load = parts[part][`./locales/${locale}.json`];
    fetching = load ? load() : Promise.reject(new Error(`no messages for ${locale}`));
    fetching.catch(() => fetches.delete(key));
    fetches.set(key, fetching);
  }
  return fetching;
}

async function addPart(locale: Locale, part: PartName): Promise<void> {
  const key = `${locale} ${part}`;
  if (added.has(key)) return;
  const messages = await fetchPart(locale, part);
  if (added.has(key)) return;
  // Deep: the parts hold different sections of one bundle.
  i18next.addResourceBundle(locale, 'translation', messages, true, false);
  added.add(key);
}

const hasRest = (locale: Locale) => added.has(`${locale} rest`);

/** Both parts of a locale. */
async function ensureLoaded(locale: Locale): Promise<void> {
  await Promise.all([addPart(locale, 'first'), addPart(locale, 'rest')]);
}

function applyDocumentLanguage(locale: Locale): void {
  document.documentElement.lang = locale;
}

/**
 * Resolves once every message of the language in use is in, its rest part too (fetched again if it
 * had failed). The signed-in screen, and the signed-out pages that use rest sections, wait for it
 * before they show, so no page paints a key; the login page and the code before it need only the first part.
 */
export function localeReady(): Promise<void> {
  return addPart(i18next.language as Locale, 'rest');
}

/** `loader` resolving once the module is in and localeReady() too: for a lazy page's import. */
export function afterLocale<M>(loader: () => Promise<M>): () => Promise<M> {
  return () => Promise.all([loader(), localeReady()]).then(([mod]) => mod);
}

/** Starts i18next in the saved locale; resolves once its first part is in, while the rest comes on. */
export async function initI18n(locale: Locale): Promise<void> {
  // Both fetches start now; the login page paints once the first is in.
  fetchPart(locale, 'rest').catch(() => {
    // Offline without the service worker's copy: localeReady() tries again.
  });
  const messages = await fetchPart(locale, 'first');
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: FALLBACK_LOCALE,
    load: 'currentOnly',
    resources: { [locale]: { translation: messages } },
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
    // Components render again when messages are added: the rest part after the first paint, the fallback.
    react: { bindI18nStore: 'added' },
    // A key missing from the locale in use brings the fallback in, for the renders after it. A key of
    // the rest part still on its way is not missing.
    saveMissing: true,
    missingKeyHandler: () => {
      const language = i18next.language as Locale;
      if (language === FALLBACK_LOCALE || !hasRest(language)) return;
      ensureLoaded(FALLBACK_LOCALE).catch(() => {
        // Offline: the key itself stays on screen.
      });
    },
  });
  added.add(`${locale} first`);
  localeReady().catch(() => {
    // As above: tried again by whoever waits for it.
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
