import { graphemeLength, TEXT_MESSAGE_MAX } from '@sparrow/protocol';
import { randomUUID } from 'node:crypto';
import type { Message, MessageOf, RouteInput } from '@sparrow/protocol';
import type { ServerConfig } from '../../../config';
import { AppError } from '../../../errors';
import type { Access, Chat } from '../../access';
import type { Session } from '../../auth';
import { groupKey, memberless } from '../../group';
import type { HeldRow } from '../../keywords';
import type { UserRow } from '../../user';
import type { Hydrator } from '../hydrate';
import type { EventPort, EventTarget, MessageSender, PostedLine } from '../../events';
import { parseJson } from '../../../lib/text';
import type { Repos } from '../../../repos';
import { ChatType, pairKey, type MessageRow } from '../repo';
import { authorizeSend, type AuthorizeParts } from './authorize';
import { draftMessage, type Draft, type DraftBody, type DraftParts } from './draft';

export type { DraftBody } from './draft';
import { FanOut, type FanOutParts, type PublishedListener } from './fanout';
import { heldChat, holdMessage, type HoldParts } from './hold';
import { MemberLists } from './members';
import { Outbox, type OutboxParts } from './outbox';
import { amendMessage, storeMessage, type StoreParts } from './store';

/** What the pipeline is built from: what each step reads, and what it reads itself. */
export type PipelineParts = AuthorizeParts &
  DraftParts &
  StoreParts &
  OutboxParts &
  HoldParts &
  FanOutParts & {
    env: Pick<ServerConfig, 'outboxSweepMs'>;
    repos: Pick<Repos, 'messages' | 'users' | 'groups'>;
    access: Pick<Access, 'chat' | 'message' | 'requireWritable'>;
  };

/**
 * Sending, as a pipeline: resolve the chat → authorize → draft → store → fan out. sendMessage,
 * forwarding, the lines other modules post (friend notices to `system` included, which are only
 * fanned out) and a call's message and its outcome all take it, skipping only the steps that do
 * not apply (a posted line has been checked by the module that tells of it).
 */
export class SendPipeline implements EventPort, MessageSender {
  private readonly members: MemberLists;
  private readonly fanOut: FanOut;
  private readonly outbox: Outbox;

  constructor(
    private readonly ctx: PipelineParts,
    private readonly hydrator: Hydrator,
  ) {
    this.members = new MemberLists(ctx.repos);
    this.fanOut = new FanOut(ctx, hydrator, this.members);
    this.outbox = new Outbox(ctx);
  }

  /** Starts the sweep that pushes messages stored and never pushed (see `Outbox`). */
  start(): void {
    this.outbox.start((row) => this.pushStored(row).then(() => undefined), this.ctx.env.outboxSweepMs);
  }

  /** Pushes every message whose push is overdue now; answers how many. */
  sweepUnpublished(): Promise<number> {
    return this.outbox.sweep((row) => this.pushStored(row).then(() => undefined));
  }

  /** Waits until the outbox has forgotten every message already pushed. */
  settle(): Promise<void> {
    return this.outbox.settle();
  }

  async stop(): Promise<void> {
    await this.outbox.stop();
  }

  /** Tells `listener` of each message fanned out, whoever sent it (Web Push listens). */
  onPublished(listener: PublishedListener): void {
    this.fanOut.onPublished(listener);
  }

  /** sendMessage: idempotent on (sender, id); commit, then publish. */
  async send(session: Session, body: RouteInput<'sendMessage'>, socketClientId?: string): Promise<Message> {
    // A retry answers the stored message before any rule or limit sees it: the rules may refuse
    // it now (muted since), and a retry must not use up the sender's rate limit.
    const existing = await this.ctx.repos.messages.bySender(session.userId, body.id);
    if (existing) return this.retried(existing, session.user, socketClientId);
    const chat = await this.ctx.access.chat(session, body.toContactId);
    await authorizeSend(this.ctx, session, chat);
    const draft = await draftMessage(this.ctx, this.members, session, chat, body);
    if (draft.held) return holdMessage(this.ctx, this.hydrator, session, chat, draft);
    const stored = await storeMessage(this.ctx, this.members, this.outbox, session.userId, chat, draft);
    if (!stored.fresh) return this.retried(stored.row, session.user, socketClientId);
    const mine = await this.fanOut.publish(stored.row, chat, session.user, socketClientId, stored.sides);
    this.outbox.published(stored.row.id);
    return mine ?? this.hydrator.present(stored.row, session.user);
  }

