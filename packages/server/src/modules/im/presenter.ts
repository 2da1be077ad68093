import {
  chainText,
  DEFAULT_LOCALE,
  EventLineSchema,
  negotiateLocale,
  newContact,
  MessageFactsSchema,
  messagePreview,
  translate,
  type Contact,
  type EventLine,
  type FromUser,
  type Locale,
  type Message,
  type MessageExtends,
  type MessageFacts,
  type MessageKey,
  type Quote,
  type Reaction,
  PICTURES,
  recordLines,
  REPORT_KINDS,
  REPORT_REASONS,
  recordTitleOf,
} from '@sparrow/protocol';
import { parseJson } from '../../lib/text';
import { DELETED_STATUS } from '../account';
import { ROBOT_STATUS, type UserRow } from '../user';
import { NOTICE_HEAD } from '../group';
import { ChatType, type MessageRow } from './repo';
import type { PollTally } from './polls-repo';

/** `at` is stored as `,3,7,` so that a mention can be found with LIKE. */
export const encodeAt = (ids: number[]) => (ids.length ? `,${[...new Set(ids)].join(',')},` : '');
export const decodeAt = (stored: string) =>
  stored
    .split(',')
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n));

/** Who reads: their id and language, for "you" and for event lines in their words. */
export interface Reader {
  userId: number;
  locale: Locale;
  /** The remarks the reader gave the people an event line names: a line calls them so. */
  remarks?: ReadonlyMap<number, string>;
}

/** The users an event line names (its actor, those it was done to, who withdrew), from its stored facts. */
export function namedInLine(stored: Record<string, unknown>): number[] {
  const ids: unknown[] = [
    stored.user_id,
    stored.by,
    stored.target_id,
    ...(Array.isArray(stored.user_ids) ? stored.user_ids : []),
  ];
  return ids.filter((id): id is number => typeof id === 'number');
}

/** The facts of a stored event line; undefined when they are not a line this server knows. */
export function eventLineOf(stored: Record<string, unknown>): EventLine | undefined {
  const line = EventLineSchema.safeParse(stored);
  return line.success ? line.data : undefined;
}

/** How long a mute lasts, by the `timer` of its line (docs/product.md §9). */
const MUTE_LENGTHS: Readonly<Partial<Record<number, MessageKey>>> = {
  1: 'mute.1',
  2: 'mute.2',
  3: 'mute.3',
  4: 'mute.4',
};

/** The line for each "who may speak" setting of a group (`GroupSetting.nospeak`). */
const NOSPEAK_LINES: Record<number, MessageKey> = {
  0: 'event.nospeak.0',
  1: 'event.nospeak.1',
  2: 'event.nospeak.2',
};

/**
 * The text of an `event` line, rendered for a reader from its facts; `fallback` (the text stored
 * with it) for a line it does not know and for the `system` notices, which are worded when sent.
 */
