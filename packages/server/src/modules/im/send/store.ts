import { isUniqueViolation } from '../../../db/unique';
import type { Repos } from '../../../repos';
import type { Chat } from '../../access';
import type { Metrics } from '../../ops';
import { encodeAt } from '../presenter';
import { ChatType, type ConversationRow, type MessageRow } from '../repo';
import type { Draft } from './draft';
import type { MemberLists } from './members';
import type { Outbox } from './outbox';

/** What storing writes through and counts with. */
export interface StoreParts {
  repos: Pick<Repos, 'messageStore' | 'messages'>;
  metrics: Pick<Metrics, 'messageStored'>;
  now: () => number;
}

export interface Stored {
  row: MessageRow;
  /** False when the sender had already stored this client id: a retry, answered as it was. */
  fresh: boolean;
  /** In a private chat: both sides' conversation rows as the message left them. */
  sides?: Map<number, ConversationRow>;
}

/** The `chat_type` a chat's messages are stored with. */
export const CHAT_TYPE = { private: ChatType.Private, group: ChatType.Group, self: ChatType.Self } as const;

/** The id a message is stored under: the peer, the group, or the sender for notes to self. */
export function toIdOf(chat: Chat, senderId: number): number {
  if (chat.kind === 'private') return chat.peer.id;
  if (chat.kind === 'group') return chat.group.id;
  return senderId;
}

/** Rewrites a stored message's content and `extends` (a call's outcome); answers the row as it now reads. */
export async function amendMessage(
  ctx: StoreParts,
  row: MessageRow,
  amended: Pick<Draft, 'content' | 'extends'>,
): Promise<MessageRow> {
  const stored = { extends: JSON.stringify(amended.extends), content: amended.content };
  await ctx.repos.messages.update(row.id, stored);
  return { ...row, ...stored };
}

/**
 * Stores a message and moves the conversation rows in one transaction; idempotent on
 * (sender, client id), so a retry racing its original is answered with the stored row.
 */
export async function storeMessage(
  ctx: StoreParts,
  members: MemberLists,
  outbox: Outbox,
  senderId: number,
  chat: Chat,
  draft: Draft,
): Promise<Stored> {
  // Whom a group message goes to is decided as it is stored, not when the request began.
  if (chat.kind === 'group') await members.refresh(chat);
  let mentioned: readonly number[] = [];
  if (chat.kind === 'group' && draft.at.length) mentioned = draft.at.includes(0) ? await members.of(chat) : draft.at;
  try {
    const stored = await ctx.repos.messageStore.store(
      {
        client_id: draft.clientId,
        from_user: senderId,
        chat_type: CHAT_TYPE[chat.kind],
        to_id: toIdOf(chat, senderId),
        chat_key: chat.chatKey,
        type: draft.type,
        content: draft.content,
        extends: JSON.stringify(draft.extends),
        at: encodeAt(draft.at),
        pid: draft.pid,
        file_id: draft.fileId,
        is_undo: 0,
        is_deleted: 0,
        create_time: ctx.now(),
      },
      mentioned,
      outbox.dueFor(ctx.now()),
    );
    ctx.metrics.messageStored(draft.type);
    return { ...stored, fresh: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const row = await ctx.repos.messages.bySender(senderId, draft.clientId);
    if (!row) throw err;
    return { row, fresh: false };
  }
}
