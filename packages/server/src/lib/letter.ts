import type * as PinyinPro from 'pinyin-pro';
import { onFirstUse } from './lazy';

/** pinyin-pro and its dictionaries (about 10 MB in memory), for the first Chinese name. */
const loadPinyin = onFirstUse<typeof PinyinPro>('pinyin-pro');

/** Names whose letter took more than a glance (anything but a leading ASCII letter), most recent last. */
const known = new Map<string, string>();
/** Enough for the contact lists of a large community: a Chinese name's pinyin costs several µs. */
const KNOWN_MAX = 10_000;

/**
 * The A–Z index letter of a display name: the first letter of its pinyin for Chinese, the
 * unaccented first letter for Latin script, `#` for anything else. Every contact row and every
 * pushed message carries one, so a name starting with an ASCII letter is answered at once and
 * the others are remembered.
 */
export function indexLetter(name: string): string {
  const trimmed = name.trim();
  const code = trimmed.charCodeAt(0);
  if (code >= 65 && code <= 90) return trimmed[0]!;
  if (code >= 97 && code <= 122) return String.fromCharCode(code - 32);
  let letter = known.get(trimmed);
  if (letter === undefined) {
    letter = letterOf(trimmed);
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!);
    known.set(trimmed, letter);
  }
  return letter;
}

function letterOf(name: string): string {
  const code = name.codePointAt(0);
  if (code === undefined) return '#';
  const first = String.fromCodePoint(code);
  const latin = first
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  if (/^[A-Z]$/.test(latin)) return latin;
  if (/\p{Script=Han}/u.test(first)) {
    const initial = loadPinyin().pinyin(name, {
      pattern: 'first',
      toneType: 'none',
      surname: 'head',
      type: 'array',
    })[0];
    const letter = (initial ?? '').toUpperCase();
    if (/^[A-Z]$/.test(letter)) return letter;
  }
  return '#';
}
