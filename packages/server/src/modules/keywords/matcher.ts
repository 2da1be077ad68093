import { KEYWORD_GAP_MAX } from '@sparrow/protocol';
import AhoCorasick from 'modern-ahocorasick';

/** What a keyword list does to a text that contains one of its words. */
export type KeywordAction = 'refuse' | 'replace' | 'review';

/** The actions from the strongest down: a text with words of several lists gets the strongest. */
const STRENGTH: readonly KeywordAction[] = ['refuse', 'review', 'replace'];

/** A word or pattern with its list's action. */
export interface KeywordEntry {
  word: string;
  action: KeywordAction;
}

/** The separator of a pattern's parts: `赌*博` is 赌, then up to KEYWORD_GAP_MAX characters, then 博. */
const KEYWORD_WILDCARD = '*';

/** What a text's screening found: the strongest action, the words that matched, the text with replace words starred. */
export interface Screening {
  action: KeywordAction | null;
  /** The words and patterns that matched, as written in their lists, each once. */
  words: string[];
  /** The text with the matches of replace lists as `*`, one per character; the text itself when none. */
  replaced: string;
}

const FULL_WIDTH = /[\uFF01-\uFF5E\u3000]/;
const FULL_WIDTH_ALL = /[\uFF01-\uFF5E\u3000]/g;

/**
 * Folds a text for matching, one UTF-16 unit for one (so a match's offsets are the original's):
 * lower case, and full-width ASCII (ＡＢＣ！, the ideographic space) as half-width.
 */
export function foldText(text: string): string {
  let out = text.toLowerCase();
  if (out.length !== text.length) {
    // A letter whose lower case is longer (İ): fold unit by unit, leaving such letters as they are.
    let folded = '';
    for (const ch of text) {
      const lower = ch.toLowerCase();
      folded += lower.length === ch.length ? lower : ch;
    }
    out = folded;
  }
  if (!FULL_WIDTH.test(out)) return out;
  return out
    .replace(FULL_WIDTH_ALL, (ch) => (ch === '\u3000' ? ' ' : String.fromCharCode(ch.charCodeAt(0) - 0xfee0)))
    .toLowerCase();
}

/** Why a word cannot be a keyword, or null: empty, a `*` at either end or doubled, more than 4 parts. */
export function keywordProblem(word: string): string | null {
  const trimmed = word.trim();
  if (!trimmed) return 'empty';
  const parts = trimmed.split(KEYWORD_WILDCARD);
  if (parts.some((p) => p.trim() === '')) return 'wildcard';
  if (parts.length > 4) return 'parts';
  return null;
}

/** ASCII units per character in the automaton's alphabet. */
const CODE_UNITS = 3;
/** The highest code point told apart: those above read as this one (private use and tags only). */
const CODE_MAX = 0x3ffff;

/**
 * A folded text as the automaton reads it: each character (code point) as three ASCII units
 * (`@`–DEL, six bits each). modern-ahocorasick matches whole graphemes, segmenting a text with
 * Intl.Segmenter, except on ASCII, which it reads unit by unit; coded so, any script takes the
 * ASCII path, about five times faster (bench/keywords.mjs), and a match is one of characters, not
 * graphemes: a word also matches inside a longer cluster (an emoji's skin tone, a combining accent).
 * `at` receives, when given, the UTF-16 offset of each character and, last, the text's length.
 */
function encode(text: string, at?: number[]): string {
  let out = '';
  let offset = 0;
  for (const ch of text) {
    const c = Math.min(ch.codePointAt(0)!, CODE_MAX);
    out += String.fromCharCode(0x40 + (c >> 12), 0x40 + ((c >> 6) & 63), 0x40 + (c & 63));
    at?.push(offset);
    offset += ch.length;
  }
  at?.push(offset);
  return out;
}

/** One word or pattern, folded, with every action a list gives it. */
interface Rule {
  word: string;
  parts: string[];
  /** Each part's index in the automaton. */
  ids: number[];
  actions: Set<KeywordAction>;
}

/** A found rule: where in the text (UTF-16 offsets), and which rule. */
interface Hit {
  rule: Rule;
  start: number;
  end: number;
}

