import { describe, expect, it } from 'vitest';
import { asksForLoginCode } from './login-code-due';

describe('asksForLoginCode', () => {
  it('asks for the first code only while the page is visible', () => {
    expect(asksForLoginCode('first', 'visible', 5)).toBe(true);
    expect(asksForLoginCode('first', 'hidden', 5)).toBe(false);
  });

  it('replaces an expired code only while visible and while automatic refreshes are left', () => {
    expect(asksForLoginCode('expired', 'visible', 1)).toBe(true);
    expect(asksForLoginCode('expired', 'hidden', 1)).toBe(false);
    expect(asksForLoginCode('expired', 'visible', 0)).toBe(false);
  });

  it('asks for nothing when no code is due', () => {
    expect(asksForLoginCode(null, 'visible', 5)).toBe(false);
  });
});
