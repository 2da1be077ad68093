import { describe, expect, it } from 'vitest';
import { QR_LOGIN_HIDDEN_POLL_MS, QR_LOGIN_POLL_MS } from '@sparrow/protocol';
import { asksForLoginCode, loginPollDelay } from './login-code-due';

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

describe('loginPollDelay', () => {
  it('asks less often while the tab is hidden', () => {
    expect(loginPollDelay('visible')).toBe(QR_LOGIN_POLL_MS);
    expect(loginPollDelay('hidden')).toBe(QR_LOGIN_HIDDEN_POLL_MS);
    expect(QR_LOGIN_HIDDEN_POLL_MS).toBeGreaterThan(QR_LOGIN_POLL_MS);
  });
});
