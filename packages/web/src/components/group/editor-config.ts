import { EDITOR } from '@sparrow/protocol';

/**
 * The announcement editor's rules (docs/product.md §9 rich-text editor), kept apart from Quill so they can
 * be tested without a browser: undo history merging edits within 1000 ms and keeping at most
 * 100 steps, at most 8 indent levels, links only with http, https, mailto or tel.
 */

/** Quill's history module options. */
export const HISTORY_OPTIONS = {
  delay: EDITOR.historyDelayMs,
  maxStack: EDITOR.historyMaxSteps,
  // Only what the person typed is undone; loading the current announcement is not a step.
  userOnly: true,
} as const;

/** Indent levels the editor accepts: 1 … EDITOR.maxIndent (0 is no indent). */
export const INDENT_LEVELS: readonly number[] = Array.from({ length: EDITOR.maxIndent }, (_, i) => i + 1);

/** An indent level held to 0 … EDITOR.maxIndent; anything unreadable is no indent. */
export function clampIndent(level: unknown): number {
  const n = typeof level === 'number' ? level : typeof level === 'string' ? Number.parseInt(level, 10) : NaN;
  if (!Number.isFinite(n)) return 0;
  return Math.min(EDITOR.maxIndent, Math.max(0, Math.trunc(n)));
}

/** The level after applying Quill's indent value (`+1`, `-1` or a level) to the current one. */
export function nextIndent(current: number, value: unknown): number {
  if (value === '+1') return clampIndent(current + 1);
  if (value === '-1') return clampIndent(current - 1);
  return clampIndent(value);
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** The scheme of a link, lower-cased; null when the text has none (`example.com`). */
export function linkScheme(url: string): string | null {
  const m = SCHEME.exec(url.trim());
  return m ? m[1]!.toLowerCase() : null;
}

/** True for links the announcement may carry (EDITOR.linkProtocols). */
export function isAllowedLink(url: string): boolean {
  const scheme = linkScheme(url);
  return scheme !== null && (EDITOR.linkProtocols as readonly string[]).includes(scheme);
}

/**
 * What someone typed into the link box, as the link to store: `example.com` becomes
 * `https://example.com`; a link of another kind (javascript:, data:, file:…) or with spaces or
 * control characters inside is refused (null).
 */
export function normalizeLink(input: string): string | null {
  const url = input.trim();
  // Spaces and control characters inside a link are how scheme checks get fooled (`java\tscript:`).
  // eslint-disable-next-line no-control-regex -- the control characters are what this looks for
  if (!url || /[\s\u0000-\u001f\u007f]/.test(url)) return null;
  // A host name, with an optional port, path or query, is the web address someone means. (A URL
  // parser reads `example.com:8080` as the scheme `example.com`, hence the explicit test.)
  if (/^[\w-]+(\.[\w-]+)+(:\d+)?([/?#].*)?$/.test(url)) return `https://${url}`;
  return isAllowedLink(url) ? url : null;
}

/** Quill's address for a refused link: it keeps the text and the link leads nowhere. */
export const SANITIZED_LINK = 'about:blank';

/** Quill's link sanitizer with the product's protocols. */
export function sanitizeLink(url: string): string {
  return normalizeLink(url) ?? SANITIZED_LINK;
}

/**
 * The editor's HTML as it is posted to setNotice: without Quill's list-marker spans, and empty
 * when the text is (an empty editor still holds `<p><br></p>`).
 */
export function editorHtml(rootHtml: string, text: string): string {
  if (!text.trim()) return '';
  return rootHtml.replace(/<span class="ql-ui"[^>]*><\/span>/g, '');
}
