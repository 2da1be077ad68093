import { describe, expect, it } from 'vitest';
import { personText } from './api/fields';
import { graphemeLength, lastGrapheme, UNITS_PER_GRAPHEME_MAX, withinGraphemes } from './text';

const FAMILY = '👨‍👩‍👧‍👦';

/** The quickest of five runs of fn, ms: a run slowed by the machine's other work does not count. */
function fastest(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('counting characters as a person does', () => {
  it('counts emoji sequences, flags, combining marks and CRLF as one each', () => {
    expect(graphemeLength(FAMILY)).toBe(1);
    expect(graphemeLength('🇨🇳🇺🇸')).toBe(2);
    expect(graphemeLength('e\u0301')).toBe(1);
    expect(graphemeLength('한국어')).toBe(3);
    expect(graphemeLength('a\r\nb')).toBe(3);
    expect(graphemeLength('\ud800x')).toBe(2);
    expect(graphemeLength('')).toBe(0);
  });

  it('stops counting once past the limit', () => {
    expect(graphemeLength('abcdef', 2)).toBe(3);
  });

  it('takes time linear in the text, however long', () => {
    // Eight times the text takes about eight times as long (a quadratic count would take 64 times):
    // a ratio measured in the same run, so a loaded machine slows both sides alike.
    for (const unit of ['字', FAMILY, 'a\u0301']) {
      const count = (text: string) => {
        graphemeLength(text);
        withinGraphemes(text, 2048);
      };
      const short = fastest(() => count(unit.repeat(25_000)));
      const long = fastest(() => count(unit.repeat(200_000)));
      expect(long).toBeLessThan(short * 8 * 3 + 5);
    }
  });

  it('refuses a text over the unit bound without counting it', () => {
    const over = 'a'.repeat(100 * UNITS_PER_GRAPHEME_MAX + 1);
    expect(withinGraphemes(over, 100)).toBe(false);
    expect(withinGraphemes(FAMILY.repeat(100), 100)).toBe(true);
    expect(withinGraphemes(FAMILY.repeat(101), 100)).toBe(false);
  });

  it('finds the last character for a backspace', () => {
    expect(lastGrapheme(`ab${FAMILY}`)).toBe(FAMILY);
    expect(lastGrapheme('🇨🇳🇺🇸')).toBe('🇺🇸');
    expect(lastGrapheme('')).toBe('');
  });
});

describe('personText', () => {
  const name = personText(4, 1);
  it('trims, then counts graphemes', () => {
    expect(name.parse(`  ${FAMILY.repeat(4)} `)).toBe(FAMILY.repeat(4));
    const long = name.safeParse('abcde');
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]).toMatchObject({ code: 'too_big', maximum: 4 });
    expect(name.safeParse('   ').error?.issues[0]).toMatchObject({ code: 'too_small', minimum: 1 });
  });
  it('refuses a megabyte at once', () => {
    // Refused before counting: no slower than taking a name of the longest size allowed, where
    // counting the megabyte would take thousands of times as long.
    const megabyte = '名'.repeat(1_000_000);
    expect(name.safeParse(megabyte).success).toBe(false);
    const refused = fastest(() => name.safeParse(megabyte));
    const taken = fastest(() => name.safeParse('名'.repeat(4)));
    expect(refused).toBeLessThan(taken * 50 + 2);
  });
});
