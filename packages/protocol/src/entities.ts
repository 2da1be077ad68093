import * as z from 'zod';
import { EventLineSchema } from './event-lines';
import { GROUP_RETENTION_DAYS } from './limits';
import type { LastSeenTo, UserStatus } from './presence';

/** A 0/1 flag as the server sends it. */
const flag01 = z.union([z.literal(0), z.literal(1)]);

/** Per-user app settings (docs/product.md §3 App setting, §9 defaults). */
export const AppSettingSchema = z.object({
  /** Play a sound on incoming messages. */
  voiceStatus: z.boolean(),
  /** Vibrate on incoming messages. */
  vibrateStatus: z.boolean(),
  /** Show avatars as circles. */
  circleAvatar: z.boolean(),
});
export type AppSetting = z.infer<typeof AppSettingSchema>;

/**
 * What a Raingad client's settings dialog saves (`/enterprise/im/setting`) and reads back from
 * userInfo.setting at login; present only once it has saved them.
 */
export interface OldClientSetting {
  theme: string;
  isVoice: boolean;
  /** 1: Enter sends, 2: Ctrl+Enter sends. */
  sendKey: number;
  avatarCricle: boolean;
  hideMessageName: boolean;
  hideMessageTime: boolean;
}

/** The signed-in user (docs/protocol.md §2 userInfo). Never carries a password hash or salt. */
export interface UserInfo {
  user_id: number;
  id: number;
  account: string;
  realname: string;
  displayName: string;
  avatar: string;
  email: string;
  phone: string;
  /** 0 female, 1 male, 2 unknown. */
  sex: 0 | 1 | 2;
  motto: string;
  /**
   * 发送已读回执: 1 (the default) when my reads count in groups' receipts; 0 counts me as unread and
   * hides the others' from me too, unless the organisation (runMode 1) makes receipts mandatory.
   */
  read_receipt: 0 | 1;
  /** 对方正在输入…: 1 (the default) when others see me typing and I see them; 0 neither. */
  typing: 0 | 1;
  /** What a pat of me adds after my name ("拍了拍 张三 的肩膀"), PAT_SUFFIX_MAX characters at most; '' for none. */
  pat_suffix: string;
  /** My status (状态) while it lasts; null for none. */
  status: UserStatus | null;
  /** Who sees my 最近在线: 0 everyone who may see my profile, 1 friends only, 2 nobody. */
  last_seen_to: LastSeenTo;
  /** 1 when the account is a verified email or phone. */
  is_auth: 0 | 1;
  /** 0 user, 1 system administrator. */
  role: 0 | 1;
  setting: AppSetting & { language: string } & Partial<OldClientSetting>;
  /** My QR code's URL (docs/protocol.md §6), signed and valid until `qrExpire`; fresh on every login and checkuser. */
  qrUrl: string;
  /** When `qrUrl` stops working, ms. */
  qrExpire: number;
  /** 1 when an admin set the password: the client asks for a new one before anything else. */
  must_change_password?: 1;
  /** 1 while the server requires a second factor of this user, who has none yet: only its setup works until then. */
  two_step_setup?: 1;
}

/** Public profile of another user (getUserInfo). */
export interface UserProfile {
  user_id: number;
  id: number;
  /** Masked (first 3 + `******` + last 2) unless it is me. */
  account: string;
  realname: string;
  displayName: string;
  avatar: string;
  sex: 0 | 1 | 2;
  motto: string;
  /** What a pat of this user adds after their name (拍一拍后缀); '' for none, and when `profile` is 0. */
  pat_suffix: string;
  /** My friendship record with this user, or null. */
  friend: { friend_id: number; nickname: string } | null;
  is_friend: 0 | 1;
  /**
   * 0 when a group's `profile` setting hides this person from me (we share only groups where it is
   * off and I am an ordinary member, and are not friends): account, sex and motto are withheld and a
   * friend request is refused.
   */
  profile: 0 | 1;
  /** 1 when I blocked this person (黑名单). */
  blocked: 0 | 1;
  /** Their status (状态) while it lasts; absent for none, and when `profile` is 0. */
  status?: UserStatus;
  /**
   * 1 while they are online, 0 when not, absent when their 最近在线 is not mine to see (their
   * `last_seen_to`, a block, or a server that shows no presence).
   */
  is_online?: 0 | 1;
  /** When they were last online, ms rounded down to the minute; absent while online, never seen, or not mine to see. */
  last_seen?: number;
}

