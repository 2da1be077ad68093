import {
  DEFAULT_LOCALE,
  mayPinInGroup,
  messagePreview,
  negotiateLocale,
  PINS_PER_CHAT_MAX,
  translate,
  type EventLine,
  type PinnedMessage,
  type RouteInput,
} from '@sparrow/protocol';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Repos } from '../../repos';
import type { Access, Chat } from '../access';
import type { Session } from '../auth';
import type { EventTarget, PostedLine } from '../events';
import { groupSetting } from '../group';
import type { Hydrator } from './hydrate';
import { eventText } from './presenter';
import type { MessageRow } from './repo';
import { authorizeSend, type AuthorizeParts } from './send/authorize';

/** Posts an event line in a chat through the send pipeline; answers the stored line. */
export interface LinePoster {
  postLine(target: EventTarget, line: PostedLine): Promise<MessageRow | undefined>;
}

/** What PinService is built from. */
export interface PinParts extends AuthorizeParts {
  repos: Pick<Repos, 'pins' | 'users'>;
  access: Pick<Access, 'chat' | 'message' | 'floor' | 'requireWritable' | 'reaches'>;
  now: () => number;
}

/** The line an event stores as its `content`: what clients that show the stored text read, in the source language. */
export function storedEventText(line: EventLine): string {
  return eventText(line, { userId: 0, locale: DEFAULT_LOCALE }, '');
}

/** The event-line target of a chat for a line its caller posts; a private chat's is posted by the caller to the peer. */
export function lineTarget(session: Session, chat: Chat): EventTarget {
  if (chat.kind === 'group') return { kind: 'group', group: chat.group, member: chat.member, actor: session.user };
  if (chat.kind === 'private') return { kind: 'private', from: session.user, to: chat.peer };
  throw new AppError('NotAllowedTarget');
}

/**
 * Pinned messages (置顶消息): pinning and taking pins off, each told in the chat by an event line,
 * and the chat's pins for a reader. In a group the owner and administrators pin, or every member
 * when the group's `pin` setting says so; in a private chat either side, while sendMessage would
 * let them write to the other.
 */
export class PinService {
  constructor(
    private readonly ctx: PinParts,
    private readonly hydrator: Hydrator,
    private readonly lines: LinePoster,
  ) {}

  async pin(session: Session, body: RouteInput<'pinMessage'>): Promise<void> {
    const { row, chat } = await this.ctx.access.message(session, body.id);
    if (row.type === 'event' || row.type === 'webrtc' || row.is_undo) throw new AppError('NotAllowedTarget');
    this.ctx.access.requireWritable(chat);
    await this.mayPin(session, chat);
    const pinning = body.pin === 1;
    if (pinning) {
      const outcome = await this.ctx.repos.pins.pin(
        chat.chatKey,
        row.id,
        session.userId,
        this.ctx.now(),
        PINS_PER_CHAT_MAX,
      );
      if (outcome === 'full') throw new AppError('PinsFull', { max: PINS_PER_CHAT_MAX });
      // Pinned already: nothing changed, nothing to tell.
      if (outcome === 'already') return;
    } else if (!(await this.ctx.repos.pins.unpin(chat.chatKey, row.id))) return;
    const locale = negotiateLocale(session.user.language || undefined);
    const line = {
      event: pinning ? 'pin' : 'unpin',
      user_id: session.userId,
      name: session.user.realname,
      msg_id: row.id,
      // Members who joined a history-hiding group after the message read the line, not the message.
      preview:
        chat.kind === 'group' && !groupSetting(chat.group).history
          ? ''
          : messagePreview({ type: row.type, content: row.content, extends: parseJson(row.extends) }, (key, params) =>
              translate(locale, key, params),
            ),
    } satisfies EventLine;
    await this.lines.postLine(lineTarget(session, chat), { type: 'event', line, content: storedEventText(line) });
  }

  /** Refuses a caller who may not pin in this chat. */
  private async mayPin(session: Session, chat: Chat): Promise<void> {
    if (chat.kind === 'self') throw new AppError('NotAllowedTarget');
    if (chat.kind === 'private') {
      await authorizeSend(this.ctx, session, chat);
      return;
    }
    if (!mayPinInGroup(chat.member.role, groupSetting(chat.group).pin)) throw new AppError('Forbidden');
  }

  /** A chat's pins as the caller sees them, newest pin first. */
  async list(session: Session, body: RouteInput<'pinList'>): Promise<PinnedMessage[]> {
    const chat = await this.ctx.access.chat(session, body.toContactId);
    const floor = await this.ctx.access.floor(session.userId, chat);
    const pins = await this.ctx.repos.pins.list(chat.chatKey, session.userId, floor);
    if (!pins.length) return [];
    const messages = await this.hydrator.presentMany(
      pins.map((p) => p.row),
      session.user,
    );
    const pinners = await this.ctx.repos.users.byIds([...new Set(pins.map((p) => p.pin.pinned_by))]);
    return pins.map(({ pin }, i) => ({
      message: messages[i]!,
      pinned_by: { user_id: pin.pinned_by, realname: pinners.get(pin.pinned_by)?.realname ?? '' },
      pin_time: pin.create_time,
    }));
  }
}
