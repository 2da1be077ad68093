import type { Locale } from '../locales';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { zhHans, type MessageKey } from './zh-Hans';
import { zhHant } from './zh-Hant';

export type { MessageKey };

/** Server message catalogues, one per locale (zh-Hans is the source). */
export const serverMessages: Record<Locale, Record<MessageKey, string>> = {
  'zh-Hans': zhHans,
  'zh-Hant': zhHant,
  en,
  es,
  fr,
};

/** A server message in a locale, with `{name}` placeholders filled. */
export function translate(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  const text = serverMessages[locale][key] ?? serverMessages.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
