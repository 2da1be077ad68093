import {
  GroupRoles,
  negotiateLocale,
  POLL_PUSH_INTERVAL_MS,
  POLL_VOTERS_LISTED_MAX,
  pollDeadlineMax,
  translate,
  type Message,
  type PollState,
  type PollVoter,
  type RouteInput,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import { contactIdOf, type Access, type Chat } from '../access';
import type { Session } from '../auth';
import type { KeywordScreen } from '../keywords';
import type { Hydrator } from './hydrate';
import type { PollRow, PollTally } from './polls-repo';
import { peopleNamed } from './people-named';
import { pollFacts } from './presenter';
import { pushToHolders } from './reactions';
import type { MessageRow } from './repo';
import { authorizeSend, type AuthorizeParts } from './send/authorize';
import type { SendPipeline } from './send/pipeline';
import { ThrottledPushes } from './throttled-pushes';

/** What PollService is built from. */
export type PollParts = AuthorizeParts & {
  repos: Pick<Repos, 'polls' | 'messages' | 'users' | 'friends' | 'groups'>;
  access: Pick<Access, 'message' | 'readers' | 'reaches' | 'requireWritable'>;
  keywords: Pick<KeywordScreen, 'name'>;
  realtime: Pick<Realtime, 'publish'>;
  log: FastifyBaseLogger;
  now: () => number;
};

/**
 * Polls (投票) in groups: started as a `poll` message through the send pipeline; members vote (one
 * option, or several on a multiple-choice poll; again to change, none to withdraw) until the
 * deadline or until the starter, the group's owner or an administrator closes it. Counts reach the
 * members as the `poll` push, at most one per poll per POLL_PUSH_INTERVAL_MS from each server. An
 * anonymous poll never tells anyone who voted for what.
 */
export class PollService {
  private readonly pushes: ThrottledPushes;

  constructor(
    private readonly ctx: PollParts,
    private readonly pipeline: Pick<SendPipeline, 'forwardTargets' | 'postComposed'>,
    private readonly hydrator: Pick<Hydrator, 'present'>,
  ) {
    this.pushes = new ThrottledPushes(POLL_PUSH_INTERVAL_MS, ctx.log, 'pollId');
  }

  /** Starts a poll in a group I may write to, as a message sendMessage's rules let me send; answers it as I see it. */
  async create(session: Session, body: RouteInput<'createPoll'>, socketClientId?: string): Promise<Message> {
    const existing = await this.ctx.repos.messages.bySender(session.userId, body.id);
    if (existing?.type === 'poll') return this.hydrator.present(existing, session.user);
    if (existing) throw new AppError('Validation', {}, { fields: ['id'] });
    const [chat] = await this.pipeline.forwardTargets(session, [body.toContactId]);
    if (chat?.kind !== 'group') throw new AppError('NotAllowedTarget');
    const now = this.ctx.now();
    if (body.deadline !== 0 && (body.deadline <= now || body.deadline > pollDeadlineMax(now)))
      throw new AppError('PollDeadline', {}, { fields: ['deadline'] });
    const question = this.ctx.keywords.name(body.question, 'question');
    const options = body.options.map((o) => this.ctx.keywords.name(o, 'options'));
    // Options that differed may read alike once a word in them is starred.
    if (new Set(options).size !== options.length) throw new AppError('Validation', {}, { fields: ['options'] });
    const poll: Omit<PollRow, 'id' | 'msg_id' | 'closed'> = {
      group_id: chat.group.id,
      creator: session.userId,
      question,
      options,
      multiple: body.multiple ? 1 : 0,
      anonymous: body.anonymous ? 1 : 0,
      deadline: body.deadline,
      create_time: now,
    };
    const pollId = await this.ctx.repos.polls.create(poll, body.id);
    const tally: PollTally = {
      poll: { ...poll, id: pollId, msg_id: 0, closed: 0 },
      counts: options.map(() => 0),
      voters: 0,
      mine: [],
    };
    const locale = negotiateLocale(session.user.language || undefined);
    const content = [translate(locale, 'preview.poll', { question }), ...options.map((o, i) => `${i + 1}. ${o}`)].join(
      '\n',
    );
    let row: MessageRow;
    try {
      ({ row } = await this.pipeline.postComposed(
        session,
        chat,
        { clientId: body.id, type: 'poll', content, extends: pollFacts(tally), at: [], pid: 0, fileId: 0 },
        socketClientId,
      ));
    } catch (err) {
      // No message under this id (a start at once may have stored one): the poll goes with the failure.
      if (!(await this.ctx.repos.messages.bySender(session.userId, body.id)))
        await this.ctx.repos.polls.dropUnsent(pollId);
      throw err;
    }
    // Named on a retry too: a start cut short after its message was stored is finished by the next.
    await this.ctx.repos.polls.attach(pollId, row.id);
    return this.hydrator.present(row, session.user);
  }

  /**
   * Replaces my choice (none withdraws it), as a member who may speak in the group, before the
   * deadline and the close; answers the poll as I now see it.
   */
  async vote(session: Session, body: RouteInput<'votePoll'>, socketClientId?: string): Promise<PollState> {
    const { row, chat, poll } = await this.pollOf(session, body.id);
    // The rules of sending to the group, its send interval too: a burst of votes is held back as messages are.
    await authorizeSend(this.ctx, session, chat);
    const options = [...new Set(body.options)].sort((a, b) => a - b);
    if (
      options.length !== body.options.length ||
      options.some((o) => o >= poll.options.length) ||
      (!poll.multiple && options.length > 1)
    )
      throw new AppError('PollChoice', {}, { fields: ['options'] });
    const outcome = await this.ctx.repos.polls.vote(poll.id, session.userId, options, this.ctx.now());
    // Refused with the poll as it stands, so that the voter's device shows it ended.
    if (outcome === 'closed') throw new AppError('PollClosed', {}, await this.stateFor(session.userId, row, poll.id));
    this.pushes.changed(poll.id, () => this.push(row, poll.id));
    const state = await this.stateFor(session.userId, row, poll.id);
    // My other devices learn my choice; no one else is ever told it.
    await this.ctx.realtime.publish(
      [session.userId],
      {
        type: 'poll',
        data: {
          toContactId: contactIdOf(row, row.from_user),
          msg_id: row.id,
          poll_id: poll.id,
          counts: state.counts,
          voters: state.voters,
          closed: state.closed,
          mine: state.mine,
        },
      },
      socketClientId,
    );
    return state;
  }

  /**
   * Closes a poll early: its starter, or the group's owner or an administrator; another member, who
   * sees the poll, is refused (Forbidden). Closing a closed poll changes nothing.
   */
  async close(session: Session, body: RouteInput<'closePoll'>): Promise<PollState> {
    const { row, chat, poll } = await this.pollOf(session, body.id);
    this.ctx.access.requireWritable(chat);
    const manages = chat.kind === 'group' && chat.member.role !== GroupRoles.Member;
    if (poll.creator !== session.userId && !manages) throw new AppError('Forbidden');
    if (await this.ctx.repos.polls.close(poll.id, this.ctx.now()))
      await this.pushes.now(poll.id, () => this.push(row, poll.id));
    return this.stateFor(session.userId, row, poll.id);
  }

  /** Who chose each option of a named poll, named as I see them; an anonymous poll's are never told. */
  async voters(session: Session, body: RouteInput<'pollVoters'>): Promise<PollVoter[]> {
    const { chat, poll } = await this.pollOf(session, body.id);
    if (poll.anonymous) throw new AppError('PollAnonymous');
    const rows = await this.ctx.repos.polls.voters(poll.id, body.option, POLL_VOTERS_LISTED_MAX);
    const named = await peopleNamed(this.ctx.repos, session.userId, chat, [...new Set(rows.map((r) => r.user_id))]);
    return rows.map((r) => ({ option: r.option, user_id: r.user_id, ...named.get(r.user_id)!, time: r.create_time }));
  }

  /** Stops the pushes waiting for their turn, and waits for one under way. */
  stop(): Promise<void> {
    return this.pushes.stop();
  }

  /** The counts as they stand, to the members who see the poll's message. */
  private async push(row: MessageRow, pollId: number): Promise<void> {
    const t = (await this.ctx.repos.polls.tallies([pollId], 0)).get(pollId);
    if (!t) return;
    await pushToHolders(this.ctx, row, (toContactId) => ({
      type: 'poll',
      data: { toContactId, msg_id: row.id, poll_id: pollId, counts: t.counts, voters: t.voters, closed: t.poll.closed },
    }));
  }

  /** A poll's message I can see now (a member of its group still), and its poll; anything else is a missing message. */
  private async pollOf(
    session: Session,
    ref: number | string,
  ): Promise<{ row: MessageRow; chat: Extract<Chat, { kind: 'group' }>; poll: PollRow }> {
    const { row, chat } = await this.ctx.access.message(session, ref);
    const pollId = Number(parseJson(row.extends).poll_id);
    const poll = row.type === 'poll' && !row.is_undo ? await this.ctx.repos.polls.byId(pollId) : undefined;
    if (!poll || chat.kind !== 'group' || poll.group_id !== chat.group.id) throw new AppError('MessageNotFound');
    return { row, chat, poll };
  }

  private async stateFor(userId: number, row: MessageRow, pollId: number): Promise<PollState> {
    const t = (await this.ctx.repos.polls.tallies([pollId], userId)).get(pollId);
    if (!t) throw new AppError('MessageNotFound');
    return {
      msg_id: row.id,
      poll_id: pollId,
      counts: t.counts,
      voters: t.voters,
      closed: t.poll.closed,
      deadline: t.poll.deadline,
      mine: t.mine,
    };
  }
}
