import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { FIRST_SECTIONS } from '../../tools/locale-parts';
import { FIRST_SCREEN_PAGES } from '../../tools/bundle-budget';
import { appRoutes } from './routes';
import * as navPaths from '../nav/paths';

const src = fileURLToPath(new URL('..', import.meta.url));
const read = (locale: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(src, 'i18n', 'locales', `${locale}.json`), 'utf8')) as Record<string, unknown>;

// The parts as the app fetches them, made by the Vite plugin (vitest.config.ts uses it too).
const firstParts = import.meta.glob<object>('../i18n/locales/*.json', { query: '?part=first', import: 'default' });
const restParts = import.meta.glob<object>('../i18n/locales/*.json', { query: '?part=rest', import: 'default' });

function leaves(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [prefix];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

const sections = Object.keys(read('zh-Hans'));

/** The .ts/.tsx file a relative import names, if it is one. */
function resolveImport(from: string, spec: string): string | null {
  const base = join(dirname(from), spec);
  for (const file of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(file) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return null;
}

/** The files and every file they import statically (not `import type`, not `import()`), transitively. */
function staticClosure(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  const importRe = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(importRe)) {
      const found = resolveImport(file, (m[1] ?? m[2])!);
      if (found) todo.push(found);
    }
  }
  return seen;
}

/** Top-level sections a file names in a string, `'login.title'` or `` `errors.${code}` ``. */
function sectionsIn(text: string): string[] {
  const re = new RegExp(`['"\`](${sections.join('|')})\\.`, 'g');
  return [...text.matchAll(re)].map((m) => m[1]!);
}

const routesFile = join(src, 'app', 'routes.ts');

/**
 * The route table's pages as written in app/routes.ts: the path's name, the page module, and
 * whether the loader waits for the locale's rest part (`afterLocale`).
 */
function routePages(): { path: string; module: string; waits: boolean }[] {
  const text = readFileSync(routesFile, 'utf8');
  const loaders = new Map([...text.matchAll(/const (\w+) = (lazyPage\(.*\));/g)].map((m) => [m[1]!, m[2]!]));
  return text
    .split(/(?=\{\s*path: )/)
    .slice(1)
    .flatMap((block) => {
      const path = /path: (\w+)\.(\w+)/.exec(block);
      const page = /page: (\w+)\s*[,}]/.exec(block);
      const loader = page ? loaders.get(page[1]!) : /page: (lazyPage\([\s\S]*?\)\)),/.exec(block)?.[1];
      const module = loader && /import\('([^']+)'\)/.exec(loader)?.[1];
      if (!path || !loader || !module) return [];
      const table = (navPaths as unknown as Record<string, Record<string, string>>)[path[1]!];
      const file = resolveImport(routesFile, module);
      if (!table?.[path[2]!] || !file) return [];
      return [{ path: table[path[2]!]!, module: file, waits: loader.includes('afterLocale(') }];
    });
}

describe('locale parts', () => {
  it('lists only sections the locales have, and leaves a rest', () => {
    expect(sections.filter((s) => (FIRST_SECTIONS as readonly string[]).includes(s)).sort()).toEqual(
      [...FIRST_SECTIONS].sort(),
    );
    expect(sections.length).toBeGreaterThan(FIRST_SECTIONS.length);
  });

  for (const locale of LOCALES) {
    it(`${locale}: every key is in exactly one part, the first holding the listed sections`, async () => {
      const first = await firstParts[`../i18n/locales/${locale}.json`]!();
      const rest = await restParts[`../i18n/locales/${locale}.json`]!();
      const all = leaves(read(locale)).sort();
      const firstKeys = leaves(first);
      const restKeys = leaves(rest);
      expect([...firstKeys, ...restKeys].sort()).toEqual(all);
      expect(firstKeys.filter((k) => restKeys.includes(k))).toEqual([]);
      expect(Object.keys(first).sort()).toEqual([...FIRST_SECTIONS].sort());
      expect(Object.keys(rest).length).toBeGreaterThan(0);
    });
  }

  it('has in the first part every section the code before the login paint and the signed-out pages name', () => {
    const pages = routePages();
    const publicPages = pages.filter((p) => navPaths.publicPaths.includes(p.path));
    // The scan found the table: the login pages are public and load without waiting.
    for (const page of FIRST_SCREEN_PAGES) {
      expect(publicPages.some((p) => p.module === join(src, '..', page) && !p.waits)).toBe(true);
    }
    const roots = [join(src, 'main.tsx'), ...publicPages.filter((p) => !p.waits).map((p) => p.module)];
    const named = new Map<string, string>();
    for (const file of staticClosure(roots)) {
      // The route table names every route's title; only the public routes' titles are shown signed out.
      if (file === routesFile) continue;
      for (const section of sectionsIn(readFileSync(file, 'utf8'))) named.set(section, relative(src, file));
    }
    const publicTitles = appRoutes.filter((r) => !r.auth).map((r) => r.title.split('.')[0]!);
    for (const section of publicTitles) named.set(section, 'app/routes.ts');
    expect(named.size).toBeGreaterThan(5);
    const missing = [...named].filter(([section]) => !(FIRST_SECTIONS as readonly string[]).includes(section));
    expect(missing.map(([section, file]) => `${section} (${file})`)).toEqual([]);
  });

  it('makes the signed-in screen wait for the rest part', () => {
    const app = readFileSync(join(src, 'app', 'App.tsx'), 'utf8');
    expect(app).toMatch(/const Screen = lazyPage\(afterLocale\(/);
  });

  it('starts on the first part, adds the rest without a fallback, and switches with both parts', async () => {
    Object.assign(globalThis, { document: { documentElement: { lang: '' } } });
    const { changeLocale, i18next, initI18n, localeReady } = await import('../i18n');
    const fr = read('fr') as Record<string, Record<string, unknown>>;
    const es = read('es') as Record<string, Record<string, unknown>>;
    // Asked for as soon as i18next is up, before the rest can be in: the key shows, English is not
    // fetched for it (checked below), since the rest is on its way.
    let early = '';
    i18next.on('initialized', () => {
      early = i18next.t('group.routes.info' as never);
    });
    await initI18n('fr');
    expect(early).toBe('group.routes.info');
    expect(i18next.t('login.heading' as never)).toBe(fr.login!.heading);
    await localeReady();
    expect(i18next.t('group.routes.info' as never)).toBe((fr.group!.routes as Record<string, string>).info);
    await changeLocale('es');
    expect(i18next.t('login.heading' as never)).toBe(es.login!.heading);
    expect(i18next.t('group.routes.info' as never)).toBe((es.group!.routes as Record<string, string>).info);
    // Time enough for a fetch of English to have come in, had one been started.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(i18next.hasResourceBundle('en', 'translation')).toBe(false);
    expect(document.documentElement.lang).toBe('es');
  });
});
