import * as z from 'zod';
import { MessageExtendsSchemas, type ContactId } from '../entities';
import { CHAIN_TEXT_MAX, CHAIN_TITLE_MAX } from '../limits';
import { clientId, personText } from './fields';
import { groupId } from './group';
import { messageRef } from './im';

/**
 * `/enterprise/im/chainStart`: starts a sign-up chain (接龙) in a group: a `chain` message sent as
 * sendMessage sends one (the rules of sending the group, a mute, 全员禁言, apply alike).
 */
export const ChainStartBody = z.object({
  /** Client-made id of the chain's message: the idempotency key, as sendMessage's `id`. */
  id: clientId,
  /** The group: `group-<n>`. */
  toContactId: groupId,
  /** What the chain is for ("周五聚餐"); CHAIN_TITLE_MAX characters at most. */
  title: personText(CHAIN_TITLE_MAX, 1),
  /** A model line the join box starts from ("姓名 + 人数"); CHAIN_TEXT_MAX characters at most. */
  example: personText(CHAIN_TEXT_MAX).optional(),
});

/**
 * `/enterprise/im/chainJoin`: adds my line to a chain, or changes the line I added (one line per
 * member, keeping its number). A member who may send to the group may; a closed chain, or one of
 * CHAIN_ENTRIES_MAX lines, takes no new line.
 */
export const ChainJoinBody = z.object({
  /** The chain's message: its msg_id or client-made id. */
  id: messageRef,
  /** My line; CHAIN_TEXT_MAX characters at most. */
  text: personText(CHAIN_TEXT_MAX, 1),
});

/** `/enterprise/im/chainWithdraw`: takes my line back; the lines after it move up one number. Not once the chain is closed. */
export const ChainWithdrawBody = z.object({
  /** The chain's message: its msg_id or client-made id. */
  id: messageRef,
});

/** `/enterprise/im/chainClose`: closes a chain (已结束): its starter, or the group's owner or an administrator. */
export const ChainCloseBody = z.object({
  /** The chain's message: its msg_id or client-made id. */
  id: messageRef,
});

/** `/enterprise/im/chainInfo`: a chain as it is now, for a member who sees its message. */
export const ChainInfoBody = z.object({
  /** The chain's message: its msg_id or client-made id. */
  id: messageRef,
});

/** A chain's facts, as its message's `extends` carries them (a chain quotes nothing). */
export const ChainFactsSchema = MessageExtendsSchemas.chain.omit({ quote: true });
export type ChainFacts = z.infer<typeof ChainFactsSchema>;

/** A chain as it is now: its message's id and `extends`, also what the `chain` push carries. */
export interface ChainState {
  msg_id: number;
  /** The group's chat. */
  toContactId: ContactId;
  extends: ChainFacts;
}

/**
 * A chain as plain text, "接龙 <title>\n<example>\n1. <name> <text>\n…" (the example as it was
 * written, on a line of its own, when there is one): what clients that draw
 * no chain show (Raingad 6.x), and the stored message's `content`.
 */
export function chainText(
  chain: { title: string; example?: string | undefined; entries: ReadonlyArray<{ name: string; text: string }> },
  head: string,
): string {
  const lines = [`${head} ${chain.title}`];
  if (chain.example) lines.push(chain.example);
  chain.entries.forEach((e, i) => lines.push(`${i + 1}. ${e.name} ${e.text}`));
  return lines.join('\n');
}
