import {
  needsFriendship,
  REACTIONS_PER_USER_MAX,
  REACTORS_LISTED_MAX,
  type ContactId,
  type MessageReactions,
  type PushEvent,
  type Reactor,
  type RouteInput,
  takesReactions,
} from '@sparrow/protocol';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { AppError } from '../../errors';
import { contactIdOf, type Access, type Chat } from '../access';
import type { Session } from '../auth';
import { groupSetting } from '../group';
import { requireUnmuted } from '../report';
import type { ConfigService } from '../system';
import { peopleNamed } from './people-named';
import { reactionsFor } from './reactions-view';
import { ChatType, type MessageRow } from './repo';

/** What ReactionService is built from. */
export interface ReactionParts {
  repos: Pick<Repos, 'reactions' | 'users' | 'friends' | 'groups'>;
  access: Access;
  config: ConfigService;
  realtime: Realtime;
  now: () => number;
}

/**
 * Reactions to messages (issue 38 point 7): whoever can see a message may put up to
 * REACTIONS_PER_USER_MAX emoji on it, unless its group turned reactions off; each change reaches
 * everyone holding the message as a small delta (`reaction`), never as the whole message.
 */
export class ReactionService {
  constructor(private readonly ctx: ReactionParts) {}

  /** Puts my reaction on or takes it back; answers the message's reactions as I now see them. */
  async react(session: Session, body: RouteInput<'reactMessage'>): Promise<MessageReactions> {
    const { row, chat } = await this.reactable(session, body.id);
    await this.requireOpen(session, chat);
    const on = body.on === 1 ? 1 : 0;
    // Muted server-wide: no new reactions (taking mine back is still allowed).
    if (on) requireUnmuted(session.user, this.ctx.now());
    let changed: boolean;
    if (on) {
      const outcome = await this.ctx.repos.reactions.add(
        row.id,
        session.userId,
        body.emoji,
        REACTIONS_PER_USER_MAX,
        this.ctx.now(),
      );
      if (outcome === 'full') throw new AppError('ReactionsFull', { max: REACTIONS_PER_USER_MAX });
      changed = outcome === 'added';
    } else changed = await this.ctx.repos.reactions.remove(row.id, session.userId, body.emoji);
    if (changed) {
      const count = await this.ctx.repos.reactions.count(row.id, body.emoji);
      await pushToHolders(this.ctx, row, (toContactId) => ({
        type: 'reaction',
        data: { toContactId, msg_id: row.id, emoji: body.emoji, user_id: session.userId, on, count },
      }));
    }
    const mine = await reactionsFor(this.ctx.repos.reactions, [row], session.userId);
    return { msg_id: row.id, reactions: mine.get(row.id) ?? [] };
  }

  /** Who reacted to a message I can see, named as I see them. */
  async who(session: Session, body: RouteInput<'messageReactions'>): Promise<Reactor[]> {
    const { row, chat } = await this.reactable(session, body.id);
    const rows = await this.ctx.repos.reactions.who(row.id, body.emoji, REACTORS_LISTED_MAX);
    const named = await peopleNamed(this.ctx.repos, session.userId, chat, [...new Set(rows.map((r) => r.user_id))]);
    return rows.map((r) => ({ emoji: r.emoji, user_id: r.user_id, ...named.get(r.user_id)!, time: r.create_time }));
  }

  /** A message I can see that takes reactions: not an event line or a call, not withdrawn. */
  private async reactable(session: Session, ref: number | string): Promise<{ row: MessageRow; chat: Chat }> {
    const found = await this.ctx.access.message(session, ref);
    if (found.row.is_undo || !takesReactions(found.row.type)) throw new AppError('MessageNotFound');
    return found;
  }

  /** The chat takes reactions now: not read-only, reactions on in a group, still friends in a private chat. */
  private async requireOpen(session: Session, chat: Chat): Promise<void> {
    this.ctx.access.requireWritable(chat);
    if (chat.kind === 'group' && groupSetting(chat.group).reaction === 0) throw new AppError('ReactionsOff');
    if (
      chat.kind === 'private' &&
      !(await this.ctx.access.reaches(
        session.userId,
        chat.peer.id,
        needsFriendship(this.ctx.config.get().sysInfo.runMode),
      ))
    )
      throw new AppError('NotFriendChat');
  }
}

/**
 * Pushes an event to everyone holding a message who may read it (`Access.readers`: not a member
 * who joined a history-hiding group after it), each naming the chat as they do: one push to a
 * group's members, one to each side of a private chat.
 */
export async function pushToHolders(
  parts: { access: Pick<Access, 'readers'>; realtime: Pick<Realtime, 'publish'> },
  row: MessageRow,
  event: (toContactId: ContactId) => PushEvent,
): Promise<void> {
  const holders = await parts.access.readers(row);
  if (row.chat_type === ChatType.Group) {
    await parts.realtime.publish(holders, event(contactIdOf(row, row.from_user)));
    return;
  }
  for (const id of new Set(holders)) await parts.realtime.publish([id], event(contactIdOf(row, id)));
}
