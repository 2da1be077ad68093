import type { Message, PollState, PushPayload } from '@sparrow/protocol';
import { contactKey, type ContactKey } from '../lib/conversation-list';
import { keepChange, liveEngine } from './registry';

/** A poll's message with counts as the server counted them; my own choice stays as it was. */
export function withPollCounts(
  message: Message,
  counts: readonly number[],
  voters: number,
  closed: 0 | 1,
  mine?: readonly number[],
): Message {
  if (message.type !== 'poll') return message;
  const ext = message.extends;
  return {
    ...message,
    extends: {
      ...ext,
      options: ext.options.map((o, i) => ({ ...o, count: counts[i] ?? o.count })),
      voters,
      closed: ext.closed === 1 ? 1 : closed,
      mine: mine ? [...mine] : ext.mine,
    },
  };
}

/** A `poll` push, in the open chat and in the device's copy alike; my own vote's from another device brings my choice. */
export function applyPoll(delta: PushPayload<'poll'>): void {
  const key = contactKey(delta.toContactId);
  const change = (m: Message) => withPollCounts(m, delta.counts, delta.voters, delta.closed, delta.mine);
  liveEngine(key)?.applyPoll(delta.msg_id, change);
  keepChange(key, delta.msg_id, change);
}

/** The answer to my own vote or close: the counts and my own choice. */
export function applyPollState(key: ContactKey, state: PollState): void {
  const change = (m: Message) => withPollCounts(m, state.counts, state.voters, state.closed, state.mine);
  liveEngine(key)?.applyPoll(state.msg_id, change);
  keepChange(key, state.msg_id, change);
}