/** System configuration (docs/protocol.md §2 globalConfig). */
export const GlobalConfigSchema = z.object({
  sysInfo: z.object({
    name: z.string(),
    logo: z.string(),
    /** 1: users may change their name. */
    diyName: flag01,
    /** 0 any account, 1 phone, 2 email, 3 phone or email. */
    regauth: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
    /** 1 open, 2 invite code. */
    regtype: z.union([z.literal(1), z.literal(2)]),
    /** 1 everyone in the organisation is a contact, 2 friends only. */
    runMode: z.union([z.literal(1), z.literal(2)]),
    ipregion: flag01,
    multipleLogin: flag01,
    /** Seconds between registrations from one IP; 0 = no limit. */
    registerInterval: z.number(),
  }),
  chatInfo: z.object({
    online: flag01,
    webrtc: flag01,
    dbDelMsg: flag01,
    /** Withdraw window, s. */
    redoTime: z.number(),
    /** How long after sending a text its sender may edit it, s (our addition). */
    editTime: z.number(),
    groupChat: flag01,
    simpleChat: flag01,
    /** 0 = no limit. */
    groupUserMax: z.number(),
    /** Minimum seconds between two sends of one user; 0 = none. */
    sendInterval: z.number(),
    /** Messages older than this many days are deleted by the retention sweep; 0 = kept forever (our addition). */
    messageDays: z.number(),
    /** Files older than this many days are removed from storage, their messages marked expired; 0 = kept forever (our addition). */
    fileDays: z.number(),
    /** ICE servers; credentials only for a signed-in caller. */
    stun: z.array(
      z.object({
        urls: z.union([z.string(), z.array(z.string())]),
        username: z.string().optional(),
        credential: z.string().optional(),
      }),
    ),
  }),
  fileUpload: z.object({
    /** MB. */
    size: z.number(),
    fileExt: z.array(z.string()),
    /** MB. */
    emojiSize: z.number(),
  }),
  /** The location picker's map services (Leaflet); it works without them, by name and manual pin. */
  map: z.object({
    /** Tile URL template with {z}/{x}/{y}. */
    tileUrl: z.string(),
    attribution: z.string(),
    /** A Nominatim-compatible place search (`?q=…&format=json`). */
    searchUrl: z.string(),
  }),
  compass: z.object({
    status: flag01,
    mode: z.union([z.literal(1), z.literal(2)]),
    list: z.array(
      z.object({ icon: z.string(), name: z.string(), type: z.union([z.literal(1), z.literal(2)]), url: z.string() }),
    ),
  }),
  demon_mode: flag01,
});
export type GlobalConfig = z.infer<typeof GlobalConfigSchema>;

/** Answer of /common/pub/checkVersion. */
export interface VersionInfo {
  versionName: string;
  versionCode: number;
  updateType: 'forcibly' | 'solicit' | 'silent';
  versionInfo: string;
  /** '' when the caller's release is current. */
  downloadUrl: string;
}

/** Answer of login. */
export interface LoginResult {
  /** `bearer <token>`: send it back exactly as the Authorization header. */
  authToken: string;
  sessionId: number;
  userInfo: UserInfo;
}

/** Answer of uploads that store a file without sending a message. */
export interface UploadResult {
  file_id: number;
  src: string;
  name: string;
  size: number;
  ext: string;
  /** 1 doc, 2 image, 3 audio, 4 video, 9 other. */
  cate: 1 | 2 | 3 | 4 | 9;
  mime: string;
}

/** The id of a contact: a user id, `group-<n>`, or a pseudo-contact (`-1` is my file transfer). */
export const ContactIdSchema = z.union([
  z.number(),
  z.templateLiteral(['group-', z.number()]),
  z.literal('system'),
  z.literal('admin_notice'),
]);
export type ContactId = z.infer<typeof ContactIdSchema>;

