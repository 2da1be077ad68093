/** The five interface locales (docs/product.md §1); zh-Hans is the source and default, en the fallback. */
export const LOCALES = ['zh-Hans', 'zh-Hant', 'en', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-Hans';
export const FALLBACK_LOCALE: Locale = 'en';

/** Names of the locales, each in its own language. */
export const LOCALE_NAMES: Record<Locale, string> = {
  'zh-Hans': '简体中文',
  'zh-Hant': '繁體中文',
  en: 'English',
  es: 'Español',
  fr: 'Français',
};

/** Maps one language tag (`zh-CN`, `zh-TW`, `en-US`, `fr`) to a supported locale, or null. */
export function matchLocale(tag: string): Locale | null {
  const t = tag.trim().toLowerCase();
  if (!t) return null;
  if (t.startsWith('zh')) {
    return /hant|tw|hk|mo/.test(t) ? 'zh-Hant' : 'zh-Hans';
  }
  const base = t.split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : null;
}

/**
 * The locale for a device's preferred languages (`navigator.languages`): the first supported one,
 * zh-Hans when none is.
 */
export function preferredLocale(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const m = matchLocale(tag);
    if (m) return m;
  }
  return DEFAULT_LOCALE;
}

/** A language tag as BCP 47 spells one (`en`, `zh-Hans`, `pt-BR`); `undefined` and other text are not. */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_][a-z0-9]{1,8})*$/i;

/** The language tags an `Accept-Language` header names, best first; none for `*`, junk or nothing. */
function statedTags(header: string | undefined | null): string[] {
  if (!header) return [];
  // One tag without a weight, as a client that has chosen its language sends, needs no ranking.
  const tags = (/[,;]/.test(header) ? ranked(header) : [header]).map((t) => t.trim());
  // `*` is "any language": HTTP clients send it by default, so it means ours.
  const any = tags.indexOf('*');
  return (any === -1 ? tags : tags.slice(0, any)).filter((t) => LANGUAGE_TAG.test(t));
}

/**
 * The locale for an `Accept-Language` header: zh-Hans when it names no language (absent, `*`, or
 * text that is no language tag, as `undefined` from a client that has not chosen one), the best
 * supported match when it does, English when none of its languages is supported (docs/protocol.md §1).
 */
export function negotiateLocale(header: string | undefined | null): Locale {
  const tags = statedTags(header);
  if (tags.length === 0) return DEFAULT_LOCALE;
  for (const tag of tags) {
    const m = matchLocale(tag);
    if (m) return m;
  }
  return FALLBACK_LOCALE;
}

/** Whether an `Accept-Language` header names a language at all: only then is it worth remembering. */
export function statesLanguage(header: string | undefined | null): boolean {
  return statedTags(header).length > 0;
}

/** The tags of an `Accept-Language` header, by weight, then in the order given. */
function ranked(header: string): string[] {
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((r) => r.tag);
}
