import {
  CHAIN_ENTRIES_MAX,
  CHAIN_PUSH_INTERVAL_MS,
  chainText,
  DEFAULT_LOCALE,
  GroupRoles,
  translate,
  type ChainFacts,
  type ChainState,
  type Message,
  type RouteInput,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors';
import { parseJson } from '../../lib/text';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Access, Chat } from '../access';
import type { Session } from '../auth';
import type { MemberRow, GroupRow } from '../group';
import type { KeywordScreen } from '../keywords';
import type { ChainAt, ChainOutcome } from './chains-repo';
import type { Hydrator } from './hydrate';
import { pushToHolders } from './reactions';
import type { MessageRow } from './repo';
import { authorizeSend, type AuthorizeParts } from './send/authorize';
import type { SendPipeline } from './send/pipeline';
import { ThrottledPushes } from './throttled-pushes';

/** What ChainService is built from. */
export interface ChainParts extends AuthorizeParts {
  repos: Pick<Repos, 'chains' | 'messages'>;
  access: Pick<Access, 'chat' | 'message' | 'readers' | 'requireWritable' | 'reaches'>;
  keywords: Pick<KeywordScreen, 'name' | 'content'>;
  realtime: Pick<Realtime, 'publish'>;
  log: FastifyBaseLogger;
  now: () => number;
}

/** A chain's message I can see, in a group I am in. */
interface Found {
  row: MessageRow;
  group: GroupRow;
  member: MemberRow;
  chainId: number;
}

/**
 * Group sign-up chains (接龙): a `chain` message in a group, its members each adding one line,
 * numbered in the order they were added, until its starter (or the group's owner or an
 * administrator) closes it. The message is stored and pushed as any message is; every change
 * after reaches the members who see it as a `chain` push of the whole chain as it then is, at most
 * one per chain per CHAIN_PUSH_INTERVAL_MS from each server (a close at once). Titles, examples and
 * lines are screened as names and messages are; adding or taking back a line counts as a send.
 */
export class ChainService {
  private readonly pushes: ThrottledPushes;

  constructor(
    private readonly ctx: ChainParts,
    private readonly hydrator: Pick<Hydrator, 'present'>,
    private readonly pipeline: Pick<SendPipeline, 'forwardTargets' | 'postComposed'>,
  ) {
    this.pushes = new ThrottledPushes(CHAIN_PUSH_INTERVAL_MS, ctx.log, 'chainId');
  }

  /**
   * Starts a chain in a group I may send to, as a message sendMessage's rules let me send, under the
   * client-made `id`: a retry answers the message the first call stored. Its message, as I see it.
   */
  async start(session: Session, body: RouteInput<'chainStart'>, socketClientId?: string): Promise<Message> {
    const existing = await this.ctx.repos.messages.bySender(session.userId, body.id);
    if (existing?.type === 'chain') return this.hydrator.present(existing, session.user);
    if (existing) throw new AppError('Validation', {}, { fields: ['id'] });
    const [chat] = await this.pipeline.forwardTargets(session, [body.toContactId]);
    if (chat?.kind !== 'group') throw new AppError('NotAllowedTarget');
    const title = this.ctx.keywords.name(body.title, 'title');
    const example = body.example ? this.ctx.keywords.name(body.example, 'example') : '';
    const chainId = await this.ctx.repos.chains.create(
      { groupId: chat.group.id, creator: session.userId, clientId: body.id, title, example },
      this.ctx.now(),
    );
    const facts: ChainFacts = {
      chain_id: chainId,
      title,
      ...(example && { example }),
      entries: [],
      closed: 0,
      creator: session.userId,
      rev: 0,
    };
    const { row } = await this.pipeline.postComposed(
      session,
      chat,
      {
        clientId: body.id,
        type: 'chain',
        content: chainText(facts, translate(DEFAULT_LOCALE, 'chain.head')),
        extends: facts,
        at: [],
        pid: 0,
        fileId: 0,
      },
      socketClientId,
    );
    // Named on a retry too: a start cut short after its message was stored is finished by the next.
    await this.ctx.repos.chains.setMessage(chainId, row.id);
    return this.hydrator.present(row, session.user);
  }

