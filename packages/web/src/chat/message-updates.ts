import type { ChainState, Message, PushPayload, Reaction } from '@sparrow/protocol';

/**
 * A message with a `reaction` delta applied: the emoji's count as the server counted it, mine
 * when the delta is my own; the emoji's chip goes at 0. Applying the same delta twice changes
 * nothing, so my own answer and the push of it may both arrive.
 */
export function withReaction(message: Message, delta: PushPayload<'reaction'>, me: number): Message {
  const reactions = message.reactions ?? [];
  const i = reactions.findIndex((r) => r.emoji === delta.emoji);
  const before = reactions[i];
  if (!before && delta.count <= 0) return message;
  const mine = delta.user_id === me ? delta.on : (before?.mine ?? 0);
  let next = reactions.slice();
  if (delta.count <= 0) next = next.filter((r) => r.emoji !== delta.emoji);
  else if (before) next[i] = { emoji: delta.emoji, count: delta.count, mine };
  else next.push({ emoji: delta.emoji, count: delta.count, mine });
  if (before && before.count === delta.count && before.mine === mine && delta.count > 0) return message;
  return withReactions(message, next);
}

/** A message with an `editMessage` delta applied: the new text, marked edited; an older edit is ignored. */
export function withEdit(message: Message, delta: PushPayload<'editMessage'>): Message {
  if (message.type !== 'text' || (message.edited ?? 0) >= delta.edited) return message;
  return { ...message, content: delta.content, edited: delta.edited };
}

/** A message with its reactions as a whole (my own reactMessage's answer). */
export function withReactions(message: Message, reactions: readonly Reaction[]): Message {
  const { reactions: _old, ...rest } = message;
  return (reactions.length ? { ...rest, reactions: [...reactions] } : rest) as Message;
}

/**
 * A chain's message showing the chain as `state` says it now is (a `chain` push, or my own change's
 * answer); a state no newer (`rev`) than the one shown is ignored, so a late push never undoes a change.
 */
export function withChain(message: Message, state: ChainState): Message {
  if (message.type !== 'chain' || (message.extends.rev ?? -1) >= state.extends.rev) return message;
  return { ...message, extends: { ...state.extends, ...(message.extends.quote && { quote: message.extends.quote }) } };
}