export function eventText(line: EventLine | undefined, reader: Reader, fallback: string): string {
  if (!line) return fallback;
  const you = translate(reader.locale, 'event.you');
  const nameOf = (id: number, name: string) => (id === reader.userId ? you : reader.remarks?.get(id) || name);
  // Those a line was done to: "you" as the object of the sentence.
  const youObject = translate(reader.locale, 'event.youObject');
  const others = (ids: number[], names: string[]) =>
    ids
      .map((id, i) => (id === reader.userId ? youObject : nameOf(id, names[i] ?? '')))
      .join(reader.locale.startsWith('zh') ? '、' : ', ');
  switch (line.event) {
    case 'undo': {
      if (line.by !== line.user_id) {
        return translate(reader.locale, 'event.undoOther', {
          admin: nameOf(line.by, line.by_name),
          name: line.user_id === reader.userId ? youObject : nameOf(line.user_id, line.name),
        });
      }
      return line.user_id === reader.userId
        ? translate(reader.locale, 'event.undoSelf')
        : translate(reader.locale, 'event.undo', { name: nameOf(line.user_id, line.name) });
    }
    case 'create':
      return translate(reader.locale, 'event.create', { name: nameOf(line.user_id, line.name) });
    case 'invite':
      return translate(reader.locale, 'event.invite', {
        name: nameOf(line.user_id, line.name),
        names: others(line.user_ids, line.names),
      });
    case 'remove':
    case 'setManager':
    case 'unsetManager':
    case 'changeOwner':
    case 'unmute':
    case 'mute': {
      const length = line.event === 'mute' || line.event === 'unmute' ? MUTE_LENGTHS[line.timer] : undefined;
      return translate(reader.locale, `event.${line.event}`, {
        name: nameOf(line.user_id, line.name),
        names: others(line.user_ids, line.names),
        duration: length ? translate(reader.locale, length) : '',
      });
    }
    case 'leave':
    case 'disband':
    case 'join':
    case 'notice':
      return translate(reader.locale, `event.${line.event}`, { name: nameOf(line.user_id, line.name) });
    case 'rename':
      return translate(reader.locale, 'event.rename', { name: nameOf(line.user_id, line.name), title: line.title });
    case 'nospeak': {
      const key = NOSPEAK_LINES[line.nospeak] ?? NOSPEAK_LINES[0]!;
      return translate(reader.locale, key, { name: nameOf(line.user_id, line.name) });
    }
    case 'pin':
    case 'unpin':
      // No preview when the group hides earlier history: a member who joined later reads the line.
      if (!line.preview)
        return translate(reader.locale, `event.${line.event}AMessage`, { name: nameOf(line.user_id, line.name) });
      return translate(reader.locale, `event.${line.event}`, {
        name: nameOf(line.user_id, line.name),
        preview: shortPreview(line.preview),
      });
    case 'pat':
      return patText(line, reader, nameOf(line.target_id, line.target_name), youObject);
    case 'friendRequest':
      return translate(reader.locale, 'notice.friendRequest', { name: line.name });
    case 'friendAccepted':
      return translate(reader.locale, 'notice.friendAccepted', { name: line.name });
    case 'takedown':
      return translate(reader.locale, 'event.takedown');
    case 'reportClosed':
      return translate(reader.locale, line.action === 'dismiss' ? 'notice.reportDismissed' : 'notice.reportActed', {
        kind: translate(reader.locale, reportKindKey(line.kind)),
      });
    case 'reportWarning':
      return translate(reader.locale, 'notice.reportWarning', {
        kind: translate(reader.locale, reportKindKey(line.kind)),
        reason: translate(reader.locale, reportReasonKey(line.reason)),
      });
    case 'signInNewDevice': {
      const where = line.lan ? translate(reader.locale, 'device.lan') : line.place;
      return translate(reader.locale, 'notice.signInNewDevice', {
        device: deviceText(line, reader.locale),
        place: where ? translate(reader.locale, 'notice.placeAt', { place: where }) : '',
      });
    }
  }
}

/** "Chrome on Windows", or whichever half is known, or 未知设备. */
function deviceText(device: { browser: string; os: string }, locale: Locale): string {
  if (device.browser && device.os) return translate(locale, 'device.named', device);
  return device.browser || device.os || translate(locale, 'device.unknown');
}

/** The word for what a report concerns, `report.kind.<kind>` (a person's account for an unknown kind). */
function reportKindKey(kind: string): MessageKey {
  return (REPORT_KINDS as readonly string[]).includes(kind)
    ? (`report.kind.${kind}` as MessageKey)
    : 'report.kind.user';
}

/** The words of a report's reason, `report.reason.<code>` ("other" for an unknown code). */
function reportReasonKey(reason: string): MessageKey {
  return (REPORT_REASONS as readonly string[]).includes(reason)
    ? (`report.reason.${reason}` as MessageKey)
    : 'report.reason.other';
}

/** The characters of a pinned message's preview an event line quotes. */
const PIN_LINE_PREVIEW = 20;