  /** Adds my line, or changes mine: as a member who may send to the group now. */
  async join(session: Session, body: RouteInput<'chainJoin'>): Promise<ChainState> {
    const found = await this.found(session, body.id);
    await this.mayWrite(session, found);
    const name = found.member.nickname || session.user.realname;
    // A line is a message's words: a review list refuses it, as it refuses an edit.
    const screened = this.ctx.keywords.content(body.text);
    if (screened.held) throw new AppError('KeywordRefused');
    const outcome = await this.ctx.repos.chains.join(
      this.at(found),
      { userId: session.userId, name, text: screened.text },
      CHAIN_ENTRIES_MAX,
      this.ctx.now(),
    );
    return this.told(found, outcome);
  }

  /** Takes my line back. */
  async withdraw(session: Session, body: RouteInput<'chainWithdraw'>): Promise<ChainState> {
    const found = await this.found(session, body.id);
    await this.mayWrite(session, found);
    return this.told(found, await this.ctx.repos.chains.withdraw(this.at(found), session.userId));
  }

  /** Closes a chain: its starter, or the group's owner or an administrator. */
  async close(session: Session, body: RouteInput<'chainClose'>): Promise<ChainState> {
    const found = await this.found(session, body.id);
    this.ctx.access.requireWritable({ kind: 'group', chatKey: found.row.chat_key, ...found });
    const chain = await this.ctx.repos.chains.facts(found.chainId, found.group.id);
    if (!chain) throw new AppError('MessageNotFound');
    const role = found.member.role;
    if (chain.creator !== session.userId && role !== GroupRoles.Owner && role !== GroupRoles.Admin)
      throw new AppError('Forbidden');
    if (chain.closed) return this.state(found, chain);
    return this.told(found, await this.ctx.repos.chains.close(this.at(found)), true);
  }

  /** Stops the pushes waiting for their turn, and waits for one under way. */
  stop(): Promise<void> {
    return this.pushes.stop();
  }

  /** A chain as it is now. */
  async info(session: Session, body: RouteInput<'chainInfo'>): Promise<ChainState> {
    const found = await this.found(session, body.id);
    const chain = await this.ctx.repos.chains.facts(found.chainId, found.group.id);
    if (!chain) throw new AppError('MessageNotFound');
    return this.state(found, chain);
  }

  /**
   * A chain's message I can see, in a group I am in now; anything else (another kind of message, a
   * withdrawn one, one I cannot see) is a missing message.
   */
  private async found(session: Session, ref: number | string): Promise<Found> {
    const { row, chat } = await this.ctx.access.message(session, ref);
    const chainId = Number(parseJson(row.extends).chain_id);
    if (row.type !== 'chain' || row.is_undo || chat.kind !== 'group' || !(chainId > 0))
      throw new AppError('MessageNotFound');
    return { row, group: chat.group, member: chat.member, chainId };
  }

  /** The rules of sending to the group, its rate limit too: a mute (禁言) or 全员禁言 keeps a member's line out. */
  private async mayWrite(session: Session, found: Found): Promise<void> {
    const chat: Chat = { kind: 'group', chatKey: found.row.chat_key, group: found.group, member: found.member };
    await authorizeSend(this.ctx, session, chat);
  }

  private at(found: Found): ChainAt {
    return { chainId: found.chainId, groupId: found.group.id, msgId: found.row.id };
  }

  /**
   * The chain after a change, told to the members who see its message (`now`: at once, else with
   * the pushes' turn); a refusal as its error. A change that changed nothing is told to no one.
   */
  private async told(found: Found, outcome: ChainOutcome, now = false): Promise<ChainState> {
    if (outcome === 'missing') throw new AppError('MessageNotFound');
    if (outcome === 'closed') throw new AppError('ChainClosed');
    if (outcome === 'full') throw new AppError('ChainFull', { max: CHAIN_ENTRIES_MAX });
    if (outcome.changed) {
      const send = () => this.push(found.row, this.at(found));
      if (now) await this.pushes.now(found.chainId, send);
      else this.pushes.changed(found.chainId, send);
    }
    return this.state(found, outcome.chain);
  }

  /** The chain as it stands, to the members who see its message. */
  private async push(row: MessageRow, at: ChainAt): Promise<void> {
    const chain = await this.ctx.repos.chains.liveFacts(at);
    if (!chain) return;
    await pushToHolders(this.ctx, row, (toContactId) => ({
      type: 'chain',
      data: { toContactId, msg_id: row.id, extends: chain },
    }));
  }

  private state(found: Found, chain: ChainFacts): ChainState {
    return { msg_id: found.row.id, toContactId: `group-${found.group.id}`, extends: chain };
  }
}
