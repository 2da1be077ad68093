import {
  messagePreview,
  translate,
  type Contact,
  type FromUser,
  type Locale,
  type Message,
  type MessageKey,
} from '@sparrow/protocol';
import type { UserRow } from '../user';
import { ChatType, type MessageRow } from './repo';

/** `at` is stored as `,3,7,` so that a mention can be found with LIKE. */
export const encodeAt = (ids: number[]) => (ids.length ? `,${[...new Set(ids)].join(',')},` : '');
export const decodeAt = (stored: string) =>
  stored
    .split(',')
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n));

/**
 * Plain text from what an older client may send as HTML: tags dropped, line breaks kept. A tag
 * never spans a `<`, so each pattern scans a stretch of text once: `[^>]*` alone rescans the
 * rest of the text from every `<` that has no `>` after it.
 */
export function plainText(input: string): string {
  if (!/<[a-z/!][^<>]*>/i.test(input)) return input;
  return input
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^<>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Who reads: their id and language, for "you" and for event lines in their words. */
export interface Reader {
  userId: number;
  locale: Locale;
}

/** The text of an `event` line, rendered for a reader from the facts stored with it. */
export function eventText(ext: Record<string, unknown>, reader: Reader, fallback: string): string {
  const you = translate(reader.locale, 'event.you');
  const nameOf = (id: unknown, name: unknown) => (id === reader.userId ? you : String(name ?? ''));
  switch (ext.event) {
    case 'undo': {
      if (ext.by !== undefined && ext.by !== ext.user_id) {
        return translate(reader.locale, 'event.undoOther', {
          admin: nameOf(ext.by, ext.by_name),
          name: nameOf(ext.user_id, ext.name),
        });
      }
      return ext.user_id === reader.userId
        ? translate(reader.locale, 'event.undoSelf')
        : translate(reader.locale, 'event.undo', { name: String(ext.name ?? '') });
    }
    case 'create':
      return translate(reader.locale, 'event.create', { name: nameOf(ext.user_id, ext.name) });
    case 'invite': {
      const ids = Array.isArray(ext.user_ids) ? ext.user_ids : [];
      const names = Array.isArray(ext.names) ? ext.names : [];
      const list = ids.map((id, i) => nameOf(id, names[i])).join(reader.locale.startsWith('zh') ? '、' : ', ');
      return translate(reader.locale, 'event.invite', { name: nameOf(ext.user_id, ext.name), names: list });
    }
    case 'remove':
    case 'setManager':
    case 'unsetManager':
    case 'changeOwner':
    case 'unmute':
    case 'mute': {
      const ids = Array.isArray(ext.user_ids) ? ext.user_ids : [];
      const names = Array.isArray(ext.names) ? ext.names : [];
      const list = ids.map((id, i) => nameOf(id, names[i])).join(reader.locale.startsWith('zh') ? '、' : ', ');
      const timer = Number(ext.timer);
      const duration = timer >= 1 && timer <= 4 ? translate(reader.locale, `mute.${timer}` as MessageKey) : '';
      return translate(reader.locale, `event.${ext.event}` as MessageKey, {
        name: nameOf(ext.user_id, ext.name),
        names: list,
        duration,
      });
    }
    case 'leave':
    case 'join':
    case 'notice':
      return translate(reader.locale, `event.${ext.event}` as MessageKey, { name: nameOf(ext.user_id, ext.name) });
    case 'rename':
      return translate(reader.locale, 'event.rename', {
        name: nameOf(ext.user_id, ext.name),
        title: String(ext.title ?? ''),
      });
    default:
      return fallback;
  }
}

/** The one-line preview of a message for conversation lists, in the reader's language. */
export function previewOf(row: MessageRow, reader: Reader): string {
  const ext = parseJson(row.extends);
  if (row.type === 'event') return eventText(ext, reader, row.content);
  return messagePreview({ type: row.type, content: row.content, extends: ext }, (key, params) =>
    translate(reader.locale, key, params),
  );
}

export function fromUserOf(user: UserRow | undefined, id: number, nickname = ''): FromUser {
  const realname = user?.realname ?? '';
  return { id, user_id: id, realname, displayName: nickname || realname, avatar: user?.avatar ?? '' };
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
}

/** A stored message as the wire Message (api.md §2). */
export function toMessage(row: MessageRow, mc: MessageContext): Message {
  const ext = parseJson(row.extends);
  const member = mc.members?.get(row.from_user);
  const isGroup = row.chat_type === ChatType.Group;
  const toContactId = isGroup ? (`group-${row.to_id}` as const) : row.chat_type === ChatType.Self ? -1 : row.to_id;
  const message: Message = {
    id: row.client_id,
    msg_id: row.id,
    type: row.type as Message['type'],
    content: row.type === 'event' ? eventText(ext, mc.reader, row.content) : row.content,
    sendTime: row.create_time,
    toContactId,
    toUser: toContactId,
    is_group: isGroup ? 1 : row.chat_type === ChatType.Self ? 3 : 0,
    status: 'succeed',
    is_read: row.chat_type === ChatType.Private && mc.peerReadTo !== undefined && mc.peerReadTo >= row.id ? 1 : 0,
    at: decodeAt(row.at),
    pid: row.pid,
    fromUser: fromUserOf(mc.users.get(row.from_user), row.from_user, member?.nickname),
    extends: ext,
  };
  if (member) message.role = member.role;
  if (row.type === 'file' && !row.is_undo) {
    message.fileName = String(ext.name ?? '');
    message.fileSize = Number(ext.size ?? 0);
    message.download = `${row.content}?name=${encodeURIComponent(message.fileName)}`;
  }
  if (row.type === 'image' && typeof ext.thumb === 'string') message.preview = ext.thumb;
  if (row.pid) {
    const quoted = mc.quotes?.get(row.pid);
    if (quoted && !quoted.is_deleted) {
      const qu = mc.users.get(quoted.from_user);
      message.extends = {
        ...ext,
        quote: {
          msg_id: quoted.id,
          content: quoted.is_undo
            ? eventText(parseJson(quoted.extends), mc.reader, quoted.content)
            : previewOf(quoted, mc.reader),
          user_id: quoted.from_user,
          realname: mc.members?.get(quoted.from_user)?.nickname || qu?.realname || '',
        },
      };
    }
  }
  if (mc.contactInfo) message.contactInfo = mc.contactInfo;
  return message;
}