/**
 * Every active keyword of the server compiled once into one Aho–Corasick automaton
 * (`modern-ahocorasick`): a text is scanned once, whatever the number of words. A pattern's parts
 * are words of the automaton too; a pattern matches when its parts were found in order, each within
 * KEYWORD_GAP_MAX characters of the one before.
 */
export class KeywordMatcher {
  private readonly automaton: AhoCorasick<number> | null;
  /** The folded parts, by the automaton's pattern index. */
  private readonly parts: string[] = [];
  /** The rules each part begins (by part index): a word is a rule of one part. */
  private readonly starting: Rule[][] = [];
  readonly size: number;

  constructor(entries: readonly KeywordEntry[]) {
    const rules = new Map<string, Rule>();
    for (const { word, action } of entries) {
      if (keywordProblem(word)) continue;
      const folded = foldText(word.trim());
      const rule = rules.get(folded);
      if (rule) rule.actions.add(action);
      else
        rules.set(folded, {
          word: word.trim(),
          parts: folded.split(KEYWORD_WILDCARD).map((p) => p.trim()),
          ids: [],
          actions: new Set([action]),
        });
    }
    this.size = rules.size;
    const index = new Map<string, number>();
    const partIndex = (part: string): number => {
      let i = index.get(part);
      if (i === undefined) {
        i = this.parts.length;
        index.set(part, i);
        this.parts.push(part);
        this.starting.push([]);
      }
      return i;
    };
    for (const rule of rules.values()) {
      rule.ids = rule.parts.map(partIndex);
      this.starting[rule.ids[0]!]!.push(rule);
    }
    this.automaton = this.parts.length
      ? new AhoCorasick(this.parts.map((part, i) => ({ pattern: encode(part), data: i })))
      : null;
  }

  /** What the active lists make of `text`. */
  screen(text: string): Screening {
    const none: Screening = { action: null, words: [], replaced: text };
    if (!this.automaton || !text) return none;
    const coded = encode(foldText(text));
    const found = this.automaton.search(coded);
    if (found.length === 0) return none;
    // Every occurrence of each part, by part index, in characters, in the order they start; a
    // match across two characters' codes is none.
    const at = new Map<number, { start: number; end: number }[]>();
    for (const m of found) {
      if (m.start % CODE_UNITS !== 0) continue;
      const list = at.get(m.data!) ?? [];
      list.push({ start: m.start / CODE_UNITS, end: m.end / CODE_UNITS });
      at.set(m.data!, list);
    }
    for (const list of at.values()) list.sort((a, b) => a.start - b.start);
    const hits: Hit[] = [];
    for (const [part, list] of at)
      for (const rule of this.starting[part]!)
        for (const first of list) {
          const end = this.chain(rule, 1, first.end, at);
          if (end !== null) hits.push({ rule, start: first.start, end });
        }
    if (hits.length === 0) return none;
    const offsets: number[] = [];
    encode(text, offsets);
    for (const h of hits) {
      h.start = offsets[h.start]!;
      h.end = offsets[h.end]!;
    }
    const actions = new Set(hits.flatMap((h) => [...h.rule.actions]));
    const action = STRENGTH.find((a) => actions.has(a)) ?? null;
    const words = [...new Set(hits.map((h) => h.rule.word))];
    const starred = hits.filter((h) => h.rule.actions.has('replace'));
    return { action, words, replaced: starred.length ? star(text, starred) : text };
  }

  /** Where a rule's parts from `i` on end, each found after the one before within the gap; null when they are not. */
  private chain(rule: Rule, i: number, from: number, at: Map<number, { start: number; end: number }[]>): number | null {
    if (i === rule.ids.length) return from;
    const next = at.get(rule.ids[i]!);
    if (!next) return null;
    for (const occ of next) {
      if (occ.start < from) continue;
      if (occ.start - from > KEYWORD_GAP_MAX) break;
      const end = this.chain(rule, i + 1, occ.end, at);
      if (end !== null) return end;
    }
    return null;
  }
}

/** `text` with each hit's range as `*`, one per character; overlapping ranges merged. */
function star(text: string, hits: readonly Hit[]): string {
  const ranges = hits.map((h) => [h.start, h.end] as [number, number]).sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [start, end] of ranges) {
    if (end <= pos) continue;
    const from = Math.max(start, pos);
    out += text.slice(pos, from) + '*'.repeat([...text.slice(from, end)].length);
    pos = end;
  }
  return out + text.slice(pos);
}
