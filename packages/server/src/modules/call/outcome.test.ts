import { CallCodes, type CallCode } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import type { CallState } from '../../realtime/call-store';
import { outcomeOf } from './outcome';

type Role = 'caller' | 'callee';

/** Every code a client might put in its hangup, and none at all. */
const SAID: Array<number | undefined> = [undefined, ...Object.values(CallCodes), 0, 200, 999, -1];

describe('the outcome of a hangup', () => {
  it.each<[Role, CallState, number | undefined, CallCode]>([
    ['caller', 'ringing', undefined, CallCodes.Cancelled],
    ['caller', 'ringing', CallCodes.Cancelled, CallCodes.Cancelled],
    ['caller', 'ringing', CallCodes.Unreachable, CallCodes.Unreachable],
    ['callee', 'ringing', undefined, CallCodes.Refused],
    ['callee', 'ringing', CallCodes.Refused, CallCodes.Refused],
    ['callee', 'ringing', CallCodes.Busy, CallCodes.Busy],
    ['caller', 'accepted', undefined, CallCodes.Ended],
    ['caller', 'accepted', CallCodes.Ended, CallCodes.Ended],
    ['callee', 'accepted', undefined, CallCodes.Ended],
    ['callee', 'accepted', CallCodes.Ended, CallCodes.Ended],
  ])('the %s, hanging up when the call is %s and saying %s, ends it as %i', (role, state, said, outcome) => {
    expect(outcomeOf(role, state, said)).toBe(outcome);
  });

  it('ends an answered call (906) whoever hangs up and whatever code they send', () => {
    for (const role of ['caller', 'callee'] as const) {
      for (const said of SAID) expect(outcomeOf(role, 'accepted', said), `${role} said ${said}`).toBe(CallCodes.Ended);
    }
  });

  it('lets a ringing caller tell only a failure (905) from a cancel (902)', () => {
    for (const said of SAID) {
      const expected = said === CallCodes.Unreachable ? CallCodes.Unreachable : CallCodes.Cancelled;
      expect(outcomeOf('caller', 'ringing', said), `caller said ${said}`).toBe(expected);
    }
  });

  it('lets a ringing callee tell only busy (907) from a refusal (903)', () => {
    for (const said of SAID) {
      const expected = said === CallCodes.Busy ? CallCodes.Busy : CallCodes.Refused;
      expect(outcomeOf('callee', 'ringing', said), `callee said ${said}`).toBe(expected);
    }
  });

  it('does not let a caller claim busy or refused, nor a callee claim unreachable or cancelled', () => {
    expect(outcomeOf('caller', 'ringing', CallCodes.Busy)).toBe(CallCodes.Cancelled);
    expect(outcomeOf('caller', 'ringing', CallCodes.Refused)).toBe(CallCodes.Cancelled);
    expect(outcomeOf('callee', 'ringing', CallCodes.Unreachable)).toBe(CallCodes.Refused);
    expect(outcomeOf('callee', 'ringing', CallCodes.Cancelled)).toBe(CallCodes.Refused);
  });

  it('does not let either side end a call that was never answered as if it had been (906)', () => {
    expect(outcomeOf('caller', 'ringing', CallCodes.Ended)).toBe(CallCodes.Cancelled);
    expect(outcomeOf('callee', 'ringing', CallCodes.Ended)).toBe(CallCodes.Refused);
    expect(outcomeOf('caller', 'ringing', CallCodes.Accepted)).toBe(CallCodes.Cancelled);
    expect(outcomeOf('callee', 'ringing', CallCodes.Accepted)).toBe(CallCodes.Refused);
  });
});
