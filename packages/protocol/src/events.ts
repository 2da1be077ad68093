import * as z from 'zod';
import {
  AdminNoticeSchema,
  CallMessageSchema,
  ContactIdSchema,
  ContactSchema,
  GlobalConfigSchema,
  GroupSettingSchema,
  MessageExtendsSchemas,
  MessageSchema,
  UserStatusSchema,
} from './entities';

/** The socket path (docs/protocol.md §4). */
export const SOCKET_PATH = '/wss';

/** Frames a client may send (docs/protocol.md §4). Anything else is ignored and counted. */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('close') }),
  z.object({
    type: z.literal('bindUid'),
    user_id: z.coerce.number().int().positive(),
    token: z.string().min(1).max(200),
  }),
  /**
   * 对方正在输入… (our addition): I started (1) or stopped (0) typing to `to`, a user id (private chat) or
   * `group-N`; resent every TYPING_RESEND_MS while typing. Relayed as the push `typing`, never stored.
   */
  z.object({
    type: z.literal('typing'),
    to: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^group-[1-9]\d{0,15}$/)]),
    state: z.union([z.literal(0), z.literal(1)]),
  }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

const flag01 = z.union([z.literal(0), z.literal(1)]);

/**
 * The payload of each push event (docs/protocol.md §4), the one description of it: the server's `publish()`
 * accepts only these types, and the client parses each `{type, time, data}` frame with these schemas.
 */
