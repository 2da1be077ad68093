import { describe, expect, it } from 'vitest';
import { ClientFrameSchema } from './events';
import { TYPING_MIN_GAP_MS, TYPING_PAUSE_MS, TYPING_RESEND_MS, TYPING_SHOWN_MS } from './limits';

describe('the typing frame (对方正在输入…)', () => {
  it('names a user by number or a group as group-N, and a state of 0 or 1', () => {
    for (const to of [5, 'group-12']) {
      for (const state of [0, 1]) expect(ClientFrameSchema.safeParse({ type: 'typing', to, state }).success).toBe(true);
    }
  });

  it('refuses anything else', () => {
    const bad = [
      { type: 'typing', to: '5', state: 1 },
      { type: 'typing', to: -1, state: 1 },
      { type: 'typing', to: 0, state: 1 },
      { type: 'typing', to: 1.5, state: 1 },
      { type: 'typing', to: 'group-0', state: 1 },
      { type: 'typing', to: 'group-1.5', state: 1 },
      { type: 'typing', to: 'system', state: 1 },
      { type: 'typing', to: 5, state: 2 },
      { type: 'typing', to: 5 },
      { type: 'typing', state: 1 },
    ];
    for (const f of bad) expect(ClientFrameSchema.safeParse(f).success, JSON.stringify(f)).toBe(false);
  });

  it("the timings fit together: resends pass the server's gap, a resend comes before the receiver lets go", () => {
    expect(TYPING_RESEND_MS).toBeGreaterThan(TYPING_MIN_GAP_MS);
    expect(TYPING_SHOWN_MS).toBeGreaterThan(TYPING_RESEND_MS);
    expect(TYPING_PAUSE_MS).toBeGreaterThan(TYPING_RESEND_MS);
  });
});
