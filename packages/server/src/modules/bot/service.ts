import {
  BOT_DELIVERIES_SHOWN,
  BOT_DELIVERY_ERRORS,
  BOT_TOKEN_SCOPES,
  BOTS_PER_USER_MAX,
  type Bot,
  type BotCreated,
  type BotDelivery,
  type BotDeliveryError,
  type BotEvent,
  type BotWebhookState,
  type RouteInput,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors';
import { OutboundRefused } from '../../lib/outbound';
import type { Sealer } from '../../lib/sealed';
import type { Repos } from '../../repos';
import type { Chat } from '../access';
import { DELETED_STATUS, type AccountService } from '../account';
import { mintToken, type Session } from '../auth';
import { decodeAt, type MessageRow } from '../im';
import { machineAccount, ROBOT_STATUS, type UserRow } from '../user';
import { secretContext, type BotDeliveries } from './deliveries';
import type { BotView, DeliveryRow } from './repo';

/** What the bot service is built from. */
export interface BotParts {
  repos: Pick<Repos, 'bots' | 'users'>;
  sealer: Sealer;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now: () => number;
}

/** A bot's token: the bot's own, for as long as the bot lives (a reset makes another). */
const tokenSpec = { name: 'bot', scopes: BOT_TOKEN_SCOPES, days: 0 };

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * Bot accounts (docs/protocol.md §11): made, renamed, re-keyed and deleted by their owner, each an
 * account with no password, its owner's friend from the start, that answers through the API with
 * its own token; the messages sent to it or naming it are owed to its webhook (BotDeliveries).
 */
export class BotService {
  constructor(
    private readonly ctx: BotParts,
    private readonly deliveries: BotDeliveries,
    private readonly accounts: Pick<AccountService, 'erase'>,
  ) {}

  async create(session: Session, body: RouteInput<'botCreate'>): Promise<BotCreated> {
    const now = this.ctx.now();
    const secret = newSecret();
    // The account's id is not known before it is made: its token is made for it in the same transaction.
    let token = '';
    const id = await this.ctx.repos.bots.create(
      session.userId,
      machineAccount('bot', body.name, now),
      (botId) => {
        const minted = mintToken(botId, tokenSpec, now);
        token = minted.token;
        return {
          bot: { webhook_secret: this.ctx.sealer.seal(secret, secretContext(botId)), create_time: now },
          token: minted.values,
        };
      },
      BOTS_PER_USER_MAX,
    );
    if (id === 'full') throw new AppError('BotsFull', { max: BOTS_PER_USER_MAX });
    return { ...this.present(await this.owned(session, id)), token };
  }

  async list(session: Session): Promise<Bot[]> {
    return (await this.ctx.repos.bots.listOf(session.userId)).map((b) => this.present(b));
  }

  /** A new name, and a webhook, when sent, set (checked as push services are), changed or turned off. */
  async edit(session: Session, body: RouteInput<'botEdit'>): Promise<Bot> {
    const bot = await this.owned(session, body.bot_id);
    if (body.webhook_url) {
      try {
        await this.deliveries.check(body.webhook_url);
      } catch (err) {
        if (err instanceof OutboundRefused) throw new AppError('WebhookRefused', {}, { fields: ['webhook_url'] });
        throw err;
      }
    }
    const now = this.ctx.now();
    if (body.name !== bot.name) await this.ctx.repos.bots.rename(bot.user_id, body.name, now);
    const url = body.webhook_url;
    if (url !== undefined && (url !== bot.webhook_url || (url && bot.webhook_state === 'disabled')))
      await this.ctx.repos.bots.setWebhook(bot.user_id, url, now);
    return this.present(await this.owned(session, bot.user_id));
  }

  /** A new token and a new webhook secret: the old ones stop working at once. */
  async reset(session: Session, botId: number): Promise<BotCreated> {
    const bot = await this.owned(session, botId);
    const { token, values } = mintToken(bot.user_id, tokenSpec, this.ctx.now());
    const secret = this.ctx.sealer.seal(newSecret(), secretContext(bot.user_id));
    await this.ctx.repos.bots.rekey(bot.user_id, values, secret);
    return { ...this.present(await this.owned(session, bot.user_id)), token };
  }

  /** Deletes the bot: its webhook, token and deliveries, then its account as a deleted account is. */
  async remove(session: Session, botId: number): Promise<void> {
    const bot = await this.owned(session, botId);
    await this.erase(bot.user_id);
  }

  async log(session: Session, botId: number): Promise<BotDelivery[]> {
    const bot = await this.owned(session, botId);
    return (await this.ctx.repos.bots.deliveries(bot.user_id, BOT_DELIVERIES_SHOWN)).map(presentDelivery);
  }

  /**
   * Hears each message fanned out (SendPipeline.onPublished): one sent to a bot in a private chat,
   * or naming bots in a group, is owed to those bots' webhooks. A group message's bots are asked
   * only when it names someone; a private one's peer is read off the chat: no query for the rest.
   * What a bot or a group's robot says is owed to no bot: two bots never answer each other on end.
   * A failure is logged: the message is sent whatever becomes of its events.
   */
  async published(row: MessageRow, chat: Chat, sender: UserRow): Promise<void> {
    if (row.type === 'event' || sender.is_bot === 1 || sender.status === ROBOT_STATUS) return;
    let candidates: number[] = [];
    if (chat.kind === 'private' && chat.peer.is_bot === 1) candidates = [chat.peer.id];
    else if (chat.kind === 'group') candidates = decodeAt(row.at).filter((id) => id !== 0);
    candidates = candidates.filter((id) => id !== sender.id);
    if (candidates.length === 0) return;
    try {
      await this.owe(row, chat, sender, candidates);
    } catch (err) {
      this.ctx.log.warn({ err, msgId: row.id }, 'bot events not owed');
    }
  }

  private async owe(row: MessageRow, chat: Chat, sender: UserRow, candidates: number[]): Promise<void> {
    const bots = await this.ctx.repos.bots.delivering(candidates);
    if (bots.length === 0) return;
    const now = this.ctx.now();
    const replyTo = chat.kind === 'group' ? `group-${chat.group.id}` : sender.id;
    await this.ctx.repos.bots.enqueue(
      bots.map(({ user_id }) => {
        const event: BotEvent = {
          type: 'message',
          bot_id: user_id,
          timestamp: now,
          data: {
            reply_to: replyTo,
            is_group: chat.kind === 'group' ? 1 : 0,
            message: {
              msg_id: row.id,
              id: row.client_id,
              type: row.type,
              content: row.content,
              at: decodeAt(row.at),
              sendTime: row.create_time,
              from: { id: sender.id, name: sender.realname },
            },
          },
        };
        return {
          bot_id: user_id,
          event_id: `msg_${row.id}`,
          msg_id: row.id,
          payload: JSON.stringify(event),
          next_at: now,
          create_time: now,
        };
      }),
    );
    this.deliveries.kick();
  }

  /** An owner's account is being erased: so are their bots. */
  async ownerErased(ownerId: number): Promise<void> {
    for (const botId of await this.ctx.repos.bots.idsOf(ownerId)) await this.erase(botId);
  }

  /** Erases the bot's account (its groups left, its tokens deleted), then its row and deliveries. */
  private async erase(botId: number): Promise<void> {
    const user = await this.ctx.repos.users.byId(botId);
    if (user && user.status !== DELETED_STATUS) await this.accounts.erase(user);
    await this.ctx.repos.bots.remove(botId);
  }

  /** One of the caller's bots; anyone else's, or one that is gone, is NotFound alike. */
  private async owned(session: Session, botId: number): Promise<BotView> {
    const bot = await this.ctx.repos.bots.owned(session.userId, botId);
    if (!bot) throw new AppError('NotFound');
    return bot;
  }

  private present(bot: BotView): Bot {
    return {
      id: bot.user_id,
      account: bot.account,
      name: bot.name,
      avatar: bot.avatar,
      create_time: bot.create_time,
      webhook_url: bot.webhook_url,
      webhook_state: bot.webhook_state as BotWebhookState,
      webhook_secret: this.ctx.sealer.open(bot.webhook_secret, secretContext(bot.user_id)),
      failures: bot.failures,
    };
  }
}

function presentDelivery(row: DeliveryRow): BotDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    status: row.status as BotDelivery['status'],
    attempts: row.attempts,
    last_status: row.last_status,
    last_error: (BOT_DELIVERY_ERRORS as readonly string[]).includes(row.last_error)
      ? (row.last_error as BotDeliveryError)
      : '',
    create_time: row.create_time,
    done_time: row.done_time,
    next_at: row.next_at,
  };
}