export const PushEventSchemas = {
  isOnline: z.object({ id: z.number(), is_online: flag01 }),
  /**
   * This socket's session has ended (it is already revoked): another device took over (no
   * `reason`), or an admin disabled the account (`disabled`), set its password (`password`) or ended
   * its sessions (`ended`), or the user ended it from another device (`device`, 登录设备).
   */
  offline: z.object({
    id: z.number(),
    client_id: z.string(),
    isMobile: z.boolean(),
    reason: z.enum(['disabled', 'password', 'ended', 'device']).optional(),
  }),
  updateConfig: GlobalConfigSchema,
  /** A private message (or a notice from `system`). */
  simple: MessageSchema,
  /** A new friend: the contact row to add. */
  appendContact: ContactSchema,
  /** A group is gone for me, or (old clients) an ex-friend with group_id = their user id. */
  removeGroup: z.object({ group_id: z.union([z.string(), z.number()]) }),
  /**
   * A group I am in was disbanded: its chat stays, to be read but not written to, until I delete it.
   * Raingad 6.x clients are sent `removeGroup` instead, as the original server did.
   */
  disbandGroup: z.object({ group_id: z.string() }),
  /** A group message. */
  group: MessageSchema,
  setChatTop: z.object({ id: ContactIdSchema, is_top: flag01, is_group: z.number() }),
  setIsNotice: z.object({ id: ContactIdSchema, is_notice: flag01, is_group: z.number() }),
  /** I joined a group: its contact row. */
  addGroup: ContactSchema,
  addGroupUser: z.object({ group_id: z.string(), user_ids: z.array(z.number()), avatar: z.string() }),
  /** A message was withdrawn: it is now an `event` line (typed as any Message, as the server presents it). */
  undoMessage: MessageSchema.refine((m): boolean => m.type === 'event'),
  delMessage: z.object({ id: z.string(), msg_id: z.number(), toContactId: ContactIdSchema }),
  /**
   * Someone put a reaction on a message or took it back (our addition): a delta, not the message.
   * Raingad 6.x clients are not sent it (they show no reactions).
   */
  reaction: z.object({
    /** The message's conversation as the receiver names it. */
    toContactId: ContactIdSchema,
    msg_id: z.number(),
    emoji: z.string(),
    /** Who reacted. */
    user_id: z.number(),
    /** 1 put on, 0 taken back. */
    on: flag01,
    /** How many people now react with this emoji (0: the emoji's chip goes). */
    count: z.number(),
  }),
  /**
   * A poll's counts changed (a vote, a changed or withdrawn vote) or it was closed (our addition): the
   * counts, not the message, and never who voted. A burst of votes is told at most once per
   * POLL_PUSH_INTERVAL_MS per poll and server, with the counts as they stand when it is sent; each
   * client keeps its own `mine`, which only my own vote's push to my other devices carries. Raingad
   * 6.x clients are not sent it.
   */
  poll: z.object({
    /** The group, as the receiver names it. */
    toContactId: ContactIdSchema,
    msg_id: z.number(),
    poll_id: z.number(),
    /** How many chose each option, in their order. */
    counts: z.array(z.number()),
    /** How many people voted. */
    voters: z.number(),
    /** 1 once closed early. */
    closed: flag01,
    /** The options I chose: only in the push of my own vote to my other devices, never to anyone else. */
    mine: z.array(z.number()).optional(),
  }),
  /**
   * Something of mine a review list held (敏感词, our addition) was decided: an approved message
   * arrives besides as the usual push of the stored message; a rejected one was never delivered.
   * To every device of mine; Raingad 6.x clients are not sent it.
   */
  held: z.object({
    kind: z.enum(['message', 'moment', 'comment']),
    /** A message's client-made id; a post's id as text; a comment's `<post id>:<hash of what it says>`. */
    id: z.string(),
    /** A message's conversation as I name it; '' for the others. */
    toContactId: z.union([z.string(), z.number()]),
    decision: z.enum(['approve', 'reject']),
  }),
  /**
   * A text was edited by its sender (our addition): the new text, not the whole message. Raingad
   * 6.x clients are sent `updateMessage {id, type: 'text', content}` instead.
   */
  editMessage: z.object({
    /** The message's conversation as the receiver names it. */
    toContactId: ContactIdSchema,
    msg_id: z.number(),
    /** The message's client-made id. */
    id: z.string(),
    /** The text now. */
    content: z.string(),
    /** When it was edited, ms. */
    edited: z.number(),
    /** When it was sent, ms: a conversation list whose preview is this message shows the new text. */
    sendTime: z.number(),
  }),
  /**
   * A member of a group read my messages there (our addition): those after `after` up to `msg_id`
   * now count them as read, so their 已读/未读 counts (groupReadCounts) are out of date. Sent only
   * when the reader shares receipts and I see them and am a member still; who read is not said (a
   * sender would learn each member's reading times). Raingad 6.x clients are not sent it.
   */
  readReceipt: z.object({
    /** The group, as I name it. */
    toContactId: ContactIdSchema,
    /** Their read position before (messages up to it were counted already). */
    after: z.number(),
    /** Their read position now. */
    msg_id: z.number(),
  }),
  /**
   * A sign-up chain (接龙) changed: a line added, changed or taken back, or the chain closed (our
   * addition). The chain as it is now, to the members who see its message; Raingad 6.x clients are
   * not sent it (they see the chain as a text, as it was when they read it).
   */
  chain: z.object({
    /** The group, as I name it. */
    toContactId: ContactIdSchema,
    msg_id: z.number(),
    extends: MessageExtendsSchemas.chain.omit({ quote: true }),
  }),
  /** The peer read my messages up to msg_id. */
  isRead: z.object({ toContactId: ContactIdSchema, msg_id: z.number() }),
  /** I read a conversation on another device. */
  readAll: z.object({ toContactId: ContactIdSchema, msg_id: z.number(), is_group: z.number() }),
  /** A member's role changed; without user_id and role, only the group's picture (as Raingad 6.x clients hear of it). */
  setManager: z.object({
    group_id: z.string(),
    user_id: z.number().optional(),
    role: z.number().optional(),
    avatar: z.string().optional(),
  }),
  /**
   * Someone I share a group with changed their name or picture (our addition: docs/protocol.md's
   * `appendContact` refresh reaches only those who list them as a contact). Sent once per person to
   * every member of their groups, so that open group chats and member lists show them as they are now.
   */
  profileChanged: z.object({
    /** Whose profile changed. */
    user_id: z.number(),
    /** Their own name (a group shows a member's group nickname before it, a friend's list their remark). */
    realname: z.string(),
    /** Their picture's URL. */
    avatar: z.string(),
  }),
  /**
   * A friend's status (状态) changed, or they went offline and their 最近在线 is mine to see, or it
   * stopped being mine to see (our addition): their status and last-seen time as they now read for
   * me. Sent to their friends (in runMode 1, to everyone), never across a block, and to their own
   * other devices; not to Raingad sockets.
   */
  userStatus: z.object({
    user_id: z.number(),
    /** Their status now; null for none (or, after a block, none of mine to see). */
    status: UserStatusSchema.nullable(),
    /**
     * When they went offline, ms rounded down to the minute; null when it is no longer mine to see
     * (nor whether they are online: show them offline); absent when unchanged.
     */
    last_seen: z.number().nullable().optional(),
    /** The status's version, raised by every change: a frame with a lower one than already shown is stale. */
    version: z.number().optional(),
  }),
  /** A group's picture was uploaded by its owner or an admin. */
  groupAvatar: z.object({ group_id: z.string(), avatar: z.string() }),
  removeUser: z.object({ group_id: z.string(), user_id: z.number(), avatar: z.string().optional() }),
  setNoSpeak: z.object({ group_id: z.string(), user_id: z.number(), no_speak_until: z.number() }),
  editGroupName: z.object({ id: z.string(), displayName: z.string(), editUserName: z.string() }),
  setNotice: z.object({ group_id: z.string(), notice: z.string() }),
  groupSetting: z.object({ group_id: z.string(), setting: GroupSettingSchema }),
  changeOwner: z.object({ group_id: z.string(), user_id: z.number() }),
  clearMessage: z.object({ group_id: z.string() }),
  /** A new system announcement. */
  adminNotice: AdminNoticeSchema,
  /** A signal of a call, or its end, from the party named by `fromUser` (docs/protocol.md §5). */
  webrtc: CallMessageSchema,
  /**
   * Moments (docs/protocol.md §3): a friend posted, or someone liked, commented on or replied in a post of
   * mine, or (`delete`) the author deleted a post I could see, so an open feed drops it.
   */
  moments: z.object({
    type: z.enum(['post', 'like', 'comment', 'delete']),
    /** The post concerned. */
    post_id: z.number(),
    /** Who did it: the poster, liker or commenter; for `delete`, the author. */
    user_id: z.number(),
  }),
  /**
   * My favourites changed on another device of mine (收藏): `add` saved these ids (or found them
   * saved), `del` removed them, so that a favourites list open here follows. Not sent to Raingad sockets.
   */
  favorite: z.object({
    action: z.enum(['add', 'del']),
    /** The favourites concerned. */
    ids: z.array(z.number()),
  }),
  /**
   * An export of my data (下载我的数据) moved on: its state, progress and, once done, its size,
   * expiry and address, as `exportStatus` answers it. To every device of mine; not sent to Raingad sockets.
   */
  dataExport: z.object({
    id: z.number(),
    state: z.enum(['queued', 'running', 'done', 'failed', 'expired']),
    progress: z.number(),
    size: z.number(),
    create_time: z.number(),
    expire_time: z.number(),
    url: z.string(),
  }),
  /**
   * I blocked (`blocked` 1) or unblocked (0) someone on another device of mine (黑名单), so that a
   * profile or the block list open here follows. The person concerned is told nothing. Not sent to
   * Raingad sockets.
   */
  block: z.object({
    /** The person concerned. */
    user_id: z.number(),
    blocked: flag01,
  }),
  /**
   * Someone is typing to me (1) or stopped (0) (对方正在输入…, our addition): shown until a `typing` 0, a
   * message from them in that chat, or TYPING_SHOWN_MS without a fresh 1. Sent only while both sides keep
   * `userInfo.typing` on, in private chats the sender may write in and groups of at most TYPING_GROUP_MAX
   * members; not to the sender's other sockets, not to Raingad sockets.
   */
  typing: z.object({
    /** Who is typing. */
    from: z.number(),
    /** The chat, as I name it: the sender's user id, or `group-N`. */
    chat: ContactIdSchema,
    state: flag01,
  }),
};