/** A conversation or contact-list row (docs/protocol.md §2 Contact, docs/product.md §3). */
/** A person's status (状态) on the wire (protocol `UserStatus`). */
export const UserStatusSchema = z.object({
  text: z.string(),
  emoji: z.string(),
  /** When it stops showing, ms; null while it lasts until changed. */
  until: z.number().nullable(),
});

export const ContactSchema = z.object({
  id: ContactIdSchema,
  displayName: z.string(),
  avatar: z.string(),
  /** Preview of the last message, already in the reader's language. */
  lastContent: z.string(),
  /** ms. */
  lastSendTime: z.number(),
  /** Type of the last message. */
  type: z.string(),
  /** 0 user, 1 group, 2 system or announcement, 3 my file transfer. */
  is_group: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  unread: z.number(),
  is_top: flag01,
  /** 1 notify, 0 muted. */
  is_notice: flag01,
  /** Mentions of me not yet read. */
  is_at: z.number(),
  is_online: flag01,
  /** Letter group A–Z, or #. */
  index: z.string(),
  notice: z.string(),
  setting: z.record(z.string(), z.unknown()),
  /** Users only. */
  user_id: z.number().optional(),
  realname: z.string().optional(),
  /** Masked unless a friend. */
  account: z.string().optional(),
  motto: z.string().optional(),
  /** My friendship row, when we are friends. */
  friend_id: z.number().optional(),
  /** The user's department (docs/product.md §3), 0 for none. */
  dep_id: z.number().optional(),
  /** Their status (状态) while it lasts (users only). */
  status: UserStatusSchema.optional(),
  /** When they were last online, ms rounded down to the minute, when mine to see and they are offline (users only). */
  last_seen: z.number().optional(),
  /** Its name, in runMode 1 (where everyone in the organisation is a contact) when there is one. */
  dep_name: z.string().optional(),
  /** Groups only. */
  group_id: z.string().optional(),
  owner_id: z.number().optional(),
  role: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  member_count: z.number().optional(),
  /** 1 when the group was disbanded: its chat can be read and deleted, no longer written to. */
  disbanded: z.literal(1).optional(),
});
export type Contact = z.infer<typeof ContactSchema>;

/**
 * A contact row as it starts: no last message, nothing unread or mentioned, not pinned,
 * notifications on, offline, under `#`; `fields` name the contact and whatever else it has.
 */
export function newContact(fields: Pick<Contact, 'id' | 'displayName' | 'is_group'> & Partial<Contact>): Contact {
  const { id, displayName, ...rest } = fields;
  return {
    id,
    displayName,
    avatar: '',
    lastContent: '',
    lastSendTime: 0,
    type: '',
    unread: 0,
    is_top: 0,
    is_notice: 1,
    is_at: 0,
    is_online: 0,
    index: '#',
    notice: '',
    setting: {},
    ...rest,
  };
}

/** The sender as the server knows it (never the client's copy). */
export const FromUserSchema = z.object({
  id: z.union([z.number(), z.literal('system')]),
  user_id: z.union([z.number(), z.literal('system')]),
  realname: z.string(),
  displayName: z.string(),
  avatar: z.string(),
  /** 1 when the sender is a group's robot (群机器人, our addition): no person, no profile to open. */
  robot: z.literal(1).optional(),
});
export type FromUser = z.infer<typeof FromUserSchema>;

/** The message a message quotes, as the reader sees it (docs/protocol.md §2 text: quote). */
export const QuoteSchema = z.object({
  msg_id: z.number(),
  /** The quoted message's preview, or its withdrawal line, in the reader's language. */
  content: z.string(),
  /** Its sender. */
  user_id: z.number(),
  /** Its sender's group nickname, or name. */
  realname: z.string(),
});
export type Quote = z.infer<typeof QuoteSchema>;

/**
 * The facts a message of each type carries in `extends` (docs/protocol.md §2 message types), as the server
 * stores them. Keys written by older clients or servers pass through. Every type but `event` may
 * also carry the message it quotes.
 */
