import { graphemeSegments } from 'unicode-segmenter/grapheme';

/**
 * The most UTF-16 units a text may spend per character it is allowed: a limit of `max`
 * characters admits at most `max * UNITS_PER_GRAPHEME_MAX` units. A family emoji takes 11 units
 * and a flag with its tag sequence 14, so any text a person writes fits; a longer one is refused
 * by its length alone, before anything counts its characters.
 */
export const UNITS_PER_GRAPHEME_MAX = 16;

/**
 * Counts characters as a person does: one grapheme per visible character, emoji included.
 * Linear in the text (Intl.Segmenter is quadratic on long strings in V8 and froze the server).
 * With `stopAfter`, counting ends once the count passes it.
 */
export function graphemeLength(text: string, stopAfter = Infinity): number {
  let n = 0;
  for (const _ of graphemeSegments(text)) {
    n += 1;
    if (n > stopAfter) break;
  }
  return n;
}

/**
 * True when `text` has at most `max` graphemes. A grapheme spans one UTF-16 unit or more, so a
 * text no longer than `max` units needs no counting; one over the unit bound is refused at once;
 * in between, counting stops one past `max`.
 */
export function withinGraphemes(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > max * UNITS_PER_GRAPHEME_MAX) return false;
  return graphemeLength(text, max) <= max;
}

/** The last grapheme of `text`, or '' for an empty text (what a backspace removes). */
export function lastGrapheme(text: string): string {
  let last = '';
  for (const s of graphemeSegments(text)) last = s.segment;
  return last;
}
