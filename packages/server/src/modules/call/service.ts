import {
  CallCodes,
  isMessageOf,
  type CallCode,
  type IceConfig,
  type Message,
  type MessageOf,
  type RouteInput,
  needsFriendship,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { atMostEvery } from '../../lib/at-most';
import type { CallRecord, CallStore } from '../../realtime/call-store';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Access } from '../access';
import type { Session } from '../auth';
import { parseJson } from '../../lib/text';
import { requireUnmuted } from '../report';
import { callText, fromUserOf, type Hydrator, type MessageRow, type SendPipeline } from '../im';
import type { ConfigService } from '../system';
import type { UserRow } from '../user';
import { iceConfig } from './ice';
import { outcomeOf } from './outcome';

type SignalBody = RouteInput<'sendToMsg'>;
type CallMessage = MessageOf<'webrtc'>;
/** What a call's message records in `extends` (docs/protocol.md §2 Message, §5). */
type CallExtends = CallMessage['extends'] & { code: CallCode };

/**
 * How early in the last second of the ring time a caller's cancel still counts as nobody answering:
 * the caller's timer starts when the call is placed, a moment after the server's.
 */
const RING_SLACK_MS = 1_000;

/** A presented message that must be a call's. */
function asCall(message: Message): CallMessage {
  if (!isMessageOf(message, 'webrtc')) throw new AppError('CallNotFound');
  return message;
}

/**
 * The text stored with a call's message, for clients that show `content` as it is: the summary as
 * the caller reads it in Chinese (each reader is told in their own words when it is presented).
 */
const storedText = (ext: CallExtends, callerId: number) =>
  callText(ext, { userId: callerId, locale: 'zh-Hans' }, callerId);

/** What CallService is built from. */
export interface CallParts {
  env: ServerConfig;
  repos: Pick<Repos, 'messages' | 'conversations' | 'users'>;
  access: Pick<Access, 'chat' | 'reaches'>;
  config: ConfigService;
  realtime: Realtime;
  log: FastifyBaseLogger;
  now: () => number;
}

/**
 * One-to-one audio and video calls (docs/protocol.md §5): signalling relayed between the two parties, one
 * stored `webrtc` message per call updated with its outcome, and a lock per user while a call
 * lives, so that a third caller hears "busy" on any node.
 */
export class CallService {
  private timer: NodeJS.Timeout | undefined;
  /**
   * Each call's two parties, read once per call on this node for the relays; dropped when the call
   * ends here, or by the next sweep when another node ended it.
   */
  private readonly parties = new Map<string, { caller: UserRow; callee: UserRow; message: CallMessage }>();

  constructor(
    private readonly ctx: CallParts,
    private readonly pipeline: SendPipeline,
    private readonly hydrator: Hydrator,
    private readonly store: CallStore,
  ) {}

  /** How many calls' parties this node holds (the sweep keeps only live calls'). */
  get partiesHeld(): number {
    return this.parties.size;
  }

  /** STUN and TURN servers for the caller (iceServers). */
  iceServers(session: Session): IceConfig {
    return iceConfig(this.ctx.env, this.ctx.config.get().chatInfo.stun, session.userId, this.ctx.now());
  }

  /** sendToMsg: one signal of a call. */
  async signal(session: Session, body: SignalBody, socketClientId?: string): Promise<Message> {
    if (body.event === 'calling') return this.call(session, body, socketClientId);
    const call = await this.find(session.userId, body);
    switch (body.event) {
      case 'acceptRtc':
        return this.accept(session, call, socketClientId);
      case 'offer':
      case 'answer':
      case 'iceCandidate':
      case 'camera':
        return this.relay(session, call, body);
      case 'busy':
        return this.end(call, CallCodes.Busy, session.userId, socketClientId);
      case 'hangup': {
        const role = session.userId === call.callerId ? 'caller' : 'callee';
        return this.end(call, outcomeOf(role, call.state, body.code), session.userId, socketClientId);
      }
    }
  }

