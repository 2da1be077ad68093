import { pinyin } from 'pinyin-pro';

/**
 * The A–Z index letter of a display name: the first letter of its pinyin for Chinese, the
 * unaccented first letter for Latin script, `#` for anything else.
 */
export function indexLetter(name: string): string {
  const first = [...name.trim()][0];
  if (!first) return '#';
  const latin = first
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();
  if (/^[A-Z]$/.test(latin)) return latin;
  if (/\p{Script=Han}/u.test(first)) {
    const initial = pinyin(name.trim(), { pattern: 'first', toneType: 'none', surname: 'head', type: 'array' })[0];
    const letter = (initial ?? '').toUpperCase();
    if (/^[A-Z]$/.test(letter)) return letter;
  }
  return '#';
}
