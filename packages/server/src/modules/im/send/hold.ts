import type { Message } from '@sparrow/protocol';
import { AppError } from '../../../errors';
import type { Repos } from '../../../repos';
import type { Chat } from '../../access';
import type { Session } from '../../auth';
import { groupKey } from '../../group';
import { HeldStatus, type HeldRow } from '../../keywords';
import type { UserRow } from '../../user';
import type { Hydrator } from '../hydrate';
import { ChatType, pairKey, selfKey, type MessageRow } from '../repo';
import type { Draft } from './draft';
import { CHAT_TYPE, toIdOf } from './store';

/** What holding a message for review writes and reads. */
export interface HoldParts {
  repos: Pick<Repos, 'keywords' | 'users' | 'groups'>;
  now: () => number;
}

/**
 * A message a review list (敏感词) holds: kept in `held_items`, not in the chat, and answered to its
 * sender alone as their own copy marked `held` with msg_id 0. The same client id again answers the
 * same; once rejected it is refused as a refuse list refuses.
 */
export async function holdMessage(
  ctx: HoldParts,
  hydrator: Hydrator,
  session: Session,
  chat: Chat,
  draft: Draft,
): Promise<Message> {
  const { held: words = [], ...kept } = draft;
  const row = await ctx.repos.keywords.hold({
    kind: 'message',
    user_id: session.userId,
    client_id: draft.clientId,
    chat_type: CHAT_TYPE[chat.kind],
    to_id: toIdOf(chat, session.userId),
    body: JSON.stringify(kept),
    file_id: draft.fileId,
    words: JSON.stringify(words),
    create_time: ctx.now(),
  });
  if (row.status === HeldStatus.Rejected) throw new AppError('KeywordRefused');
  return heldCopy(hydrator, row, session);
}

/** The sender's copy of a held message: as it would read once stored, msg_id 0, marked `held`. */
async function heldCopy(hydrator: Hydrator, row: HeldRow, session: Session): Promise<Message> {
  const draft = JSON.parse(row.body) as Draft;
  const message: MessageRow = {
    id: 0,
    client_id: row.client_id,
    from_user: row.user_id,
    chat_type: row.chat_type,
    to_id: row.to_id,
    chat_key: '',
    type: draft.type,
    content: draft.content,
    extends: JSON.stringify(draft.extends),
    at: '',
    pid: 0,
    file_id: draft.fileId,
    is_undo: 0,
    is_deleted: 0,
    create_time: row.create_time,
    search_text: '',
    edited_at: 0,
  };
  return { ...(await hydrator.present(message, session.user)), held: 1 };
}

/**
 * A held message's chat as it is now, for its delivery on approval; undefined when it can no longer
 * go there (the sender or peer gone, the group disbanded or the sender no longer in it).
 */
export async function heldChat(
  ctx: HoldParts,
  row: HeldRow,
): Promise<{ chat: Chat; draft: Draft; sender: UserRow } | undefined> {
  const { users, groups } = ctx.repos;
  const sender = await users.byId(row.user_id);
  if (!sender || sender.status !== 1) return undefined;
  const draft = JSON.parse(row.body) as Draft;
  if (row.chat_type === ChatType.Group) {
    const group = await groups.byId(row.to_id);
    const member = group && (await groups.member(group.id, sender.id));
    if (!group || !member) return undefined;
    return { chat: { kind: 'group', chatKey: groupKey(group.id), group, member }, draft, sender };
  }
  if (row.chat_type === ChatType.Private) {
    const peer = await users.byId(row.to_id);
    if (!peer || peer.status !== 1) return undefined;
    return { chat: { kind: 'private', chatKey: pairKey(sender.id, peer.id), peer }, draft, sender };
  }
  return { chat: { kind: 'self', chatKey: selfKey(sender.id) }, draft, sender };
}