  /**
   * A retry's answer: the stored message, pushed now if its own fan-out never ran to the end (it
   * threw, or its process died), so that a message the sender holds as sent reaches its chat.
   */
  private async retried(row: MessageRow, sender: UserRow, socketClientId?: string): Promise<Message> {
    if (await this.outbox.unpublished(row)) {
      const mine = await this.pushStored(row, socketClientId);
      this.outbox.published(row.id);
      if (mine) return mine;
    }
    return this.hydrator.present(row, sender);
  }

  /** Fans a stored message out again, its chat read back from the row; nothing when the chat is gone. */
  private async pushStored(row: MessageRow, exceptClientId?: string): Promise<Message | undefined> {
    // Deleted meanwhile: its deletion has told the chat already. (A call's message goes out as
    // `simple`: by the time a sweep finds it, the call has long stopped ringing.)
    if (row.is_deleted) return undefined;
    const { users, groups } = this.ctx.repos;
    const sender = await users.byId(row.from_user);
    if (!sender) return undefined;
    if (row.chat_type === ChatType.Group) {
      // A disbanded group's last line (who disbanded it) still reaches its members.
      const group = (await groups.byId(row.to_id)) ?? (await groups.disbanded(row.to_id));
      if (!group) return undefined;
      const member = (await groups.member(group.id, sender.id)) ?? memberless(group.id);
      return this.fanOut.publish(row, { kind: 'group', chatKey: row.chat_key, group, member }, sender, exceptClientId);
    }
    if (row.chat_type === ChatType.Private) {
      const peer = await users.byId(row.to_id);
      if (!peer) return undefined;
      return this.fanOut.publish(row, { kind: 'private', chatKey: row.chat_key, peer }, sender, exceptClientId);
    }
    return this.fanOut.publish(row, { kind: 'self', chatKey: row.chat_key }, sender, exceptClientId);
  }

  /**
   * Delivers a held message an operator approved (modules/keywords/review.ts): stored under its
   * client id and fanned out as sendMessage would have, its sender's devices included, so that the
   * copy they hold as 审核中 becomes the stored message. False when its chat is gone or the rules
   * of sending refuse it now (blocked, muted, no longer friends since it was held), its rate limit
   * aside.
   */
  async deliverHeld(row: HeldRow): Promise<boolean> {
    const held = await heldChat(this.ctx, row);
    if (!held) return false;
    const session: Session = { id: 0, userId: held.sender.id, isMobile: false, user: held.sender };
    try {
      await authorizeSend(this.ctx, session, held.chat, false);
    } catch (err) {
      if (err instanceof AppError) return false;
      throw err;
    }
    await this.post(held.sender, held.chat, held.draft);
    return true;
  }

  /** Forwards a message I can see to 1–5 users or groups; every copy obeys the rules of sendMessage. */
  async forward(session: Session, body: RouteInput<'forwardMessage'>): Promise<void> {
    const { row } = await this.ctx.access.message(session, body.msg_id);
    if (!forwardable(row)) throw new AppError('NotAllowedTarget');
    await this.forwardTo(session, await this.forwardTargets(session, body.user_ids), [copyOf(row)]);
  }

  /**
   * The 1–5 chats a forward goes to, each resolved and authorized as sendMessage does, before
   * anything is stored: one refused refuses the forward.
   */
  async forwardTargets(session: Session, userIds: ReadonlyArray<string | number>): Promise<Chat[]> {
    const chats: Chat[] = [];
    for (const to of new Set(userIds.map(String))) {
      const chat = await this.ctx.access.chat(session, /^-?\d+$/.test(to) ? Number(to) : to);
      await authorizeSend(this.ctx, session, chat);
      chats.push(chat);
    }
    return chats;
  }

