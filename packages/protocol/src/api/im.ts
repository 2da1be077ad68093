import * as z from 'zod';
import {
  CALL_ICE_MAX,
  CALL_SDP_MAX,
  EXTENDS_DEPTH_MAX,
  FORWARD_MAX,
  FORWARD_MIN,
  ID_MAX,
  KEYWORDS_MAX,
  PAGE_LIMIT_MAX,
  READ_NAMED_MAX,
  TEXT_MESSAGE_MAX,
} from '../limits';
import { UNITS_PER_GRAPHEME_MAX } from '../text';
import { checkGraphemes, flag, personText, rowId, rowIdOrZero } from './fields';
import { boundedJson, withinDepth } from './json';
import { paging } from './friend';
import type { Contact, Message } from '../entities';

/**
 * A contact id as the client sends it: a user id, `group-<n>`, `system`, `admin_notice`, or -1.
 * A user or group number past ID_MAX names no one (see `rowId`, `groupNumber`).
 */
export const contactId = z.union([
  z
    .string()
    .trim()
    .regex(/^group-[1-9][0-9]*$/),
  z.enum(['system', 'admin_notice']),
  rowId,
  z.coerce.number().int().min(-1).max(-1),
]);

/**
 * A message as the client refers to it: its server `msg_id`, or its client-made `id`. Text that is
 * no msg_id is a client-made id, digits past ID_MAX too (a client may make ids of digits); a
 * number past ID_MAX names no message.
 */
export const messageRef = z.union([
  z.coerce.number().int().positive().max(ID_MAX),
  z.string().trim().min(8).max(64),
  rowId,
]);

/** Kinds of message a client may send through sendMessage. */
export const SendableType = z.enum(['text', 'emoji', 'image', 'voice', 'video', 'file', 'location', 'contact']);

/** `/enterprise/im/sendMessage`. */
export const SendMessageBody = z
  .object({
    /** Client-made UUID: retrying with the same id never duplicates. */
    id: z.string().trim().min(8).max(64),
    toContactId: contactId,
    is_group: z.coerce.number().int().min(0).max(3).default(0),
    type: SendableType.default('text'),
    /** Text (≤ 2048 characters), or what a message of another type carries (a URL, a place's name…). */
    content: z.string(),
    /** Mentioned user ids; 0 = everyone. */
    at: z.array(rowIdOrZero).max(500).default([]),
    /** Quoted msg_id. */
    pid: rowIdOrZero.default(0),
    /** What a message of another type carries (a place, a contact card, a sticker's file): a few flat fields. */
    extends: z.record(z.string(), z.unknown()).superRefine(withinDepth(EXTENDS_DEPTH_MAX)).default({}),
    file_id: rowId.optional(),
  })
  .superRefine((b, ctx) => {
    const bound = { origin: 'string' as const, inclusive: true, input: b.content, path: ['content'] };
    if (b.type !== 'text') {
      const max = TEXT_MESSAGE_MAX * UNITS_PER_GRAPHEME_MAX;
      if (b.content.length > max) ctx.addIssue({ code: 'too_big', maximum: max, ...bound });
    } else if (!b.content.trim()) ctx.addIssue({ code: 'too_small', minimum: 1, ...bound });
    else checkGraphemes(b.content, TEXT_MESSAGE_MAX, ctx, ['content']);
  });

/** `/enterprise/im/getMessageList`. */
export const GetMessageListBody = z.object({
  toContactId: contactId,
  is_group: z.coerce.number().int().min(0).max(3).default(0),
  ...paging,
  /** Older than this msg_id. */
  last_id: rowIdOrZero.optional(),
  /** Newer than this msg_id. */
  after_id: rowIdOrZero.optional(),
  /** `media` (images and videos), `file`, or any message type. */
  type: z.string().trim().max(16).optional(),
  keywords: personText(KEYWORDS_MAX).optional(),
  /** Only messages mentioning me. */
  is_at: flag.optional(),
  /** Only messages from this user (chat history by member). */
  from_user: rowId.optional(),
  /** `limit` messages centred on this msg_id (jump to a search hit); refused alike when missing or not mine to see. */
  around_id: rowId.optional(),
  /** From this time on, ms (the history's date picker: the first message of a day). */
  start_time: z.coerce.number().int().min(0).optional(),
  /** Up to this time, ms, inclusive. */
  end_time: z.coerce.number().int().min(0).optional(),
});

/** The kinds of message whose words are indexed: text, the names in file, location and card messages, a record's title. */
export const SearchableType = z.enum(['text', 'file', 'location', 'contact', 'record']);

/** `/enterprise/im/searchMessage`: every conversation I can see, newest first. */
export const SearchMessageBody = z
  .object({
    /** Words to find, all of them, inside words too (Chinese needs no spaces); case is ignored. */
    keywords: personText(KEYWORDS_MAX, 1),
    /** Only this conversation. */
    toContactId: contactId.optional(),
    is_group: z.coerce.number().int().min(0).max(3).default(0),
    type: SearchableType.optional(),
    /** Only messages from this user. */
    from_user: rowId.optional(),
    /** From this time on, ms. */
    start_time: z.coerce.number().int().min(0).optional(),
    /** Up to this time, ms, inclusive. */
    end_time: z.coerce.number().int().min(0).optional(),
    ...paging,
  })
  .refine((b) => b.start_time === undefined || b.end_time === undefined || b.start_time <= b.end_time, {
    path: ['end_time'],
  });

/** A search hit: the message, its conversation as the reader's list shows it, and where the words are. */
export type SearchHit = Message & {
  contactInfo: Contact;
  /** `[start, end)` offsets into `content` (UTF-16 code units, as a JavaScript string counts) of each match. */
  highlight: Array<[number, number]>;
};

