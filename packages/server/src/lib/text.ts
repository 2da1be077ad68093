/** Text helpers shared by modules: stored JSON read back, and HTML from older clients made plain. */

/**
 * Plain text from what an older client may send as HTML: tags dropped, line breaks kept. A tag
 * never spans a `<`, so each pattern scans a stretch of text once: `[^>]*` alone rescans the
 * rest of the text from every `<` that has no `>` after it.
 */
export function plainText(input: string): string {
  if (!/<[a-z/!][^<>]*>/i.test(input)) return input;
  return input
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^<>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