const facts = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ ...shape, quote: QuoteSchema.optional() });

/**
 * 1 once the message's file expired (retention, `chatInfo.fileDays`): its bytes are no longer kept
 * and it shows "文件已过期或已被清理"; the rest of `extends` stays as sent. Our addition.
 */
const expired = z.literal(1).optional();

export const MessageExtendsSchemas = {
  text: facts({
    /** 1 on the line that posts a group announcement. */
    notice: z.literal(1).optional(),
    /**
     * 1 when a robot posted the text as markdown (docs/protocol.md §10, our addition): Sparrow's
     * clients render it (no HTML, links and emphasis only); older clients show the text as sent.
     */
    markdown: z.literal(1).optional(),
  }),
  event: EventLineSchema,
  /** A place, as LocationExtends checked it on the way in. */
  location: facts({
    name: z.string(),
    address: z.string(),
    latitude: z.number(),
    longitude: z.number(),
  }),
  /** A contact card: the user it shows, as the server knew them when it was sent. */
  contact: facts({ id: z.number(), displayName: z.string(), avatar: z.string() }),
  image: facts({
    /** px, 0 when unknown. */
    width: z.number(),
    height: z.number(),
    /** The thumbnail's URL. */
    thumb: z.string(),
    file_id: z.number(),
    expired,
  }),
  voice: facts({
    /** s. */
    duration: z.number(),
    file_id: z.number(),
    expired,
  }),
  video: facts({
    /** s. */
    duration: z.number(),
    /** px as the sender's browser measured them, 0 when unknown. */
    width: z.number(),
    height: z.number(),
    /** The poster's URL, '' when there is none. */
    poster: z.string(),
    file_id: z.number(),
    expired,
  }),
  file: facts({
    /** Extension, lower case. */
    ext: z.string(),
    /** The name it was uploaded under. */
    name: z.string(),
    /** Bytes. */
    size: z.number(),
    file_id: z.number(),
    expired,
  }),
  emoji: facts({
    /** The sticker's file; absent on a sticker sent by address. */
    file_id: z.number().optional(),
  }),
  /** A merged forward (合并转发): a snapshot of chosen messages, opened with forwardRecord. */
  record: facts({
    /** The record's id (forwardRecord's `record_id` for a record held inside another). */
    record_id: z.number(),
    /** "张三和李四的聊天记录", "群聊的聊天记录": worded for the reader. */
    title: z.string(),
    /** The first messages as the card shows them, "name: preview" (FORWARD_RECORD_LINES at most). */
    lines: z.array(z.string()),
    /** How many messages the record holds. */
    count: z.number(),
    /** Where the messages came from: a private chat (its two people's names), my own notes, a group, or several chats. */
    source: z.enum(['private', 'self', 'group', 'mixed']),
    /** The names the title is made of: the two people of a private chat, or mine for my own notes. */
    names: z.array(z.string()),
  }),
  /**
   * A group sign-up chain (接龙): a title, an example line, and the members' lines numbered in the
   * order they joined; the stored message always shows the chain as it is now (chainJoin, chainClose).
   */
  chain: facts({
    /** The chain's id. */
    chain_id: z.number(),
    title: z.string(),
    /** The line offered as a model ("姓名 + 人数"); absent when none. */
    example: z.string().optional(),
    /** The lines, in the order they were added: number n is `entries[n - 1]`. */
    entries: z.array(
      z.object({
        user_id: z.number(),
        /** The member's group nickname, or name, when the line was added. */
        name: z.string(),
        text: z.string(),
      }),
    ),
    /** 1 once closed (已结束): no line is added, changed or taken back. */
    closed: flag01,
    /** Who started it. */
    creator: z.number(),
    /** Counts the chain's changes: of two copies, the one with the higher `rev` is newer. */
    rev: z.number(),
  }),
  /**
   * A poll (投票) in a group: its question and options, with the counts and the reader's own choice as
   * they stood when the message was presented (live afterwards through the `poll` push).
   */
  poll: facts({
    /** The poll's id. */
    poll_id: z.number(),
    question: z.string(),
    /** The options in their order, each with how many chose it. */
    options: z.array(z.object({ text: z.string(), count: z.number() })),
    /** 1: a voter may choose several options; 0: exactly one. */
    multiple: flag01,
    /** 1: nobody, the starter included, is ever told who chose what. */
    anonymous: flag01,
    /** When voting ends, ms; 0 for no deadline. */
    deadline: z.number(),
    /** 1 once closed early by its starter or the group's owner or an administrator. */
    closed: flag01,
    /** How many people voted. */
    voters: z.number(),
    /** The indexes of the options the reader chose (empty: not voted). */
    mine: z.array(z.number()),
    /** Who started it. */
    creator: z.number(),
  }),
  /** A call (docs/protocol.md §5): stored as its summary; on a signal's push, the signal's fields too. */
  webrtc: facts({
    /** 1 video, 0 audio. */
    type: z.union([z.literal(0), z.literal(1)]),
    /** 3 on the message that rings. */
    status: z.number(),
    /** calling, acceptRtc, offer, answer, iceCandidate, camera, busy, hangup, or otherOpt (handled on another device). */
    event: z.string(),
    /** 901 calling, 902 cancelled, 903 refused, 904 answered, 905 not connected, 906 ended, 907 busy. */
    code: z.number(),
    /** s, on 906. */
    callTime: z.number(),
    /** 1 on a 902 that came when nobody had answered within the ring time (对方无应答). */
    unanswered: z.literal(1).optional(),
    /** Whether the signal came from a phone. */
    isMobile: z.boolean(),
    /** A session description's text (offer, answer). */
    sdp: z.string().optional(),
    /** An ICE candidate as JSON text. */
    iceCandidate: z.string().optional(),
    /** On `camera`: 1 the sender's camera is on, 0 it is off. */
    camera: z.union([z.literal(0), z.literal(1)]).optional(),
  }),
};

