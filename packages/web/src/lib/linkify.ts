/** A piece of message text: plain words, or a link the client may open (docs/protocol.md §2 text). */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const LINK = /\b(?:https?:\/\/[^\s<>"'`]+|mailto:[^\s<>"'`]+|tel:\+?[0-9][0-9\-\s()]{2,}[0-9])/gi;
const TRAILING = /[.,;:!?)\]}'"。，；：！？）】」』]+$/u;

/**
 * Splits text into words and links. Only http, https, mailto and tel links are made (the
 * product's allowed protocols); trailing punctuation stays text. React escapes everything else.
 */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    let url = m[0];
    const trail = TRAILING.exec(url)?.[0] ?? '';
    if (trail) url = url.slice(0, -trail.length);
    const start = m.index ?? 0;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({
      kind: 'link',
      text: url,
      href: url.replace(/^tel:([^]*)$/i, (_, n: string) => `tel:${n.replace(/[\s()-]/g, '')}`),
    });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** File sizes in B/KB/MB/GB/TB (docs/product.md §9). */
export function formatSize(bytes: number): string {
  let n = Math.max(0, bytes);
  let u = 0;
  while (n >= 1024 && u < UNITS.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u === 0 ? n : n.toFixed(n < 10 ? 1 : 0).replace(/\.0$/, '')} ${UNITS[u]}`;
}
