import * as z from 'zod';
import type { Message } from '../entities';
import { flag, rowId } from './fields';
import { contactId, messageRef } from './im';

/**
 * `/enterprise/im/pinMessage`: pins a message in its chat (置顶消息) or takes its pin off. In a
 * group the owner and administrators may, or every member when the group's `pin` setting is on;
 * in a private chat either side. At most PINS_PER_CHAT_MAX per chat.
 */
export const PinMessageBody = z.object({
  /** The message: its msg_id, or the client-made id it was sent with. */
  id: messageRef,
  /** 1 pins it, 0 takes its pin off. */
  pin: flag,
});

/** `/enterprise/im/pinList`: the messages pinned in a chat. */
export const PinListBody = z.object({
  /** The chat: a user id or `group-<n>`. */
  toContactId: contactId,
  /** 1 for a group (read from `toContactId`; kept for the shape every chat route has). */
  is_group: z.coerce.number().int().min(0).max(3).default(0),
});

/**
 * `/enterprise/im/patUser`: pats someone in a chat (拍一拍): the chat gets an event line "A 拍了拍
 * B" with B's own suffix, which A may withdraw (undoMessage) for PAT_WITHDRAW_MS.
 */
export const PatUserBody = z.object({
  /** The chat: a user id or `group-<n>`. */
  toContactId: contactId,
  /** 1 for a group (read from `toContactId`; kept for the shape every chat route has). */
  is_group: z.coerce.number().int().min(0).max(3).default(0),
  /** Whom to pat: the peer of a private chat, a member of a group, or oneself. */
  user_id: rowId,
});

/** A pinned message as a reader sees it: the message, who pinned it and when. */
export interface PinnedMessage {
  /** The message, presented for the reader as getMessageList presents it. */
  message: Message;
  /** Who pinned it. */
  pinned_by: { user_id: number; realname: string };
  /** When it was pinned, ms. */
  pin_time: number;
}