/** The kinds of message (docs/protocol.md §2). */
export type MessageType = keyof typeof MessageExtendsSchemas;

/** The `extends` of a message of each type. */
export type MessageExtends = { [T in MessageType]: z.infer<(typeof MessageExtendsSchemas)[T]> };

/** The fields every message has, whatever its type. */
/** One emoji's reactions on a message, as a reader sees them. */
export const ReactionSchema = z.object({
  /** The emoji (one grapheme). */
  emoji: z.string(),
  /** How many people reacted with it. */
  count: z.number(),
  /** 1 when the reader is one of them. */
  mine: flag01,
});
export type Reaction = z.infer<typeof ReactionSchema>;

const MessageFields = z.object({
  /** Client-made UUID: the idempotency key. */
  id: z.string(),
  /** Server-assigned, grows with time: ordering and paging cursor. */
  msg_id: z.number(),
  content: z.string(),
  /** ms. */
  sendTime: z.number(),
  toContactId: ContactIdSchema,
  toUser: ContactIdSchema.optional(),
  is_group: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  status: z.literal('succeed'),
  is_read: flag01,
  /** Mentioned user ids; 0 = everyone. */
  at: z.array(z.number()),
  /** Quoted msg_id, or 0. */
  pid: z.number(),
  fromUser: FromUserSchema,
  role: z.number().optional(),
  fileName: z.string().optional(),
  fileSize: z.number().optional(),
  preview: z.string().optional(),
  download: z.string().optional(),
  /** On pushes: the conversation as the receiver should show it. */
  contactInfo: ContactSchema.optional(),
  /**
   * Reactions (our addition), one entry per emoji in the order first used; absent when none.
   * Raingad 6.x clients ignore it.
   */
  reactions: z.array(ReactionSchema).optional(),
  /** When the text was last edited, ms (our addition: the bubble shows 已编辑); absent when never. */
  edited: z.number().optional(),
  /**
   * 1 on the sender's own copy of a message a review list (敏感词) held: shown to the sender alone as
   * 审核中, with `msg_id` 0, until an operator decides (the `held` push). Absent otherwise.
   */
  held: z.literal(1).optional(),
});

