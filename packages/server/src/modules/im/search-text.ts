import { parseJson } from '../../lib/text';

/** The kinds of message search finds (the protocol's SearchableType). */
export const SEARCHED_TYPES = ['text', 'file', 'location', 'contact'] as const;

/**
 * The words a message is found by, kept in `messages.search_text` and indexed by trigrams: a
 * text's content (already plain, see send/draft.ts), a file's name, a place's name and address,
 * a card's name. Other kinds, and the "[位置]" and "[个人名片]" labels of the content, are not
 * searched, so that a word of the label does not find every place or card.
 */
export function searchText(type: string, content: string, ext: string): string {
  if (type === 'text') return content;
  if (!(SEARCHED_TYPES as readonly string[]).includes(type)) return '';
  const facts = parseJson(ext);
  const names =
    type === 'file' ? [facts.name] : type === 'location' ? [facts.name, facts.address] : [facts.displayName];
  return names.filter((n): n is string => typeof n === 'string' && n !== '').join('\n');
}

/** Words shorter than this are not indexed (one trigram is three characters). */
export const TRIGRAM = 3;

/** The words of a query: split on spaces, each at most once, case ignored. */
export function queryTerms(keywords: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of keywords.split(/\s+/u)) {
    const key = word.toLowerCase();
    if (word && !seen.has(key)) {
      seen.add(key);
      terms.push(word);
    }
  }
  return terms;
}

/** Characters as the trigram tokenizers count them (code points). */
export const codePoints = (s: string) => [...s].length;

/**
 * Where the terms occur in `text`, as sorted, merged `[start, end)` pairs of UTF-16 offsets:
 * case ignored, as the indexes ignore it.
 */
export function highlights(text: string, terms: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const term of terms) {
    const re = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
    for (const m of text.matchAll(re)) found.push([m.index, m.index + m[0].length]);
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const span of found) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}
