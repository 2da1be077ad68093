import { describe, expect, it } from 'vitest';
import { holdsTerms } from './words';

describe('holdsTerms', () => {
  it('finds Chinese without spaces, by a pair, one character or a longer run', () => {
    expect(holdsTerms('我想喝咖啡', ['咖啡'])).toBe(true);
    expect(holdsTerms('我想喝咖啡', ['咖'])).toBe(true);
    expect(holdsTerms('我想喝咖啡', ['喝咖啡'])).toBe(true);
    expect(holdsTerms('我想喝咖啡', ['咖啡喝'])).toBe(false);
  });

  it('ignores case, width and accents, and reads a Latin word as a prefix', () => {
    expect(holdsTerms('Meet at the Café', ['cafe'])).toBe(true);
    expect(holdsTerms('Meet at the Café', ['ＣＡＦ'])).toBe(true);
    expect(holdsTerms('Meet at the Café', ['afe'])).toBe(false);
  });

  it('wants every term', () => {
    expect(holdsTerms('budget.txt 预算', ['budget.txt', '预算'])).toBe(true);
    expect(holdsTerms('budget.txt', ['budget', '预算'])).toBe(false);
  });

  it('looks for a term of neither letters nor digits as typed', () => {
    expect(holdsTerms('ok 👍', ['👍'])).toBe(true);
    expect(holdsTerms('ok', ['👍'])).toBe(false);
  });
});