/** A preview cut to what an event line quotes, "…" marking the cut. */
function shortPreview(preview: string): string {
  const chars = [...preview];
  return chars.length > PIN_LINE_PREVIEW ? `${chars.slice(0, PIN_LINE_PREVIEW).join('')}…` : preview;
}

/** "你拍了拍 张三 的肩膀", "李四拍了拍 你", "李四拍了拍自己": a pat line for one reader. */
function patText(
  line: Extract<EventLine, { event: 'pat' }>,
  reader: Reader,
  target: string,
  youObject: string,
): string {
  const suffix = line.suffix ? ` ${line.suffix}` : '';
  const mine = line.user_id === reader.userId;
  if (line.target_id === line.user_id)
    return mine
      ? translate(reader.locale, 'event.patSelfYou', { suffix })
      : translate(reader.locale, 'event.patSelf', { name: reader.remarks?.get(line.user_id) || line.name, suffix });
  const whom = line.target_id === reader.userId ? youObject : target;
  return mine
    ? translate(reader.locale, 'event.patYou', { target: whom, suffix })
    : translate(reader.locale, 'event.pat', {
        name: reader.remarks?.get(line.user_id) || line.name,
        target: whom,
        suffix,
      });
}

/** The `system` pseudo-contact, which carries friend-request notices. */
export function systemContact(recipient: UserRow, pending: number, lastContent: string, at: number): Contact {
  const locale = negotiateLocale(recipient.language || undefined);
  return newContact({
    id: 'system',
    displayName: translate(locale, 'contact.system'),
    avatar: PICTURES.notice,
    lastContent,
    lastSendTime: at,
    type: 'event',
    is_group: 2,
    unread: pending,
  });
}

/** What `system` tells a user of: friend requests, a report's outcome, a sign-in from a new device. */
type SystemLine = Extract<
  EventLine,
  { event: 'friendRequest' | 'friendAccepted' | 'reportClosed' | 'reportWarning' | 'signInNewDevice' }
>;

/**
 * A notice from `system` to a user, in that user's language, as a `simple` push; never stored.
 * `id` names it, so that a client shows it once. It carries no contact row: `systemNotice` adds one.
 */
export function systemMessage(recipient: UserRow, id: string, line: SystemLine, now: number): Message {
  const locale = negotiateLocale(recipient.language || undefined);
  return {
    id,
    msg_id: 0,
    type: 'event',
    content: eventText(line, { userId: recipient.id, locale }, ''),
    sendTime: now,
    toContactId: 'system',
    toUser: recipient.id,
    is_group: 2,
    status: 'succeed',
    is_read: 0,
    at: [],
    pid: 0,
    fromUser: {
      id: 'system',
      user_id: 'system',
      realname: '',
      displayName: translate(locale, 'contact.system'),
      avatar: PICTURES.notice,
    },
    extends: line,
  };
}

/** A friend request's notice from `system`, with the `system` row of the contact list it updates. */
export function systemNotice(
  recipient: UserRow,
  line: Extract<EventLine, { event: 'friendRequest' | 'friendAccepted' }>,
  pending: number,
  now: number,
): Message {
  const id = `friend-${line.friend_id}-${line.event === 'friendRequest' ? 'request' : 'accepted'}`;
  const message = systemMessage(recipient, id, line, now);
  return { ...message, contactInfo: systemContact(recipient, pending, message.content, now) };
}

