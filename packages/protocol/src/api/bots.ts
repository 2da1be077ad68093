import * as z from 'zod';
import { BOT_WEBHOOK_URL_MAX, ROBOT_NAME_MAX } from '../limits';
import { personText, rowId } from './fields';

/**
 * Bot accounts (docs/protocol.md §11): a user's non-human accounts. A bot is a member of the
 * groups it is added to and its owner's friend; it answers through the API with its own access
 * token (`messages:read`, `messages:send`), and hears of the messages sent to it or naming it
 * through an outgoing webhook signed with the Standard Webhooks scheme, or by `sync`.
 */

/** The scopes of a bot's token. */
export const BOT_TOKEN_SCOPES = ['messages:read', 'messages:send'] as const;

/** A webhook's state: none set, delivering, or turned off after BOT_FAILURES_MAX failures in a row. */
export const BOT_WEBHOOK_STATES = ['off', 'on', 'disabled'] as const;
export type BotWebhookState = (typeof BOT_WEBHOOK_STATES)[number];

/** `botCreate`: a bot with a name; answers it with its token, shown this once. */
export const BotCreateBody = z.object({ name: personText(ROBOT_NAME_MAX, 1) });

/**
 * `botEdit`: a bot's name, and its webhook when sent (`''` turns it off; sending it, even unchanged,
 * turns a disabled one back on; left out, the webhook stays as it is).
 */
export const BotEditBody = z.object({
  bot_id: rowId,
  name: personText(ROBOT_NAME_MAX, 1),
  webhook_url: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(BOT_WEBHOOK_URL_MAX)]).optional(),
});

/** `botReset`, `botDelete`, `botDeliveries`: one of the caller's bots. */
export const BotIdBody = z.object({ bot_id: rowId });

/** A bot as its owner sees it. */
export interface Bot {
  /** The bot's account: its user id, which groups and chats name. */
  id: number;
  account: string;
  name: string;
  avatar: string;
  /** ms. */
  create_time: number;
  /** '' when none. */
  webhook_url: string;
  webhook_state: BotWebhookState;
  /** The Standard Webhooks secret (`whsec_…`) its deliveries are signed with. */
  webhook_secret: string;
  /** Failed tries in a row since the last delivered one. */
  failures: number;
}

/** `botCreate`'s and `botReset`'s answer: the bot with its new token (`spt_…`), shown this once. */
export interface BotCreated extends Bot {
  token: string;
}

/**
 * Why a delivery's last try failed, or why it was given up without one: the webhook answered a
 * status other than 2xx (`last_status` says which), its address was refused by the outbound gate,
 * it did not answer in time, it could not be reached; the webhook was turned off or disabled after
 * failures; the message was withdrawn.
 */
export const BOT_DELIVERY_ERRORS = [
  'status',
  'refused',
  'timeout',
  'unreachable',
  'turnedOff',
  'disabled',
  'withdrawn',
] as const;
export type BotDeliveryError = (typeof BOT_DELIVERY_ERRORS)[number];

/** A delivery of an event to a bot's webhook, as its owner's log shows it. */
export interface BotDelivery {
  id: number;
  /** The event's id (`webhook-id`): the same for every try of one delivery. */
  event_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The webhook's last HTTP status; 0 when it did not answer. */
  last_status: number;
  /** Why the last try failed, or why it was given up; '' when it did not. */
  last_error: BotDeliveryError | '';
  /** ms. */
  create_time: number;
  /** When it was delivered or given up, ms; 0 while pending. */
  done_time: number;
  /** When it is tried next, ms; 0 when done. */
  next_at: number;
}

/**
 * What a bot's webhook is sent: a message in a chat it is in (sent to it, or naming it in a
 * group), with where to answer it. `reply_to` is the `toContactId` of a sendMessage answering it.
 */
export const BotEventSchema = z.object({
  type: z.literal('message'),
  /** The bot's user id. */
  bot_id: z.number(),
  /** When the event was owed, ms. */
  timestamp: z.number(),
  data: z.object({
    /** Where an answer goes: the sender's user id in a private chat, `group-<n>` in a group. */
    reply_to: z.union([z.number(), z.string()]),
    is_group: z.union([z.literal(0), z.literal(1)]),
    message: z.object({
      msg_id: z.number(),
      /** The sender's client id. */
      id: z.string(),
      type: z.string(),
      content: z.string(),
      /** Mentioned user ids; 0 = everyone. */
      at: z.array(z.number()),
      /** ms. */
      sendTime: z.number(),
      from: z.object({ id: z.number(), name: z.string() }),
    }),
  }),
});
export type BotEvent = z.infer<typeof BotEventSchema>;
