import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TAB_BAR } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { THEME_BAR_COLOR, THEME_CHOICES, resolveScheme, type ColorScheme, type ThemeChoice } from '../lib/color-theme';
import { GREEN_TEXT } from './theme';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

/** The custom properties of the first rule whose selector is exactly `selector`. */
function palette(css: string, selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  const body = css.slice(start, css.indexOf('}', start));
  return new Map([...body.matchAll(/(--[a-z0-9-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim().toLowerCase()]));
}

/** Runs public/theme-boot.js against a page with the given stored choice and system scheme. */
function boot(stored: string | null, systemDark: boolean): { attrs: Record<string, string>; bar: string } {
  const attrs: Record<string, string> = {};
  const meta = { content: '', setAttribute: (_: string, v: string) => (meta.content = v) };
  const window = {
    localStorage: { getItem: () => stored },
    matchMedia: (query: string) => ({ matches: query === '(prefers-color-scheme: dark)' && systemDark }),
  };
  const document = {
    documentElement: { setAttribute: (name: string, value: string) => (attrs[name] = value) },
    querySelector: () => meta,
  };
  new Function('window', 'document', read('../../public/theme-boot.js'))(window, document);
  return { attrs, bar: meta.content };
}

describe('colour themes', () => {
  const css = read('./styles.css');
  const light = palette(css, 'html:root');
  const dark = palette(css, "html:root[data-theme='dark']");

  it('draws the light theme with the colours of docs/product.md §9', () => {
    expect(light.get('--sp-page-bg')).toBe(TAB_BAR.pageBackground.toLowerCase());
    expect(light.get('--sp-green')).toBe(TAB_BAR.selectedColor.toLowerCase());
    expect(light.get('--sp-green-text')).toBe(GREEN_TEXT.toLowerCase());
    expect(light.get('--sp-nav-bg')).toBe(THEME_BAR_COLOR.light.toLowerCase());
    expect(dark.get('--sp-nav-bg')).toBe(THEME_BAR_COLOR.dark.toLowerCase());
    expect(TAB_BAR.color.toLowerCase()).toBe('#333');
    expect(light.get('--sp-tab-color')).toBe('#333333');
  });

  it('gives every colour of ours the dark theme changes a light value', () => {
    const missing = [...dark.keys()].filter((name) => name.startsWith('--sp-') && !light.has(name));
    expect(missing).toEqual([]);
    expect(dark.size).toBeGreaterThan(80);
  });

  it('shows before the first paint the scheme the app then keeps', () => {
    for (const stored of [...THEME_CHOICES, null, 'purple']) {
      for (const systemDark of [false, true]) {
        const choice: ThemeChoice = (THEME_CHOICES as readonly (string | null)[]).includes(stored)
          ? (stored as ThemeChoice)
          : 'system';
        const scheme: ColorScheme = resolveScheme(choice, systemDark);
        const shown = boot(stored, systemDark);
        expect(shown.attrs).toEqual({ 'data-theme': scheme, 'data-prefers-color-scheme': scheme });
        expect(shown.bar).toBe(THEME_BAR_COLOR[scheme]);
      }
    }
  });
});
