import * as z from 'zod';
import { ROBOT_ARTICLES_MAX, ROBOT_IMAGE_MAX, ROBOT_MENTIONS_MAX, ROBOT_NAME_MAX, TEXT_MESSAGE_MAX } from '../limits';
import { UNITS_PER_GRAPHEME_MAX } from '../text';
import { clientId, personText, rowId, rowIdOrZero } from './fields';
import { groupId } from './group';

/**
 * Group robots (群机器人, docs/protocol.md §10): a group's owner or administrators add a robot with a
 * name and an avatar and get its webhook, a secret URL; whoever holds it POSTs a message, which the
 * group reads from the robot. The webhook takes WeCom's group-robot JSON (`msgtype`) and Sparrow's
 * own shape (`type`), and answers as WeCom's does: `{errcode, errmsg}`.
 */

/** Where a robot's webhook is served; its key is the query's `key`, as WeCom's. */
export const ROBOT_WEBHOOK_PATH = '/cgi-bin/webhook/send';

/** How every robot key begins: found by secret scanners, told from a token by it. */
export const ROBOT_KEY_PREFIX = 'srk_';

/** The webhook's answers (WeCom's codes, where WeCom has one for the case). */
export const RobotErrcodes = {
  ok: 0,
  /** Busy or failed inside: try again. */
  busy: -1,
  /** The body is not JSON, or a field is wrong. */
  invalidParameter: 40035,
  /** `msgtype` or `type` is none of those taken. */
  invalidMessageType: 40008,
  /** The image is too large, is no image, or its md5 is not the bytes'. */
  invalidImage: 40009,
  /** Nothing to post: empty text. */
  emptyContent: 44004,
  /** The robot posted as much as a minute allows. */
  tooMany: 45009,
  /** The key names no robot (never was, was reset, was removed, or its group is gone). */
  invalidKey: 93000,
  /** The message is refused by the server's rules (a blocked word, a word held for review). */
  refused: 40024,
} as const;
export type RobotErrcode = (typeof RobotErrcodes)[keyof typeof RobotErrcodes];

/** The webhook's answer. */
export interface RobotAnswer {
  errcode: RobotErrcode;
  errmsg: string;
}

/** Text and markdown: TEXT_MESSAGE_MAX characters, as any message (counted by the server once the mentions are in). */
const text = z.string().max(TEXT_MESSAGE_MAX * UNITS_PER_GRAPHEME_MAX);
const markdown = text;
/** An image as base64 (its bytes bounded by ROBOT_IMAGE_MAX, checked once decoded), and its md5 as hex. */
const image = z.object({
  base64: z
    .string()
    .min(1)
    .max(Math.ceil(ROBOT_IMAGE_MAX / 3) * 4),
  md5: z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/)
    .optional(),
});
const mentionList = z.array(z.string().trim().min(1).max(128)).max(ROBOT_MENTIONS_MAX);

/** WeCom's group-robot messages: text, markdown, image and news. */
export const WeComRobotBody = z.discriminatedUnion('msgtype', [
  z.object({
    msgtype: z.literal('text'),
    text: z.object({
      content: text,
      /** Accounts (WeCom's userid) to mention, `@all` for everyone. */
      mentioned_list: mentionList.optional(),
      /** Phone numbers to mention, `@all` for everyone. */
      mentioned_mobile_list: mentionList.optional(),
    }),
  }),
  z.object({ msgtype: z.literal('markdown'), markdown: z.object({ content: markdown }) }),
  z.object({ msgtype: z.literal('image'), image }),
  z.object({
    msgtype: z.literal('news'),
    news: z.object({
      articles: z
        .array(
          z.object({
            title: z.string().trim().min(1).max(128),
            description: z.string().max(512).optional(),
            url: z.url({ protocol: /^https?$/ }).max(2048),
            picurl: z.string().max(2048).optional(),
          }),
        )
        .min(1)
        .max(ROBOT_ARTICLES_MAX),
    }),
  }),
]);
export type WeComRobotMessage = z.infer<typeof WeComRobotBody>;

/**
 * Sparrow's own shape: sendMessage's fields. `at` names members by user id, 0 for everyone; `id`
 * makes a retry harmless (the same id posts once).
 */
export const SparrowRobotBody = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    content: text,
    at: z.array(rowIdOrZero).max(ROBOT_MENTIONS_MAX).optional(),
    id: clientId.optional(),
  }),
  z.object({
    type: z.literal('markdown'),
    content: markdown,
    at: z.array(rowIdOrZero).max(ROBOT_MENTIONS_MAX).optional(),
    id: clientId.optional(),
  }),
  z.object({ type: z.literal('image'), ...image.shape, id: clientId.optional() }),
]);
export type SparrowRobotMessage = z.infer<typeof SparrowRobotBody>;

/** The message types the webhook takes, in either shape. */
export const ROBOT_MESSAGE_TYPES = ['text', 'markdown', 'image', 'news'] as const;

/** The webhook's query: the robot's key. */
export const RobotWebhookQuery = z.object({ key: z.string().trim().min(1).max(128) });

/** `groupRobotList`: a group's robots. */
export const GroupRobotListBody = z.object({ group_id: groupId });

/** `groupRobotAdd`: a robot with a name; its avatar is set with `uploadRobotAvatar`. */
export const GroupRobotAddBody = z.object({ group_id: groupId, name: personText(ROBOT_NAME_MAX, 1) });

/** `groupRobotEdit`: a robot's new name. */
export const GroupRobotEditBody = z.object({ robot_id: rowId, name: personText(ROBOT_NAME_MAX, 1) });

/** `groupRobotReset`, `groupRobotRemove`: one robot. */
export const GroupRobotIdBody = z.object({ robot_id: rowId });

/** `uploadRobotAvatar`'s fields beside the picture. */
export const UploadRobotAvatarFields = z.object({ robot_id: rowId });

/** A robot as a group's members see it; `url` only for its owner and administrators. */
export interface GroupRobot {
  id: number;
  /** The account the robot posts as: its messages' `fromUser`. */
  user_id: number;
  name: string;
  avatar: string;
  /** Who added it. */
  create_user: number;
  /** ms. */
  create_time: number;
  /** When it last posted, ms; 0 never. */
  last_used: number;
  /** The webhook with its key; only for the group's owner and administrators. */
  url?: string;
}
