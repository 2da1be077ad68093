import type { ChainState } from '@sparrow/protocol';
import { contactKey } from '../lib/conversation-list';
import { withChain } from './message-updates';
import { keepChange, liveEngine } from './registry';

/**
 * A sign-up chain (接龙) as it now is, in the open chat and in the device's copy alike: a `chain`
 * push, or the answer to my own change (the push that follows says the same).
 */
export function applyChain(state: ChainState): void {
  const key = contactKey(state.toContactId);
  liveEngine(key)?.applyChain(state);
  keepChange(key, state.msg_id, (m) => withChain(m, state));
}
