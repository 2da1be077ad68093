import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '@sparrow/protocol';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('./locales/', import.meta.url));
const read = (locale: string): unknown => JSON.parse(readFileSync(`${dir}${locale}.json`, 'utf8')) as unknown;

/** Every leaf of a messages object as `a.b.c` → value. */
function leaves(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      for (const [path, leaf] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(path, leaf);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** Keys of the source that the other locale lacks or leaves empty. */
export function missingKeys(source: unknown, target: unknown): string[] {
  const have = leaves(target);
  return [...leaves(source).keys()].filter((key) => {
    const v = have.get(key);
    return typeof v !== 'string' || v.trim() === '';
  });
}

const placeholders = (s: unknown) =>
  typeof s === 'string' ? [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort() : [];

describe('locale files', () => {
  const source = read('zh-Hans');

  it('has exactly one file per supported locale', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...LOCALES].sort());
  });

  it('has no empty value in the source locale', () => {
    expect(missingKeys(source, source)).toEqual([]);
  });

  for (const locale of LOCALES.filter((l) => l !== 'zh-Hans')) {
    it(`${locale} has every key of zh-Hans, none empty`, () => {
      expect(missingKeys(source, read(locale))).toEqual([]);
    });

    it(`${locale} has no key zh-Hans lacks, and the same {{placeholders}}`, () => {
      const target = leaves(read(locale));
      const src = leaves(source);
      // Chinese has one plural form: another language may add its own (`hits_one`) beside the key.
      const base = (k: string) => k.replace(/_(zero|one|two|few|many)$/, '');
      expect([...target.keys()].filter((k) => !src.has(k) && !src.has(base(k)))).toEqual([]);
      for (const [key, value] of target) {
        if (!src.has(key)) expect(placeholders(value), `${locale} ${key}`).toEqual(placeholders(src.get(base(key))));
      }
      for (const [key, value] of src) {
        expect(placeholders(target.get(key)), `${locale} ${key}`).toEqual(placeholders(value));
      }
    });
  }

  it('leaves nothing untranslated: no value is its key, Chinese or, at sentence length, English', () => {
    const han = /[\u3400-\u9fff]/;
    /** Where a Latin-script locale names the languages in their own scripts. */
    const namesLanguages = new Set(['doc.languageBody']);
    const english = leaves(read('en'));
    const words = (v: string) => v.replace(/\{\{\w+\}\}/g, '').match(/\p{L}{2,}/gu) ?? [];
    const untranslated: string[] = [];
    for (const locale of LOCALES.filter((l) => l !== 'zh-Hans')) {
      for (const [key, value] of leaves(read(locale))) {
        if (typeof value !== 'string') continue;
        const latin = !locale.startsWith('zh');
        if (value === key) untranslated.push(`${locale} ${key}: the key`);
        else if (latin && han.test(value) && !namesLanguages.has(key)) untranslated.push(`${locale} ${key}: Chinese`);
        else if ((locale === 'es' || locale === 'fr') && value === english.get(key) && words(value).length >= 3)
          untranslated.push(`${locale} ${key}: English`);
      }
    }
    expect(untranslated).toEqual([]);
  });

  it('says one new notice in the singular where the language has one', async () => {
    const said: Record<string, [string, string]> = {};
    for (const locale of ['en', 'es', 'fr', 'zh-Hans']) {
      const i18n = i18next.createInstance();
      await i18n.init({ lng: locale, resources: { [locale]: { translation: read(locale) as object } } });
      said[locale] = [i18n.t('moments.newNotices', { count: 1 }), i18n.t('moments.newNotices', { count: 3 })];
    }
    expect(said).toEqual({
      en: ['1 new message', '3 new messages'],
      es: ['1 mensaje nuevo', '3 mensajes nuevos'],
      fr: ['1 nouveau message', '3 nouveaux messages'],
      'zh-Hans': ['1 条新消息', '3 条新消息'],
    });
  });

  it('flags a locale that lacks a key or leaves one empty', () => {
    expect(missingKeys({ a: { b: 'x', c: 'y' } }, { a: { b: 'x' } })).toEqual(['a.c']);
    expect(missingKeys({ a: 'x' }, { a: '  ' })).toEqual(['a']);
    expect(missingKeys({ a: 'x' }, { a: { nested: 'x' } })).toEqual(['a']);
  });
});
