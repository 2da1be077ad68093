import { FALLBACK_LOCALE, type Locale } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18next } from '../../i18n';
import type zhHans from './locales/zh-Hans.json';

/**
 * The console's own texts: a namespace loaded with the console, so that no other page (the login
 * page least of all) carries them.
 */
const NS = 'manage';
const loaders = import.meta.glob<ManageMessages>('./locales/*.json', { import: 'default' });

type ManageMessages = typeof zhHans;
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type ManageKey = Leaves<ManageMessages>;
export type ManageT = (key: ManageKey, params?: Record<string, string | number>) => string;

async function ensure(locale: string): Promise<void> {
  if (i18next.hasResourceBundle(locale, NS)) return;
  const load = loaders[`./locales/${locale}.json`];
  if (!load) return;
  i18next.addResourceBundle(locale, NS, await load());
}

/** Loads the texts of the language in use (and of the fallback), again when the language changes. */
export function useManageTexts(): { ready: boolean; failed: boolean; retry: () => void; t: ManageT } {
  const { i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [state, setState] = useState<{ locale: string; failed: boolean } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    Promise.all([ensure(locale), ensure(FALLBACK_LOCALE)]).then(
      () => live && setState({ locale, failed: false }),
      () => live && setState({ locale, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [locale, attempt]);
  const t: ManageT = (key, params = {}) => String(i18next.t(key as never, { ...params, ns: NS } as never));
  return {
    ready: state?.locale === locale && !state.failed,
    failed: state?.failed ?? false,
    retry: () => setAttempt((n) => n + 1),
    t,
  };
}