  /** `calling`: rings the callee, or answers busy (907) when they are offline or in a call. */
  private async call(session: Session, body: SignalBody, socketClientId?: string): Promise<Message> {
    const { messages } = this.ctx.repos;
    // A retried `calling` finds the call it placed, as it now stands.
    const placed = await messages.bySender(session.userId, body.id);
    if (placed) return this.hydrator.present(placed, session.user);
    if (body.toContactId === session.userId) throw new AppError('CallSelf', {}, { fields: ['toContactId'] });
    // Muted server-wide: no calls either (answering one is still allowed).
    requireUnmuted(session.user, this.ctx.now());
    const chat = await this.ctx.access.chat(session, body.toContactId);
    if (chat.kind !== 'private') throw new AppError('NotAllowedTarget');
    const { chatInfo, sysInfo } = this.ctx.config.get();
    if (chatInfo.webrtc !== 1) throw new AppError('CallsDisabled');
    if (chat.peer.status !== 1) throw new AppError('UserNotFound');
    // Someone who blocked the caller is answered as a non-friend, in either runMode.
    if (!(await this.ctx.access.reaches(session.userId, chat.peer.id, needsFriendship(sysInfo.runMode))))
      throw new AppError('NotFriends');

    const now = this.ctx.now();
    const type = body.type === 1 ? 1 : 0;
    const ext: CallExtends = {
      type,
      status: 3,
      event: 'calling',
      code: CallCodes.Calling,
      callTime: 0,
      isMobile: session.isMobile,
    };
    const record: CallRecord = {
      id: body.id,
      callerId: session.userId,
      calleeId: chat.peer.id,
      type,
      state: 'ringing',
      createdAt: now,
      expiresAt: now + this.ctx.env.calls.lockTtlMs,
      callerSession: session.id,
    };
    const reachable = await this.ctx.realtime.reachable([chat.peer.id]);
    if (!reachable.has(chat.peer.id) || (await this.store.begin(record, now)) === 'busy') {
      const busy = { ...ext, event: 'busy', code: CallCodes.Busy };
      const { row, message } = await this.pipeline.postCall(
        session.user,
        chat.peer,
        { clientId: body.id, content: storedText(busy, session.userId), extends: { ...busy } },
        'simple',
        socketClientId,
      );
      return message ?? this.hydrator.present(row, session.user);
    }
    try {
      const { row, message } = await this.pipeline.postCall(
        session.user,
        chat.peer,
        { clientId: body.id, content: storedText(ext, session.userId), extends: { ...ext } },
        'webrtc',
        socketClientId,
      );
      return message ?? this.hydrator.present(row, session.user);
    } catch (err) {
      await this.store.take(record);
      throw err;
    }
  }

  /**
   * The live call a signal names: the caller names their own call, the callee the call placed to
   * them. Anything else, a third person's signal included, reads as a call that has ended.
   */
  private async find(userId: number, body: SignalBody): Promise<CallRecord> {
    const asCaller = await this.store.get(userId, body.id);
    if (asCaller && asCaller.calleeId === body.toContactId) return asCaller;
    const asCallee = await this.store.get(body.toContactId, body.id);
    if (asCallee && asCallee.calleeId === userId) return asCallee;
    throw new AppError('CallNotFound');
  }

  /** `acceptRtc`: the callee answers; their other devices stop ringing. */
  private async accept(session: Session, call: CallRecord, socketClientId?: string): Promise<Message> {
    if (session.userId !== call.calleeId) throw new AppError('CallNotFound');
    const now = this.ctx.now();
    const accepted: CallRecord = {
      ...call,
      state: 'accepted',
      acceptedAt: now,
      calleeSession: session.id,
      expiresAt: now + this.ctx.env.calls.lockTtlMs,
    };
    // Two devices answering at once: the second finds the call no longer ringing.
    if (!(await this.store.update(accepted, 'ringing'))) throw new AppError('CallNotFound');
    const row = await this.messageOf(call);
    if (row) await this.ctx.repos.conversations.unreadDown(call.calleeId, row.chat_key, row.id);
    const { caller, callee, message } = await this.partiesOf(call);
    const signal = this.signalled(message, callee, { event: 'acceptRtc', code: CallCodes.Accepted });
    await this.ctx.realtime.publish([caller.id], { type: 'webrtc', data: signal });
    await this.ctx.realtime.publish(
      [callee.id],
      { type: 'webrtc', data: { ...signal, extends: { ...signal.extends, event: 'otherOpt' } } },
      socketClientId,
    );
    return signal;
  }

