import { describe, expect, it } from 'vitest';
import { personText } from './api/fields';
import { graphemeLength, lastGrapheme, UNITS_PER_GRAPHEME_MAX, withinGraphemes } from './text';

const FAMILY = '👨‍👩‍👧‍👦';

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
    for (const text of ['字'.repeat(1_000_000), FAMILY.repeat(100_000), 'a\u0301'.repeat(500_000)]) {
      const started = performance.now();
      graphemeLength(text);
      withinGraphemes(text, 2048);
      expect(performance.now() - started).toBeLessThan(500);
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
    const started = performance.now();
    expect(name.safeParse('名'.repeat(1_000_000)).success).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