/** Payload of each push event (docs/protocol.md §4). */
export type PushPayloads = { [E in keyof typeof PushEventSchemas]: z.infer<(typeof PushEventSchemas)[E]> };

export type PushEventName = keyof PushPayloads;
export type PushPayload<E extends PushEventName> = PushPayloads[E];
export type PushEvent = {
  [E in PushEventName]: { type: E; data: PushPayloads[E] };
}[PushEventName];

/** A push frame as it travels: `{type, time (s), data}`. */
export type PushFrame = PushEvent & { time: number };

/**
 * A system announcement as the original server pushed it to Raingad 6.x clients: a `simple` text to
 * the `admin_notice` contact whose content is the title.
 */
export const AnnouncementMessageSchema = z.object({
  /** `admin_notice-<announcement id>`. */
  id: z.string(),
  /** The announcement's id. */
  msg_id: z.number(),
  type: z.literal('text'),
  content: z.string(),
  /** ms */
  sendTime: z.number(),
  toContactId: z.literal('admin_notice'),
  toUser: z.literal('admin_notice'),
  is_group: z.literal(2),
  status: z.literal('succeed'),
  is_read: z.literal(1),
  at: z.array(z.number()),
  pid: z.literal(0),
  extends: z.object({ title: z.string(), notice: z.string() }),
  fromUser: z.object({ id: z.literal('admin_notice'), displayName: z.string(), avatar: z.string() }),
});