  /** Stores and pushes `drafts` in their order to each of `chats` (from forwardTargets), each copy with an id of its own. */
  async forwardTo(session: Session, chats: readonly Chat[], drafts: readonly ForwardDraft[]): Promise<void> {
    for (const chat of chats)
      for (const draft of drafts) await this.post(session.user, chat, { clientId: randomUUID(), ...draft });
  }

  async postEvent(target: EventTarget, posted: PostedLine): Promise<void> {
    await this.postLine(target, posted);
  }

  /** Posts a module's line as postEvent does; answers the stored message (undefined for a `system` notice, never stored). */
  async postLine(target: EventTarget, posted: PostedLine): Promise<MessageRow | undefined> {
    if (target.kind === 'system') {
      const line = posted.type === 'event' ? posted.line : undefined;
      if (line?.event !== 'friendRequest' && line?.event !== 'friendAccepted')
        throw new Error('only friend notices go to the system conversation');
      // Nothing to store: the system conversation is read off the friend requests. Fan out alone.
      await this.fanOut.toSystem(target.recipient, line);
      return undefined;
    }
    if (target.kind === 'private') {
      const { from, to } = target;
      return this.post(
        from,
        { kind: 'private', chatKey: pairKey(from.id, to.id), peer: to },
        {
          clientId: randomUUID(),
          type: posted.type,
          content: posted.content,
          extends: posted.type === 'event' ? posted.line : {},
          at: [],
          pid: 0,
          fileId: 0,
        },
      );
    }
    const { group, member, actor } = target;
    return this.post(
      actor,
      { kind: 'group', chatKey: groupKey(group.id), group, member },
      {
        clientId: randomUUID(),
        type: posted.type,
        content: posted.content,
        extends: posted.type === 'event' ? posted.line : 'extends' in posted ? posted.extends : {},
        at: posted.type === 'event' || !('at' in posted) ? [] : posted.at,
        pid: 0,
        fileId: 0,
      },
    );
  }

  /**
   * Stores the message that tells of a call in the private chat of its two parties (once per call
   * id: a retried `calling` finds it) and pushes it to both as `push`.
   */
  async postCall(
    caller: UserRow,
    peer: UserRow,
    call: { clientId: string; content: string; extends: Record<string, unknown> },
    push: 'simple' | 'webrtc',
    exceptClientId?: string,
  ): Promise<{ row: MessageRow; message: Message | undefined }> {
    const chat: Chat = { kind: 'private', chatKey: pairKey(caller.id, peer.id), peer };
    const draft = { ...call, type: 'webrtc', at: [], pid: 0, fileId: 0 };
    const stored = await storeMessage(this.ctx, this.members, this.outbox, caller.id, chat, draft);
    if (!stored.fresh) return { row: stored.row, message: undefined };
    const message = await this.fanOut.publish(stored.row, chat, caller, exceptClientId, stored.sides, push);
    this.outbox.published(stored.row.id);
    return { row: stored.row, message };
  }

  /**
   * Rewrites a call's stored message with its outcome (store) and pushes it to the parties named
   * in `to` as `webrtc` (fan out), each one's copy made by `signal` into the signal they hear; the
   * actor's own devices hear it as `otherOpt`, but for the socket that acted. Answers the actor's
   * signal (undefined when the server ended the call).
   */
  async postCallOutcome(
    row: MessageRow,
    outcome: Pick<Draft, 'content' | 'extends'>,
    to: { readerIds: readonly number[]; actorId: number; exceptClientId?: string | undefined },
    signal: (message: Message) => MessageOf<'webrtc'>,
  ): Promise<MessageOf<'webrtc'> | undefined> {
    const amended = await amendMessage(this.ctx, row, outcome);
    return this.fanOut.callOutcome(amended, to, signal);
  }

