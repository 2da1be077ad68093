import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The top-level sections of a locale that come before the login page paints: every section the
 * code loaded before that paint refers to (the entry and the login route's static imports: the
 * shell, the session, start-up dialogs, notifications) and the pages a signed-out visitor sees
 * without waiting (login, register, auto-login) with the titles of the public routes. Every other
 * section is the locale's "rest", fetched right after without holding up the paint.
 *
 * Kept right by src/app/locale-parts.test.ts, which scans those files for `'section.` strings
 * and fails naming any section missing here. A signed-out page that needs a rest section (about,
 * doc) waits for it in its route's loader (`afterLocale` in app/routes.ts) rather than being listed.
 */
export const FIRST_SECTIONS = [
  'app',
  'autoLogin',
  'call',
  'chat',
  'common',
  'contacts',
  'errors',
  'home',
  'lazy',
  'login',
  'pat',
  'qrLogin',
  'register',
  'routes',
  'secure',
  'setting',
  'validation',
] as const;

export type LocalePart = 'first' | 'rest';

const FIRST = new Set<string>(FIRST_SECTIONS);

/** The sections of a locale's messages that belong to one part. */
export function localePart<T extends object>(messages: T, part: LocalePart): Partial<T> {
  return Object.fromEntries(
    Object.entries(messages).filter(([section]) => FIRST.has(section) === (part === 'first')),
  ) as Partial<T>;
}

/** `…/locales/fr.json?part=first`: the module of one part of a locale file. */
const PART_ID = /^(.*\/locales\/[^/]+\.json)\?part=(first|rest)$/;

/**
 * Serves each part of a locale file as its own module (`./locales/fr.json?part=first` and
 * `?part=rest`), in `vite serve`, `vite build` and vitest alike: the files on disk stay whole and
 * each part is its own chunk, which the service worker precaches like every built file.
 */
export function localeParts(): Plugin {
  return {
    name: 'sparrow-locale-parts',
    enforce: 'pre',
    load(id) {
      const match = PART_ID.exec(id);
      if (!match) return null;
      const [, file, part] = match as unknown as [string, string, LocalePart];
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as object;
      // JSON.parse of a string literal: quicker to load than the same object as code.
      const text = JSON.stringify(JSON.stringify(localePart(messages, part)));
      return { code: `export default JSON.parse(${text});\n`, moduleType: 'js' };
    },
  };
}