/** `/enterprise/im/sync`: what I missed since a msg_id, across all conversations. */
export const SyncBody = z.object({
  after_id: rowIdOrZero,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_LIMIT_MAX * 5)
    .default(200),
});

/** `/enterprise/im/getContactInfo`. */
export const GetContactInfoBody = z.object({ id: contactId });

/** A message a Raingad client posts as read: it posts them whole; only the client-made `id` is read. */
const ReadMessage = z.object({ id: z.string().min(1).max(64) });

/** `/enterprise/im/setMsgIsRead`. */
export const SetMsgIsReadBody = z.object({
  toContactId: contactId,
  is_group: z.coerce.number().int().min(0).max(3).default(0),
  msg_id: rowIdOrZero.optional(),
  /**
   * Raingad 6.x clients: the unread messages of this chat they hold, one or a list (a form of more
   * than the parser's array limit arrives keyed by index), so that their sender hears which were read.
   */
  messages: z
    .preprocess(
      (v) => (Array.isArray(v) ? v : typeof v === 'object' && v !== null && !('id' in v) ? Object.values(v) : [v]),
      z.array(ReadMessage).max(READ_NAMED_MAX),
    )
    .optional(),
});

/** `/enterprise/im/readAtMsg`. */
export const ReadAtMsgBody = z.object({ toContactId: contactId });

/** `/enterprise/im/undoMessage`, `delMessage`, `removeMessage`. */
export const MessageRefBody = z.object({ id: messageRef });

/** `/enterprise/im/delChat`. */
export const DelChatBody = z.object({ id: contactId, is_group: z.coerce.number().int().min(0).max(3).default(0) });

/** `/enterprise/im/setChatTop`. */
export const SetChatTopBody = z.object({
  id: contactId,
  is_group: z.coerce.number().int().min(0).max(3).default(0),
  is_top: flag,
});

/** `/enterprise/im/isNotice`. */
export const IsNoticeBody = z.object({
  id: contactId,
  is_group: z.coerce.number().int().min(0).max(3).default(0),
  is_notice: flag,
});

/** `/enterprise/im/forwardMessage`: to 1–5 users or groups. */
export const ForwardMessageBody = z.object({
  msg_id: rowId,
  user_ids: z.array(contactId).min(FORWARD_MIN).max(FORWARD_MAX),
});

/** `/enterprise/im/getAdminNotice`. */
export const GetAdminNoticeBody = z.object({});

/** What Raingad clients send for an unused field ('' or null) reads as absent. */
const absent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/**
 * Signals of a call (docs/protocol.md §5); `otherOpt` is the server's own. `camera` is Sparrow's: the sender
 * turned their camera off or on (`camera` 0 or 1), which Raingad 6.x clients are not told of.
 */
export const CallEvent = z.enum([
  'calling',
  'acceptRtc',
  'offer',
  'answer',
  'iceCandidate',
  'camera',
  'busy',
  'hangup',
]);
export type CallEvent = z.infer<typeof CallEvent>;

/**
 * An ICE candidate sent as an object: RTCIceCandidateInit, what `RTCIceCandidate.toJSON()` gives.
 * Other keys are dropped unread, so a candidate holds no nesting to walk when passed on as text.
 */
export const IceCandidateInit = z.object({
  /** The candidate line; '' marks the end of candidates. */
  candidate: z.string().max(CALL_ICE_MAX).optional(),
  /** The media stream's identification tag. */
  sdpMid: z.string().max(64).nullish(),
  /** The index of the media description the candidate belongs to. */
  sdpMLineIndex: z.number().int().min(0).max(65_535).nullish(),
  /** The ICE username fragment the candidate was gathered under. */
  usernameFragment: z.string().max(256).nullish(),
});

/** `/enterprise/im/sendToMsg`: one signal of a one-to-one call. */
export const SendToMsgBody = z.object({
  /** The call's UUID, made by the caller; every signal of the call names it. */
  id: z.string().trim().min(8).max(64),
  /** The other party's user id. */
  toContactId: rowId,
  /** 1 video, 0 audio. */
  type: z.coerce.number().int().min(0).max(1).default(0),
  event: CallEvent,
  /** The code the sender means (902 cancel, 903 refuse, 906 end, 907 busy); the server decides the outcome. */
  code: absent(z.coerce.number().int().min(900).max(999)),
  /** A session description's text, with `offer` and `answer`. */
  sdp: absent(z.string().max(CALL_SDP_MAX)),
  /** An ICE candidate, as JSON text `{candidate, sdpMLineIndex, sdpMid}` (an object is taken too). */
  iceCandidate: absent(
    z.union([
      z.string().max(CALL_ICE_MAX),
      IceCandidateInit.transform((o) => JSON.stringify(o)).pipe(z.string().max(CALL_ICE_MAX)),
    ]),
  ),
  /** With `camera`: 1 the sender's camera is on, 0 it is off. */
  camera: absent(z.coerce.number().int().min(0).max(1)),
  /** Seconds the sender counted; the stored duration is the server's own. */
  callTime: absent(z.coerce.number().int().min(0).max(86_400)),
  /** Sent by Raingad 6.x clients and not needed. */
  msg_id: absent(rowIdOrZero),
  status: absent(z.coerce.number().int().min(0).max(9)),
  isMobile: absent(boundedJson(1)),
});

/** One ICE server as RTCPeerConnection takes it. */
export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

/** `/enterprise/im/iceServers`: STUN, and TURN with short-lived credentials. */
export interface IceConfig {
  iceServers: IceServer[];
  /** How long the credentials hold, s. */
  ttl: number;
  /** 'relay' when the operator hides users' addresses from each other. */
  iceTransportPolicy?: 'relay';
}