  /** `offer`, `answer`, `iceCandidate`, `camera`: passed to the other party as they came, once the call is answered. */
  private async relay(session: Session, call: CallRecord, body: SignalBody): Promise<Message> {
    if (call.state !== 'accepted') throw new AppError('CallNotFound');
    if (body.event === 'camera' && body.camera === undefined)
      throw new AppError('Validation', {}, { fields: ['camera'] });
    const { caller, callee, message } = await this.partiesOf(call);
    const [from, to] = session.userId === caller.id ? [caller, callee] : [callee, caller];
    const signal = this.signalled(message, from, {
      event: body.event,
      ...(body.sdp !== undefined && { sdp: body.sdp }),
      ...(body.iceCandidate !== undefined && { iceCandidate: body.iceCandidate }),
      ...(body.camera !== undefined && body.event === 'camera' && { camera: body.camera === 0 ? 0 : 1 }),
    });
    await this.ctx.realtime.publish([to.id], { type: 'webrtc', data: signal });
    return signal;
  }

  /**
   * Ends a call with an outcome: the locks are released, the stored message tells of the outcome,
   * the other party hears it and the actor's other devices stop. `actorId` 0 is the server itself
   * (time-out, a party gone), which tells both.
   */
  private async end(call: CallRecord, code: CallCode, actorId: number, socketClientId?: string): Promise<Message> {
    const taken = await this.store.take(call);
    if (!taken) throw new AppError('CallNotFound');
    const parties = await this.partiesOf(taken);
    this.parties.delete(`${taken.callerId}:${taken.id}`);
    const now = this.ctx.now();
    const callTime = code === CallCodes.Ended && taken.acceptedAt ? Math.round((now - taken.acceptedAt) / 1000) : 0;
    const row = await this.messageOf(taken);
    if (!row) throw new AppError('CallNotFound');
    // A cancel at the end of the ring time is the caller's phone giving up: nobody answered.
    const unanswered =
      code === CallCodes.Cancelled && now - taken.createdAt >= this.ctx.env.calls.ringTimeoutMs - RING_SLACK_MS;
    const ext: CallExtends = {
      ...(parseJson(row.extends) as unknown as CallExtends),
      event: 'hangup',
      code,
      callTime,
      ...(unanswered && { unanswered: 1 as const }),
    };
    // Refused by the callee: they saw it, so it no longer waits unread.
    if (code === CallCodes.Refused && taken.state === 'ringing')
      await this.ctx.repos.conversations.unreadDown(taken.calleeId, row.chat_key, row.id);
    const event = code === CallCodes.Busy ? 'busy' : 'hangup';
    const actor = actorId === taken.calleeId ? parties.callee : parties.caller;
    // The outcome is written and told through the pipeline, as every message is.
    const answer = await this.pipeline.postCallOutcome(
      row,
      { content: storedText(ext, taken.callerId), extends: ext },
      { readerIds: [taken.callerId, taken.calleeId], actorId, exceptClientId: socketClientId },
      (message) => this.signalled(asCall(message), actor, { event, code, callTime }),
    );
    return answer ?? this.signalled(parties.message, parties.caller, { event, code, callTime });
  }

  /** A call's message as a signal from `from`, with the signal's fields in `extends`. */
  private signalled(message: CallMessage, from: UserRow, fields: Partial<CallMessage['extends']>): CallMessage {
    const { contactInfo: _contact, ...rest } = message;
    return { ...rest, fromUser: fromUserOf(from, from.id), extends: { ...message.extends, ...fields } };
  }

