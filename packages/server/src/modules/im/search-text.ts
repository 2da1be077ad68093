import { foldForSearch, searchWords, SEARCHED_TYPES } from '@sparrow/protocol';
import { parseJson } from '../../lib/text';

export { SEARCHED_TYPES };

/**
 * The words a message is found by (protocol's `searchWords`), kept in `messages.search_text` and
 * indexed by `wordTokens`; `ext` as stored, in JSON.
 */
export function searchText(type: string, content: string, ext: string): string {
  return searchWords(type, content, type === 'text' ? {} : parseJson(ext));
}

/** What a character is to the index: none (a separator), part of a word, of a run of Chinese, or a mark. */
const Kind = { None: 0, Word: 1, Cjk: 2, Mark: 3 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * The kind of every character of the Basic Multilingual Plane, worked out once by Unicode
 * property regular expressions. Tokenizing asks this table, not the expressions: V8 drops the
 * compiled code of a regular expression at a garbage collection when it has not run since, and
 * compiling and interpreting these large classes again took milliseconds per message, which the
 * indexer paid at every run on a busy server (bench/group-fanout.mjs: PostgreSQL's limit fell
 * from 115 to 77 messages/s with the index every 250 ms).
 *
 * A run of Chinese, Japanese or Korean is made of their letters and digits by script extension,
 * so that the marks Chinese and Japanese share (ー, 々, 〇) join the runs around them and their
 * punctuation (、。「」) does not.
 */
let kinds: Uint8Array | undefined;
const WORD = /[\p{L}\p{N}\p{M}]/u;
const MARK = /\p{M}/u;
const CJK = /[\p{scx=Hani}\p{scx=Hira}\p{scx=Kana}\p{scx=Hang}]/u;

function kindOf(ch: string): Kind {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x10000) {
    kinds ??= kindTable();
    return kinds[cp] as Kind;
  }
  // Beyond it: the supplementary ideographs, the emoji and symbols, and the rare rest asked as it comes.
  if (cp >= 0x20000 && cp <= 0x3ffff) return Kind.Cjk;
  if (cp >= 0x1f000 && cp <= 0x1ffff) return Kind.None;
  return classify(ch);
}

function classify(ch: string): Kind {
  if (!WORD.test(ch)) return Kind.None;
  if (MARK.test(ch)) return Kind.Mark;
  return CJK.test(ch) ? Kind.Cjk : Kind.Word;
}

function kindTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) table[cp] = classify(String.fromCharCode(cp));
  return table;
}

/** The runs of a text as the index reads it: words of letters and digits (marks in them), runs of Chinese. */
function runs(text: string): Array<{ cjk: boolean; chars: string[] }> {
  const found: Array<{ cjk: boolean; chars: string[] }> = [];
  let run: { cjk: boolean; chars: string[] } | undefined;
  for (const ch of foldForSearch(text)) {
    const kind = kindOf(ch);
    if (kind === Kind.None) {
      run = undefined;
      continue;
    }
    const cjk = kind === Kind.Cjk;
    if (run?.cjk !== cjk) {
      run = { cjk, chars: [] };
      found.push(run);
    }
    run.chars.push(ch);
  }
  return found;
}

/** A word without its accents: "café" → "cafe". */
function folded(chars: readonly string[]): string {
  let word = '';
  for (const ch of chars.join('').normalize('NFKD')) if (kindOf(ch) !== Kind.Mark) word += ch;
  return word;
}

/**
 * The word index's tokens of a text (migration 019): each word of letters and digits, folded to
 * lower case without accents or width ("Café", "ＣＡＦＥ" → "cafe"); and each run of Chinese,
 * Japanese or Korean cut into the pairs of characters it holds, with its last character alone
 * ("我想喝咖啡" → 我想 想喝 喝咖 咖啡 啡), so that a word of two characters is one token and one
 * character is the start of a token. The index's own tokenizer then only splits on spaces: the
 * same tokens on SQLite and PostgreSQL.
 */
export function wordTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const { cjk, chars } of runs(text)) {
    if (!cjk) {
      const word = folded(chars);
      if (word) tokens.add(word);
      continue;
    }
    for (let i = 0; i + 1 < chars.length; i++) tokens.add(chars[i]! + chars[i + 1]!);
    tokens.add(chars.at(-1)!);
  }
  return [...tokens];
}

/**
 * Who may find a message, as tokens of the same index: both sides of a private chat (the one side
 * of my own chat), the group of a group message. A search asks for its reader's among them, so
 * the index walks only the reader's chats.
 */
export function whoTokens(chatType: number, fromUser: number, toId: number): string[] {
  if (chatType === 1) return [`_g${toId}`];
  return fromUser === toId ? [`_u${fromUser}`] : [`_u${fromUser}`, `_u${toId}`];
}

/** The `whoTokens` of every message a reader may find: their private chats and their groups. */
export function readerTokens(userId: number, groupIds: readonly number[]): string[] {
  return [`_u${userId}`, ...groupIds.map((g) => `_g${g}`)];
}

/** What the word index is asked for one term: tokens it must hold, each whole or as a prefix. */
export interface TermQuery {
  tokens: Array<{ token: string; prefix: boolean }>;
  /**
   * The tokens do not say the term is there as typed (a run of Chinese of three characters or
   * more is found by its pairs in any order): the message's words are checked for it.
   */
  recheck: boolean;
}

/**
 * How the word index finds a term: a Latin word as a prefix (what the user is still typing), a
 * pair of Chinese characters as itself, one character as the start of a pair, a longer run by
 * all its pairs. Undefined for a term with neither letters nor digits (punctuation, emoji), which
 * is looked for in the reader's messages as it is.
 */
export function termQuery(term: string): TermQuery | undefined {
  const tokens: TermQuery['tokens'] = [];
  const parts = runs(term);
  // Several runs in one term ("iPhone15手机", "budget.txt") must also stand together.
  let recheck = parts.length > 1;
  for (const { cjk, chars } of parts) {
    if (!cjk) {
      const word = folded(chars);
      if (word) tokens.push({ token: word, prefix: true });
      continue;
    }
    if (chars.length === 1) tokens.push({ token: chars[0]!, prefix: true });
    for (let i = 0; i + 1 < chars.length; i++) tokens.push({ token: chars[i]! + chars[i + 1]!, prefix: false });
    if (chars.length > 2) recheck = true;
  }
  return tokens.length ? { tokens, recheck } : undefined;
}

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