/**
 * The pushes that sockets of Raingad 6.x clients (joined over HTTP bindUid; docs/protocol.md §1 "Old
 * clients") are sent in the original server's shape instead of Sparrow's. Each replaces one event of
 * `PushEventSchemas` for those sockets only; `readAll` they are not sent at all.
 */
export const RaingadPushSchemas = {
  /** Instead of `isRead`: the messages of mine the peer has just read, as I see them. */
  isRead: z.array(MessageSchema),
  /** Instead of `adminNotice`. */
  simple: AnnouncementMessageSchema,
  /** Instead of `editMessage`: the message (by its client-made `id`) now says `content` (docs/raingad.md §4.2). */
  updateMessage: z.object({ id: z.string(), type: z.literal('text'), content: z.string() }),
};

/** A push frame as a Raingad 6.x client's socket is sent it instead of Sparrow's. */
export type RaingadPushFrame = {
  [E in keyof typeof RaingadPushSchemas]: { type: E; time: number; data: z.infer<(typeof RaingadPushSchemas)[E]> };
}[keyof typeof RaingadPushSchemas];

const RaingadFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('isRead'), time: z.number(), data: RaingadPushSchemas.isRead }),
  z.object({ type: z.literal('simple'), time: z.number(), data: RaingadPushSchemas.simple }),
  z.object({ type: z.literal('updateMessage'), time: z.number(), data: RaingadPushSchemas.updateMessage }),
]);

/** Parses a frame sent in the Raingad shape; null when it is not one. */
export function parseRaingadFrame(raw: unknown): RaingadPushFrame | null {
  const r = RaingadFrameSchema.safeParse(raw);
  return r.success ? (r.data as RaingadPushFrame) : null;
}

/** Frames the server sends outside the push events: init, ping, pong. */
export const ControlFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), client_id: z.string() }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('pong'), multiport: z.boolean().optional() }),
]);
export type ControlFrame = z.infer<typeof ControlFrameSchema>;

/** Every frame a server sends, told apart by its `type`. */
const ServerFrameSchema = z.discriminatedUnion('type', [
  ...ControlFrameSchema.options,
  ...Object.entries(PushEventSchemas).map(([type, data]) =>
    z.object({ type: z.literal(type), time: z.number(), data }),
  ),
]);

/** Parses a server frame; null when it is neither a control frame nor a known push event. */
export function parseServerFrame(raw: unknown): ControlFrame | PushFrame | null {
  const r = ServerFrameSchema.safeParse(raw);
  return r.success ? (r.data as ControlFrame | PushFrame) : null;
}