  /** The stored message of a call: the caller's message under the call's id. */
  private messageOf(call: Pick<CallRecord, 'callerId' | 'id'>): Promise<MessageRow | undefined> {
    return this.ctx.repos.messages.bySender(call.callerId, call.id);
  }

  /** The two parties and the call's message, read once per call on this node. */
  private async partiesOf(call: CallRecord) {
    const key = `${call.callerId}:${call.id}`;
    let known = this.parties.get(key);
    if (!known) {
      const users = await this.ctx.repos.users.byIds([call.callerId, call.calleeId]);
      const row = await this.messageOf(call);
      const caller = users.get(call.callerId);
      const callee = users.get(call.calleeId);
      if (!caller || !callee || !row) throw new AppError('CallNotFound');
      known = { caller, callee, message: asCall(await this.hydrator.present(row, caller)) };
      this.parties.set(key, known);
    }
    return known;
  }

  /**
   * Ends what no signal will: calls ringing past the time-out (902), calls whose party has had no
   * socket anywhere for `peerGoneMs` (906 once answered, else 902); renews the locks of the others.
   * Runs on every node; ending is atomic, so two nodes ending one call tell of it once.
   */
  async sweep(): Promise<void> {
    const { ringTimeoutMs, peerGoneMs, lockTtlMs } = this.ctx.env.calls;
    const now = this.ctx.now();
    // A call another node ended leaves its parties here: kept only while the call lives. Only
    // entries held before the store was read are judged, so a call begun meanwhile keeps its own.
    const held = [...this.parties.keys()];
    const live = await this.store.live();
    const living = new Set(live.map((call) => `${call.callerId}:${call.id}`));
    for (const key of held) if (!living.has(key)) this.parties.delete(key);
    for (const call of live) {
      try {
        if (call.state === 'ringing' && now - call.createdAt >= ringTimeoutMs) {
          await this.end(call, CallCodes.Cancelled, 0);
          continue;
        }
        const here = await this.ctx.realtime.reachable([call.callerId, call.calleeId]);
        const bothHere = here.has(call.callerId) && here.has(call.calleeId);
        if (!bothHere && call.goneSince !== undefined && now - call.goneSince >= peerGoneMs) {
          await this.end(call, call.state === 'accepted' ? CallCodes.Ended : CallCodes.Cancelled, 0);
          continue;
        }
        if (now >= call.expiresAt && !bothHere) {
          await this.end(call, call.state === 'accepted' ? CallCodes.Ended : CallCodes.Cancelled, 0);
          continue;
        }
        const goneSince = bothHere ? undefined : (call.goneSince ?? now);
        await this.store.update({ ...call, goneSince, expiresAt: now + lockTtlMs }, call.state);
      } catch (err) {
        if (!(err instanceof AppError && err.name === 'CallNotFound'))
          this.ctx.log.warn({ err, call: call.id }, 'call sweep failed');
      }
    }
  }

  /** Ends any call between two users (their friendship ended, or one blocked the other). */
  async endBetween(a: number, b: number): Promise<void> {
    // The friendship has ended whatever the call store says; a call it could not end is swept later.
    const live = await this.store.live().catch((err: unknown) => {
      this.ctx.log.warn({ err }, 'could not end the calls of two people who are no longer friends');
      return [];
    });
    for (const call of live) {
      const pair = [call.callerId, call.calleeId];
      if (!pair.includes(a) || !pair.includes(b)) continue;
      await this.end(call, call.state === 'accepted' ? CallCodes.Ended : CallCodes.Cancelled, 0).catch(() => undefined);
    }
  }

  start(): void {
    // The call store may be out of reach (Redis down): the sweep tries again next time, said once a minute.
    const failed = atMostEvery(60_000, this.ctx.now, (err: unknown) =>
      this.ctx.log.warn({ err }, 'call sweep failed; calls are swept again once the call store answers'),
    );
    this.timer = setInterval(() => void this.sweep().catch(failed), this.ctx.env.calls.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.store.close();
  }
}