/** mm:ss, or h:mm:ss from an hour on. */
export function callClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const rest = `${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return h ? `${h}:${rest}` : rest;
}

/** A call's summary as its reader sees it: "已取消" to the caller is "对方已取消" to the callee. */
export function callText(ext: MessageExtends['webrtc'], reader: Reader, callerId: number): string {
  const caller = reader.userId === callerId;
  const say = (key: MessageKey, params?: Record<string, string>) => translate(reader.locale, key, params);
  switch (ext.code) {
    case 902:
      if (ext.unanswered === 1) return say(caller ? 'call.noAnswer' : 'call.missed');
      return say(caller ? 'call.cancelled' : 'call.cancelledByPeer');
    case 903:
      return say(caller ? 'call.refusedByPeer' : 'call.refused');
    case 905:
      return say('call.unreachable');
    case 906:
      return say('call.duration', { time: callClock(ext.callTime) });
    case 907:
      return say(caller ? 'call.busy' : 'call.missedBusy');
    default:
      return say(ext.type === 1 ? 'call.video' : 'call.audio');
  }
}

/** The one-line preview of a message for conversation lists, in the reader's language. */
export function previewOf(row: MessageRow, reader: Reader): string {
  const ext = parseJson(row.extends);
  if (row.type === 'event') return eventText(eventLineOf(ext), reader, row.content);
  const content = row.type === 'text' && ext.notice === 1 ? announcementText(row.content, reader) : row.content;
  return messagePreview({ type: row.type, content, extends: ext }, (key, params) =>
    translate(reader.locale, key, params),
  );
}

/**
 * A message's sender as its reader sees them; an account its user deleted is 已注销用户 in the
 * reader's language, with the stand-in avatar, whatever name the group knew it by.
 */
export function fromUserOf(user: UserRow | undefined, id: number, nickname = '', locale?: Locale): FromUser {
  if (user?.status === DELETED_STATUS) {
    const name = translate(locale ?? DEFAULT_LOCALE, 'account.deletedName');
    return { id, user_id: id, realname: name, displayName: name, avatar: PICTURES.person };
  }
  const realname = user?.realname ?? '';
  return {
    id,
    user_id: id,
    realname,
    displayName: nickname || realname,
    avatar: user?.avatar ?? PICTURES.person,
    ...((user?.status === ROBOT_STATUS || user?.is_bot === 1) && { robot: 1 as const }),
  };
}

/** What the presenter needs beside the row: senders, their group roles and nicknames, read marks. */
export interface MessageContext {
  reader: Reader;
  users: Map<number, UserRow>;
  /** Group members by user id: role and nickname. */
  members?: Map<number, { role: number; nickname: string }>;
  /** In a private chat: how far the peer has read. */
  peerReadTo?: number;
  /** Quoted messages by msg_id. */
  quotes?: Map<number, MessageRow>;
  contactInfo?: Contact;
  /** Reactions by msg_id, as the reader sees them (Hydrator loads them for a page). */
  reactions?: ReadonlyMap<number, Reaction[]>;
  /** Polls' counts and the reader's own choice, by poll id (Hydrator loads them for a page). */
  polls?: ReadonlyMap<number, PollTally>;
}

/**
 * A stored message's type and facts, with the message it quotes. A row whose facts its type does
 * not describe (the server writes none) is shown as its stored text.
 */
function factsOf(row: MessageRow, mc: MessageContext): MessageFacts {
  const stored = parseJson(row.extends);
  const quoted = row.pid ? mc.quotes?.get(row.pid) : undefined;
  let ext = stored;
  if (quoted && !quoted.is_deleted) {
    const qu = mc.users.get(quoted.from_user);
    const quote: Quote = {
      msg_id: quoted.id,
      content: quoted.is_undo
        ? eventText(eventLineOf(parseJson(quoted.extends)), mc.reader, quoted.content)
        : previewOf(quoted, mc.reader),
      user_id: quoted.from_user,
      realname: fromUserOf(qu, quoted.from_user, mc.members?.get(quoted.from_user)?.nickname, mc.reader.locale)
        .displayName,
    };
    ext = { ...stored, quote };
  }
  // A merged record's title and card lines are worded for its reader, as event lines are.
  if (row.type === 'record') {
    const { heads, ...facts } = ext;
    const say = (key: MessageKey, p?: Record<string, string>) => translate(mc.reader.locale, key, p);
    const stored = Array.isArray(facts.lines) ? facts.lines.filter((l): l is string => typeof l === 'string') : [];
    ext = { ...facts, title: recordTitleOf(facts, say), lines: recordLines(heads, stored, say) };
  }
  // A poll's counts and the reader's own choice as they stand, when loaded; as sent otherwise.
  const tally = row.type === 'poll' ? mc.polls?.get(Number(ext.poll_id)) : undefined;
  if (tally) ext = { ...ext, ...pollFacts(tally) };
  const facts = MessageFactsSchema.safeParse({ type: row.type, extends: ext });
  return facts.success ? facts.data : { type: 'text', extends: {} };
}

/** A poll's `extends` as its tally says: the options with their counts, the voters, the reader's own choice. */
export function pollFacts(t: PollTally): MessageExtends['poll'] {
  const { poll } = t;
  return {
    poll_id: poll.id,
    question: poll.question,
    options: poll.options.map((text, i) => ({ text, count: t.counts[i] ?? 0 })),
    multiple: poll.multiple,
    anonymous: poll.anonymous,
    deadline: poll.deadline,
    closed: poll.closed,
    voters: t.voters,
    mine: t.mine,
    creator: poll.creator,
  };
}

/** A group announcement's message with its first line in the reader's words. */
function announcementText(content: string, reader: Reader): string {
  const head = content.startsWith(`${NOTICE_HEAD}\n`) ? NOTICE_HEAD.length : -1;
  return head < 0 ? content : translate(reader.locale, 'notice.title') + content.slice(head);
}

/**
 * What a message says to its reader: event lines, call summaries and an announcement's heading
 * are told in their words.
 */
function contentOf(facts: MessageFacts, row: MessageRow, reader: Reader): string {
  if (facts.type === 'event') return eventText(facts.extends, reader, row.content);
  if (facts.type === 'webrtc') return callText(facts.extends, reader, row.from_user);
  if (facts.type === 'text' && facts.extends.notice === 1) return announcementText(row.content, reader);
  if (facts.type === 'record') return translate(reader.locale, 'record.content', { title: facts.extends.title });
  if (facts.type === 'chain') return chainText(facts.extends, translate(reader.locale, 'chain.head'));
  if (facts.type === 'poll') return translate(reader.locale, 'preview.poll', { question: facts.extends.question });
  return row.content;
}

export function toMessage(row: MessageRow, mc: MessageContext): Message {
  const facts = factsOf(row, mc);
  const member = mc.members?.get(row.from_user);
  const isGroup = row.chat_type === ChatType.Group;
  const toUser = isGroup ? (`group-${row.to_id}` as const) : row.chat_type === ChatType.Self ? -1 : row.to_id;
  // The conversation as the reader sees it (docs/protocol.md §2): a private message's receiver files it under the sender.
  const toContactId = row.chat_type === ChatType.Private && row.to_id === mc.reader.userId ? row.from_user : toUser;
  const message: Message = {
    id: row.client_id,
    msg_id: row.id,
    ...facts,
    content: contentOf(facts, row, mc.reader),
    sendTime: row.create_time,
    toContactId,
    toUser,
    is_group: isGroup ? 1 : row.chat_type === ChatType.Self ? 3 : 0,
    status: 'succeed',
    is_read: row.chat_type === ChatType.Private && mc.peerReadTo !== undefined && mc.peerReadTo >= row.id ? 1 : 0,
    at: decodeAt(row.at),
    pid: row.pid,
    fromUser: fromUserOf(mc.users.get(row.from_user), row.from_user, member?.nickname, mc.reader.locale),
  };
  if (member) message.role = member.role;
  if (facts.type === 'file' && !row.is_undo) {
    message.fileName = facts.extends.name;
    message.fileSize = facts.extends.size;
    message.download = `${row.content}?name=${encodeURIComponent(message.fileName)}`;
  }
  if (facts.type === 'image') message.preview = facts.extends.thumb;
  if (mc.contactInfo) message.contactInfo = mc.contactInfo;
  const reactions = mc.reactions?.get(row.id);
  if (reactions?.length && !row.is_undo) message.reactions = reactions;
  if (row.edited_at && !row.is_undo) message.edited = Number(row.edited_at);
  return message;
}
