import * as z from 'zod';
import { REACTION_EMOJI_UNITS_MAX, TEXT_MESSAGE_MAX } from '../limits';
import { graphemeLength } from '../text';
import { checkGraphemes, flag } from './fields';
import { messageRef } from './im';
import type { Reaction } from '../entities';

/** An emoji as a reaction: one grapheme, a pictograph (with its modifiers and joiners) or a flag. */
const PICTOGRAPH = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator})/u;

/** Whether `text` is one emoji a reaction may carry (the web panel's, or any other single pictograph). */
export function isReactionEmoji(text: string): boolean {
  return (
    text.length > 0 && text.length <= REACTION_EMOJI_UNITS_MAX && PICTOGRAPH.test(text) && graphemeLength(text, 1) === 1
  );
}

/** A reaction's emoji, checked by `isReactionEmoji`. */
export const reactionEmoji = z
  .string()
  .min(1)
  .max(REACTION_EMOJI_UNITS_MAX)
  .refine(isReactionEmoji, { message: 'one emoji' });

/** `/enterprise/im/reactMessage`: puts my reaction on a message, or takes it back. */
export const ReactMessageBody = z.object({
  /** The message: its msg_id or its client-made id. */
  id: messageRef,
  /** One emoji (a single grapheme: a pictograph with its modifiers, or a flag). */
  emoji: reactionEmoji,
  /** 1 puts the reaction on (already on: no change), 0 takes it back (already off: no change). */
  on: flag,
});

/** `/enterprise/im/messageReactions`: who reacted to a message. */
export const MessageReactionsBody = z.object({
  /** The message: its msg_id or its client-made id. */
  id: messageRef,
  /** Only those who reacted with this emoji; all reactions when absent. */
  emoji: reactionEmoji.optional(),
});

/** A message's reactions as the caller sees them after `reactMessage`. */
export interface MessageReactions {
  msg_id: number;
  reactions: Reaction[];
}

/** One person's reaction, as `messageReactions` lists them (oldest first). */
export interface Reactor {
  emoji: string;
  user_id: number;
  /** Their name as the reader sees them: the reader's remark, their group nickname, or their own name. */
  name: string;
  avatar: string;
  /** When they reacted, ms. */
  time: number;
}

/** `/enterprise/im/editMessage`: replaces the text of a text message I sent. */
export const EditMessageBody = z
  .object({
    /** The message: its msg_id or its client-made id. */
    id: messageRef,
    /** The new text, as sendMessage takes a text (≤ 2048 characters, not blank). */
    content: z.string(),
  })
  .superRefine((b, ctx) => {
    if (!b.content.trim())
      ctx.addIssue({
        code: 'too_small',
        minimum: 1,
        origin: 'string',
        inclusive: true,
        input: b.content,
        path: ['content'],
      });
    else checkGraphemes(b.content, TEXT_MESSAGE_MAX, ctx, ['content']);
  });

/** `/enterprise/im/messageEdits`: the earlier versions of an edited text. */
export const MessageEditsBody = z.object({
  /** The message: its msg_id or its client-made id. */
  id: messageRef,
});

/** An earlier version of an edited text, as `messageEdits` lists them (oldest first). */
export interface MessageEdit {
  /** The text as it was before this edit. */
  content: string;
  /** When this edit replaced it, ms. */
  edited_at: number;
  /** Who edited (the sender). */
  by: number;
}

/** The kinds of message that take reactions: all but event lines and calls. */
export function takesReactions(type: string): boolean {
  return type !== 'event' && type !== 'webrtc';
}

/** What an edit of a message is decided on. */
export interface EditCase {
  /** The message is the editor's own. */
  mine: boolean;
  type: string;
  /** A group announcement posted as a text: the group's, not a message to edit. */
  announcement: boolean;
  /** ms since it was sent. */
  age: number;
  /** `chatInfo.editTime`, seconds. */
  editTimeS: number;
}

/** Whether a message may be edited: my own text, not an announcement, within `chatInfo.editTime`. */
export function editable(c: EditCase): boolean {
  return c.mine && c.type === 'text' && !c.announcement && c.age <= c.editTimeS * 1000;
}
