import * as z from 'zod';
import { FORWARD_MAX, FORWARD_MIN, FORWARD_RECORD_MAX, TEXT_MESSAGE_MAX } from '../limits';
import type { FromUser, MessageExtends, MessageType } from '../entities';
import type { MessageKey } from '../messages/index';
import { messagePreview, type PreviewKey } from '../preview';
import { personText, rowId } from './fields';
import { contactId } from './im';

/** How forwardMessages sends the chosen messages: one by one (逐条转发), or as one record (合并转发). */
export const ForwardMode = z.enum(['each', 'merge']);
export type ForwardMode = z.infer<typeof ForwardMode>;

/** `/enterprise/im/forwardMessages`: several messages I can see, to 1–5 users or groups (多选 → 转发). */
export const ForwardMessagesBody = z.object({
  /** The messages, each one I can see now; any one missing or hidden refuses them all. */
  msg_ids: z.array(rowId).min(1).max(FORWARD_RECORD_MAX),
  /** The chats they go to, as forwardMessage names them. */
  user_ids: z.array(contactId).min(FORWARD_MIN).max(FORWARD_MAX),
  /** `each`: every message on its own, in the order of msg_id; `merge`: one `record` message holding them all. */
  mode: ForwardMode,
  /** A text sent after them to each chat (WeChat's 留言); blank sends none. */
  note: personText(TEXT_MESSAGE_MAX).optional(),
});

/** `/enterprise/im/forwardRecord`: the messages of a merged record. */
export const ForwardRecordBody = z.object({
  /** A `record` message I can see. */
  msg_id: rowId,
  /** A record held inside that message's record (a record forwarded in a record), reached through its items; absent: the message's own. */
  record_id: rowId.optional(),
});

/** One message of a record, as its reader sees it. */
export interface ForwardRecordItem {
  /** The original message's id (it may since have been withdrawn or deleted: the record keeps its copy). */
  msg_id: number;
  type: MessageType;
  content: string;
  extends: MessageExtends[MessageType];
  /** When the original was sent, ms. */
  sendTime: number;
  /** Its sender as the record keeps them: `displayName` is the reader's remark for them, or their name. */
  fromUser: FromUser;
  /** 1 when the reader sent it. */
  mine: 0 | 1;
  /** For a file: its name, size and download address, as on a message. */
  fileName?: string;
  fileSize?: number;
  download?: string;
  /** For an image: its thumbnail. */
  preview?: string;
}

/** Answer of forwardRecord: the record's title and its messages, oldest first. */
export interface ForwardRecord {
  record_id: number;
  title: string;
  items: ForwardRecordItem[];
}

/** What a record's title is made of (a record message's `extends.source` and `names`). */
export interface RecordSource {
  source: 'private' | 'self' | 'group' | 'mixed';
  names: string[];
}

/**
 * A record's title in a reader's words: "张三和李四的聊天记录" for a private chat, "群聊的聊天记录" for
 * a group (as WeChat words it, so that a group's name does not travel to people outside it).
 */
export function recordTitle(
  { source, names }: RecordSource,
  t: (key: Extract<MessageKey, `record.${string}`>, params?: Record<string, string>) => string,
): string {
  if (source === 'private' && names.length === 2) return t('record.titlePair', { a: names[0]!, b: names[1]! });
  if (source === 'self' && names.length === 1) return t('record.titleSelf', { name: names[0]! });
  if (source === 'group') return t('record.titleGroup');
  return t('record.titleMixed');
}

/** A record's title from a record message's (or item's) stored facts; the stored title when they name no source. */
export function recordTitleOf(
  facts: Record<string, unknown>,
  t: (key: Extract<MessageKey, `record.${string}`>, params?: Record<string, string>) => string,
): string {
  const { source } = facts;
  const names = Array.isArray(facts.names) ? facts.names.filter((n): n is string => typeof n === 'string') : [];
  if (source === 'private' || source === 'self' || source === 'group' || source === 'mixed')
    return recordTitle({ source, names }, t);
  return typeof facts.title === 'string' ? facts.title : t('record.titleMixed');
}

/**
 * One of a record's first messages as its card words it again for each reader (stored in a record
 * message's `extends.heads`): its sender's name, and enough of it for `messagePreview`.
 */
export interface RecordHead {
  name: string;
  type: string;
  content: string;
  extends: Record<string, unknown>;
}

/** A record's card lines, "name: preview", in a reader's words; `fallback` when the facts hold no heads. */
export function recordLines(
  heads: unknown,
  fallback: string[],
  t: (key: PreviewKey, params?: Record<string, string>) => string,
): string[] {
  if (!Array.isArray(heads)) return fallback;
  return heads
    .filter((h): h is RecordHead => typeof h === 'object' && h !== null && typeof (h as RecordHead).name === 'string')
    .map(
      (h) => `${h.name}: ${messagePreview({ type: h.type, content: String(h.content), extends: h.extends ?? {} }, t)}`,
    );
}
