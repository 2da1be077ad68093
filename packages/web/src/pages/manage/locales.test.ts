import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('./locales/', import.meta.url));
const read = (locale: string): unknown => JSON.parse(readFileSync(`${dir}${locale}.json`, 'utf8')) as unknown;

/** Every `a.b.c` key of a messages object whose value is a text that is not blank. */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return value.trim() ? [prefix] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('the console’s own locale files', () => {
  it('has one per supported locale', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...LOCALES].sort());
  });

  for (const locale of LOCALES.filter((l) => l !== 'zh-Hans'))
    it(`${locale} has every key of zh-Hans and no other`, () => {
      expect(keys(read(locale)).sort()).toEqual(keys(read('zh-Hans')).sort());
    });
});
