import { describe, expect, it } from 'vitest';
import { indexLetter } from '../src/lib/letter';

describe('indexLetter', () => {
  it('answers the first letter of a Latin name, unaccented and in capitals', () => {
    expect(indexLetter('bench 12')).toBe('B');
    expect(indexLetter('Zoë')).toBe('Z');
    expect(indexLetter('  émile')).toBe('E');
    expect(indexLetter('ölaf')).toBe('O');
  });

  it('answers the first letter of the pinyin of a Chinese name, reading its surname as a surname', () => {
    expect(indexLetter('张伟')).toBe('Z');
    expect(indexLetter(' 李华 ')).toBe('L');
    // 单 is "dan" in a word and "shan" as a surname.
    expect(indexLetter('单田芳')).toBe('S');
    expect(indexLetter('单田芳')).toBe('S');
  });

  it('answers # for a name that starts with anything else, or for no name', () => {
    expect(indexLetter('🎉 party')).toBe('#');
    expect(indexLetter('123')).toBe('#');
    expect(indexLetter('')).toBe('#');
    expect(indexLetter('   ')).toBe('#');
  });
});