/** A type with the facts a message of that type carries. */
const typed = <T extends MessageType>(type: T) => ({ type: z.literal(type), extends: MessageExtendsSchemas[type] });
const messageOf = <T extends MessageType>(type: T) => MessageFields.extend(typed(type));

/** A call's message: its summary as stored, or a signal of the call as pushed (docs/protocol.md §5). */
export const CallMessageSchema = messageOf('webrtc');

/** A message (docs/protocol.md §2 Message, docs/product.md §3), told apart by its `type`. */
export const MessageSchema = z.discriminatedUnion('type', [
  messageOf('text'),
  messageOf('event'),
  messageOf('location'),
  messageOf('contact'),
  messageOf('image'),
  messageOf('emoji'),
  messageOf('voice'),
  messageOf('video'),
  messageOf('file'),
  messageOf('record'),
  messageOf('poll'),
  messageOf('chain'),
  CallMessageSchema,
]);
export type Message = z.infer<typeof MessageSchema>;

/**
 * A message's type and `extends` alone, as a server checks what it stored before presenting it:
 * `{type: 'image', extends: {width, height, thumb, file_id}}`.
 */
export const MessageFactsSchema = z.discriminatedUnion('type', [
  z.object(typed('text')),
  z.object(typed('event')),
  z.object(typed('location')),
  z.object(typed('contact')),
  z.object(typed('image')),
  z.object(typed('emoji')),
  z.object(typed('voice')),
  z.object(typed('video')),
  z.object(typed('file')),
  z.object(typed('record')),
  z.object(typed('poll')),
  z.object(typed('chain')),
  z.object(typed('webrtc')),
]);
export type MessageFacts = z.infer<typeof MessageFactsSchema>;

/** A message of one type: `MessageOf<'image'>['extends']` has its width, height, thumb and file. */
export type MessageOf<T extends MessageType> = Extract<Message, { type: T }>;

/** Narrows a message to a type; `isMessageOf(m, 'image') && m.extends.width`. */
export function isMessageOf<T extends MessageType>(message: Message, type: T): message is MessageOf<T> {
  return message.type === type;
}

/** A friend request (docs/protocol.md §3 /enterprise/friend/index). */
export interface FriendRequest {
  friend_id: number;
  create_user_info: { user_id: number; id: number; realname: string; displayName: string; avatar: string };
  user_id_info: { user_id: number; id: number; realname: string; displayName: string; avatar: string };
  remark: string;
  /** 2 pending, 1 accepted, 0 refused. */
  status: 0 | 1 | 2;
  create_time: number;
}

/** Group settings (docs/protocol.md §2). */
export const GroupSettingSchema = z.object({
  /** Members may invite others; QR joining allowed. */
  invite: flag01,
  /** New members see earlier history. */
  history: flag01,
  /** Members may view each other's profiles and add each other. */
  profile: flag01,
  /** 0 all speak, 1 only owner and admins, 2 only owner. */
  nospeak: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  manage: flag01,
  /** Every member may pin messages (置顶消息); 0: only the owner and administrators. The owner sets it. */
  pin: flag01,
  /** Members may react to messages (our addition; 1 by default, owner and admins change it). */
  reaction: flag01,
  /** Members' read receipts (群消息已读回执) count and show (our addition; 1 by default, owner and admins change it). */
  receipt: flag01,
  /**
   * Messages older than this many days are deleted (消息保存时间, one of GROUP_RETENTION_DAYS; 0 as
   * long as the server keeps them). Only the owner changes it; the stricter of it and the server's applies.
   */
  retention: z.literal(GROUP_RETENTION_DAYS),
});
export type GroupSetting = z.infer<typeof GroupSettingSchema>;

/** A new group's settings (docs/protocol.md §3: group setting), and what a stored setting lacks. */
export const DEFAULT_GROUP_SETTING: Readonly<GroupSetting> = {
  invite: 1,
  history: 1,
  profile: 1,
  nospeak: 0,
  manage: 0,
  pin: 0,
  reaction: 1,
  receipt: 1,
  retention: 0,
};

