import { CallCodes, type CallCode } from '@sparrow/protocol';
import type { CallState } from '../../realtime/call-store';

/**
 * How a hangup ends a call, decided by the server from who hangs up and where the call stands;
 * the code the client sends only tells a caller's failure (905) from a cancel, and a callee's busy
 * (907) from a refusal.
 */
export function outcomeOf(role: 'caller' | 'callee', state: CallState, said: number | undefined): CallCode {
  if (state === 'accepted') return CallCodes.Ended;
  if (role === 'caller') return said === CallCodes.Unreachable ? CallCodes.Unreachable : CallCodes.Cancelled;
  return said === CallCodes.Busy ? CallCodes.Busy : CallCodes.Refused;
}