  /**
   * Sends a message another module composed (a poll) to a chat `forwardTargets` resolved and
   * authorized, under the caller's client id: store → fan out, the caller's own socket skipped.
   * Answers the stored row; `fresh` false when that id was stored before (nothing sent again).
   */
  async postComposed(
    session: Session,
    chat: Chat,
    draft: Draft,
    socketClientId?: string,
  ): Promise<{ row: MessageRow; fresh: boolean }> {
    const stored = await storeMessage(this.ctx, this.members, this.outbox, session.userId, chat, draft);
    if (!stored.fresh) return { row: stored.row, fresh: false };
    await this.fanOut.publish(stored.row, chat, session.user, socketClientId, stored.sides);
    this.outbox.published(stored.row.id);
    return { row: stored.row, fresh: true };
  }

  /**
   * Sends a message of an account that is no member of the group it posts into (a group's robot,
   * modules/robot): idempotent on (sender, id) as sendMessage, asked before `compose` runs (what a
   * message costs to make, an image stored, a rate limit counted, is spent once); into a group
   * that lives; drafted as sendMessage drafts (mentions, the keyword lists), `facts` added to its
   * `extends`. A text a review list would hold is refused as a refused word is: no one would see
   * it held for them.
   */
  async postAs(
    session: Session,
    chat: Extract<Chat, { kind: 'group' }>,
    id: string,
    compose: () => Promise<Omit<DraftBody, 'id'>>,
    facts: Record<string, unknown> = {},
  ): Promise<{ row: MessageRow; fresh: boolean }> {
    const existing = await this.ctx.repos.messages.bySender(session.userId, id);
    if (existing) {
      await this.retried(existing, session.user);
      return { row: existing, fresh: false };
    }
    this.ctx.access.requireWritable(chat);
    const draft = await draftMessage(this.ctx, this.members, session, chat, { ...(await compose()), id });
    if (draft.held) throw new AppError('KeywordRefused');
    return this.postComposed(session, chat, { ...draft, extends: { ...draft.extends, ...facts } });
  }

  /** Store → fan out, for a draft the caller has checked; answers the stored message. */
  private async post(sender: UserRow, chat: Chat, draft: Draft): Promise<MessageRow> {
    const stored = await storeMessage(this.ctx, this.members, this.outbox, sender.id, chat, draft);
    await this.fanOut.publish(stored.row, chat, sender, undefined, stored.sides);
    this.outbox.published(stored.row.id);
    return stored.row;
  }
}

/** A message a forward sends: a copy, a merged record, a note; its id is made per chat. */
export type ForwardDraft = Omit<Draft, 'clientId'>;

/** Whether a stored message may be forwarded: not an event line, not a call. */
export function forwardable(row: MessageRow): boolean {
  return row.type !== 'event' && row.type !== 'webrtc';
}

/**
 * A stored message as a forward sends it again: its content and facts, without its quote or
 * mentions. A chain (接龙) goes as the text of its lines as they are: its lines are its group's.
 */
export function copyOf(row: MessageRow): ForwardDraft {
  if (row.type === 'chain')
    return { type: 'text', content: cutLines(row.content, TEXT_MESSAGE_MAX), extends: {}, at: [], pid: 0, fileId: 0 };
  // A poll goes as the text of its question and options: its votes are its group's.
  if (row.type === 'poll') return { type: 'text', content: row.content, extends: {}, at: [], pid: 0, fileId: 0 };
  const { quote: _quote, ...ext } = parseJson(row.extends);
  return { type: row.type, content: row.content, extends: ext, at: [], pid: 0, fileId: row.file_id };
}

/**
 * `text` cut to `max` characters (graphemes), as a text message may hold: whole lines, then a line
 * "…" (a first line longer than that is cut itself).
 */
export function cutLines(text: string, max: number): string {
  if (graphemeLength(text, max + 1) <= max) return text;
  const kept: string[] = [];
  let length = 0;
  for (const line of text.split('\n')) {
    const next = length + (kept.length ? 1 : 0) + graphemeLength(line);
    if (next + 2 > max) break;
    kept.push(line);
    length = next;
  }
  if (kept.length) return `${kept.join('\n')}\n…`;
  const segments = [...new Intl.Segmenter().segment(text)].slice(0, max - 1).map((s) => s.segment);
  return `${segments.join('')}…`;
}