/** A group's own record, for members (groupInfo). */
export interface GroupInfo {
  group_id: string;
  id: string;
  displayName: string;
  name: string;
  avatar: string;
  owner_id: number;
  owner: { user_id: number; id: number; realname: string; avatar: string } | null;
  notice: string;
  setting: GroupSetting;
  member_count: number;
  /** My role: 1 owner, 2 admin, 3 member; 0 not a member. */
  isJoin: 0 | 1 | 2 | 3;
  /** `member_count`, as Raingad 6.x clients read it. */
  groupUserCount: number;
  /** The owner's name (`owner.realname`, '' when gone), as Raingad 6.x clients read it. */
  ownerName: string;
  /** My nickname in the group. */
  nickname: string;
  /** When my mute ends, ms; 0 when not muted. */
  no_speak_until: number;
  create_time: number;
  qrUrl: string;
  qrExpire: number;
}

/** The roles of a group's members (docs/protocol.md §2), the one definition server and client read. */
export const GroupRoles = { Owner: 1, Admin: 2, Member: 3 } as const;

/** A member's role: 1 owner, 2 administrator, 3 member. */
export type MemberRole = (typeof GroupRoles)[keyof typeof GroupRoles];

/** My role in a group, or 0 when I am not (or no longer) in it. */
export type GroupRole = 0 | MemberRole;

/** A stored role as a member's role: owner and administrator as they are, anything else a member. */
export const memberRole = (role: number): MemberRole =>
  role === GroupRoles.Owner || role === GroupRoles.Admin ? role : GroupRoles.Member;

/** A member of a group (groupUserList). */
export interface GroupMember {
  user_id: number;
  role: MemberRole;
  nickname: string;
  /** ms; 0 when not muted. */
  no_speak_until: number;
  /** `no_speak_until` in seconds, as Raingad 6.x clients read it. */
  no_speak_time: number;
  join_time: number;
  /** 0 when the group's `profile` setting keeps me from their profile and from adding them. */
  profile: 0 | 1;
  userInfo: { user_id: number; id: number; realname: string; displayName: string; avatar: string; account: string };
}

/**
 * A system announcement (getAdminNotice). With none published, getAdminNotice answers
 * `EMPTY_ADMIN_NOTICE` (`id` 0, empty title), as the original server answered `{title:'', create_time:0}`.
 */
export const AdminNoticeSchema = z.object({
  id: z.number(),
  title: z.string(),
  notice: z.string(),
  create_time: z.number(),
});
export type AdminNotice = z.infer<typeof AdminNoticeSchema>;

/** getAdminNotice's answer when no announcement is published. */
export const EMPTY_ADMIN_NOTICE: AdminNotice = { id: 0, title: '', notice: '', create_time: 0 };

/** A group as a scanned QR code shows it (groupInfoqq). */
export interface GroupPreview {
  group_id: string;
  displayName: string;
  avatar: string;
  member_count: number;
  /** My role when I am already in it, else 0. */
  isJoin: 0 | 1 | 2 | 3;
}

/**
 * A group's code resolved for a Raingad client (`/scan/g/…`): it opens the group by `id` (groupInfo,
 * then joinGroup without the token, which the scan stands for).
 */
export interface ScannedGroup extends GroupPreview {
  id: string;
  name: string;
  action: 'groupInfo';
}

/** A sticker of my collection. */
export interface EmojiItem {
  id: number;
  src: string;
  file_id: number;
  name: string;
}

/** A file I sent or received (file management); `preview` on are what Raingad's file manager reads. */
export interface FileItem {
  msg_id: number;
  file_id: number;
  name: string;
  size: number;
  ext: string;
  /** 1 doc, 2 image, 3 audio, 4 video, 9 other. */
  cate: 1 | 2 | 3 | 4 | 9;
  src: string;
  create_time: number;
  fromUser: FromUser;
  toContactId: ContactId;
  /** A picture of the file: an image's thumbnail or a video's poster, else the file itself. */
  preview: string;
  /** The icon the list shows: the picture for images and videos, else ''. */
  extUrl: string;
  /** The type of the message that carried it. */
  msg_type: string;
  /** The sender, as `fromUser`. */
  user_id_info: FromUser;
  /** The file's address that downloads it under its name. */
  download: string;
}
