import {
  isMessageOf,
  type EventLine,
  type Message,
  type MessageOf,
  type PushEvent,
  GroupRoles,
} from '@sparrow/protocol';
import type { Realtime } from '../../../realtime/realtime';
import type { Repos } from '../../../repos';
import type { Chat } from '../../access';
import { toUserContact, type FriendRow } from '../../friend';
import { toGroupContact } from '../../group';
import type { UserRow } from '../../user';
import type { Hydrator } from '../hydrate';
import { systemNotice } from '../presenter';
import type { ConversationRow, MessageRow } from '../repo';
import type { MemberLists } from './members';

/** What the fan-out reads and pushes through. */
export interface FanOutParts {
  repos: Pick<Repos, 'conversations' | 'friends'>;
  realtime: Realtime;
  now: () => number;
}

/** Told of a message after its frames were handed to the realtime layer; must not throw. */
export type PublishedListener = (row: MessageRow, chat: Chat, sender: UserRow, recipients: number[]) => Promise<void>;

/** `other` as a contact row of the viewer's list (their friend row of `other`, their view of the chat). */
function contactFor(other: UserRow, friend: FriendRow | undefined, online: boolean, conv?: ConversationRow) {
  const contact = toUserContact(other, friend, online);
  if (conv)
    Object.assign(contact, { unread: conv.unread, is_top: conv.is_top, is_notice: conv.is_notice, is_at: conv.is_at });
  return contact;
}

/**
 * Pushes a new message: `simple` to the peer and the sender's other sockets, `group` to the
 * members. Answers the message as the sender sees it (without `contactInfo`) when it was presented
 * on the way, so that sendMessage need not present it again.
 */
export class FanOut {
  private readonly published: PublishedListener[] = [];

  constructor(
    private readonly ctx: FanOutParts,
    private readonly hydrator: Hydrator,
    private readonly members: MemberLists,
  ) {}

  /** Tells `listener` of each message pushed, with the users it went to besides the sender (Web Push). */
  onPublished(listener: PublishedListener): void {
    this.published.push(listener);
  }

  private tell(row: MessageRow, chat: Chat, sender: UserRow, recipients: number[]): void {
    for (const listener of this.published) void listener(row, chat, sender, recipients);
  }

  async publish(
    row: MessageRow,
    chat: Chat,
    sender: UserRow,
    exceptClientId?: string,
    sides?: Map<number, ConversationRow>,
    push: 'simple' | 'webrtc' = 'simple',
  ): Promise<Message | undefined> {
    if (chat.kind === 'private') return this.toPair(row, chat.peer, sender, exceptClientId, sides, push);
    if (chat.kind === 'self') {
      const mine = await this.hydrator.present(row, sender);
      await this.ctx.realtime.publish([sender.id], { type: 'simple', data: mine }, exceptClientId);
      return mine;
    }
    return this.toGroup(row, chat, sender, exceptClientId);
  }

  /**
   * A friend notice to its recipient's `system` conversation, as a `simple` push with the requests
   * waiting for them. Nothing is stored, so no listener hears of it.
   */
  async toSystem(
    recipient: UserRow,
    line: Extract<EventLine, { event: 'friendRequest' | 'friendAccepted' }>,
  ): Promise<void> {
    const pending = await this.ctx.repos.friends.pendingCount(recipient.id);
    await this.ctx.realtime.publish([recipient.id], {
      type: 'simple',
      data: systemNotice(recipient, line, pending, this.ctx.now()),
    });
  }

  /**
   * A call's message with its outcome, to each of `to.readerIds` as `webrtc`, made by `signal` into
   * the signal that reader hears; the actor's own devices hear `otherOpt`, but for
   * `to.exceptClientId`. Answers the actor's signal.
   */
  async callOutcome(
    row: MessageRow,
    to: { readerIds: readonly number[]; actorId: number; exceptClientId?: string | undefined },
    signal: (message: Message) => MessageOf<'webrtc'>,
  ): Promise<MessageOf<'webrtc'> | undefined> {
    const { realtime } = this.ctx;
    let answer: MessageOf<'webrtc'> | undefined;
    for (const { reader, message } of await this.hydrator.forReaders(row, to.readerIds)) {
      const data = signal(message);
      if (reader.id === to.actorId) {
        answer = data;
        await realtime.publish(
          [reader.id],
          { type: 'webrtc', data: { ...data, extends: { ...data.extends, event: 'otherOpt' } } },
          to.exceptClientId,
        );
      } else await realtime.publish([reader.id], { type: 'webrtc', data });
    }
    return answer;
  }

  private async toPair(
    row: MessageRow,
    peer: UserRow,
    sender: UserRow,
    exceptClientId?: string,
    sides?: Map<number, ConversationRow>,
    push: 'simple' | 'webrtc' = 'simple',
  ): Promise<Message> {
    const { realtime, repos } = this.ctx;
    const rows = sides ?? (await repos.conversations.rowsIn(row.chat_key, [sender.id, peer.id]));
    const friends = await repos.friends.between(sender.id, peer.id);
    const online = await realtime.online([sender.id, peer.id]);
    const contact = (viewer: UserRow, other: UserRow) =>
      contactFor(other, friends.get(viewer.id), online.has(other.id), rows.get(viewer.id));
    const toPeer = await this.hydrator.present(row, peer, {
      contactInfo: contact(peer, sender),
      users: new Map([[sender.id, sender]]),
    });
    const frame = (data: Message): PushEvent =>
      push === 'webrtc' && isMessageOf(data, 'webrtc') ? { type: 'webrtc', data } : { type: 'simple', data };
    await realtime.publish([peer.id], frame(toPeer));
    this.tell(row, { kind: 'private', chatKey: row.chat_key, peer }, sender, [peer.id]);
    const mine = await this.hydrator.present(row, sender, { peerReadTo: rows.get(peer.id)?.read_msg_id ?? 0 });
    await realtime.publish([sender.id], frame({ ...mine, contactInfo: contact(sender, peer) }), exceptClientId);
    return mine;
  }

  private async toGroup(
    row: MessageRow,
    chat: Extract<Chat, { kind: 'group' }>,
    sender: UserRow,
    exceptClientId?: string,
  ): Promise<Message | undefined> {
    const { realtime } = this.ctx;
    const members = await this.members.of(chat);
    const contactInfo = toGroupContact(chat.group, GroupRoles.Member, members.length);
    if (row.type === 'event') {
      // An event line says "you" to whom it names: presented for each member, loaded once.
      for (const { reader, message } of await this.hydrator.forReaders(row, members, {
        contactInfo,
        users: new Map([[sender.id, sender]]),
      })) {
        await realtime.publish(
          [reader.id],
          { type: 'group', data: message },
          reader.id === sender.id ? exceptClientId : undefined,
        );
      }
      return undefined;
    }
    // The sender's role and group nickname came with the chat; no quote needs another member's.
    const own =
      row.pid === 0 && chat.member.user_id === sender.id
        ? { members: new Map([[sender.id, { role: chat.member.role, nickname: chat.member.nickname }]]) }
        : {};
    const mine = await this.hydrator.present(row, sender, own);
    const data = { ...mine, contactInfo };
    const others = members.filter((id) => id !== sender.id);
    await realtime.publish(others, { type: 'group', data });
    this.tell(row, chat, sender, others);
    await realtime.publish([sender.id], { type: 'group', data }, exceptClientId);
    return mine;
  }
}
