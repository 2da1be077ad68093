import { parseJson } from '../../lib/text';

/** The kinds of message search finds (the protocol's SearchableType). */
export const SEARCHED_TYPES = ['text', 'file', 'location', 'contact'] as const;

/**
 * The words a message is found by, kept in `messages.search_text` and indexed by `wordTokens`: a
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

/**
 * A letter or digit of the scripts written without spaces between words, indexed by pairs of
 * characters: by script extension, so that the marks Chinese and Japanese share (ー, 々, 〇) join
 * the runs around them, and letters or digits only, so that their punctuation (、。「」) does not.
 */
const CJK = String.raw`(?:(?=[\p{L}\p{N}])[\p{scx=Hani}\p{scx=Hira}\p{scx=Kana}\p{scx=Hang}])`;
/** A run of such characters, or a word of other letters and digits. */
const RUNS = new RegExp(String.raw`${CJK}+|(?:(?!${CJK})[\p{L}\p{N}\p{M}])+`, 'gu');
const HAS_CJK = new RegExp(CJK, 'u');

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
  for (const [run] of text.normalize('NFKC').toLowerCase().matchAll(RUNS)) {
    if (!HAS_CJK.test(run)) {
      const folded = run.normalize('NFKD').replace(/\p{M}/gu, '');
      if (folded) tokens.add(folded);
      continue;
    }
    const chars = [...run];
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
  let recheck = false;
  for (const [run] of term.normalize('NFKC').toLowerCase().matchAll(RUNS)) {
    if (!HAS_CJK.test(run)) {
      const folded = run.normalize('NFKD').replace(/\p{M}/gu, '');
      if (folded) tokens.push({ token: folded, prefix: true });
      continue;
    }
    const chars = [...run];
    if (chars.length === 1) tokens.push({ token: chars[0]!, prefix: true });
    for (let i = 0; i + 1 < chars.length; i++) tokens.push({ token: chars[i]! + chars[i + 1]!, prefix: false });
    if (chars.length > 2) recheck = true;
  }
  if (!tokens.length) return undefined;
  // Several runs in one term ("iPhone15手机", "budget.txt") must also stand together.
  return { tokens, recheck: recheck || term.match(RUNS)!.length > 1 };
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
