import {
  BOT_DELIVERY_TIMEOUT_MS,
  BOT_FAILURES_MAX,
  BOT_RETRY_DELAYS_MS,
  type BotDeliveryError,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { ServerConfig } from '../../config';
import type { Sealer } from '../../lib/sealed';
import { OutboundGuard, OutboundRefused, OutboundTimeout, systemResolver } from '../../lib/outbound';
import type { Repos } from '../../repos';
import type { DeliveryRow } from './repo';

/** What the deliveries are built from. */
export interface DeliveryParts {
  env: Pick<
    ServerConfig,
    'botWebhookAllowHttp' | 'botWebhookAllowInternal' | 'botWebhookAllowedHosts' | 'botDeliverySweepMs' | 'resolveHost'
  >;
  repos: Pick<Repos, 'bots' | 'messages'>;
  sealer: Sealer;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  now: () => number;
}

/** How long a node holds a delivery it is trying: past every try's time-out. */
const CLAIM_MS = BOT_DELIVERY_TIMEOUT_MS * 3;
/** Deliveries read at a time, and tried at once at most: a slow webhook holds one of them, not the others. */
const BATCH = 16;
/** How long a done delivery stays in its bot's log, ms. */
const KEEP_MS = 7 * 86_400_000;
/** How often a node deletes done deliveries past KEEP_MS, ms. */
const PRUNE_EVERY_MS = 3_600_000;
/** How long a webhook's host may take to resolve, ms. */
const RESOLVE_TIMEOUT_MS = 3_000;

/** A bot's webhook secret, sealed to its bot. */
export const secretContext = (botId: number) => `bot-webhook:${botId}`;

/**
 * Bots' outgoing webhooks (docs/protocol.md §11): each event owed (`bot_deliveries`) is POSTed as
 * JSON, signed with the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, the `standardwebhooks` package), through the one outbound gate
 * (lib/outbound.ts: the same internal-address rules as push services). A 2xx delivers it; anything
 * else is tried again after BOT_RETRY_DELAYS_MS and given up after the last; BOT_FAILURES_MAX
 * failed tries in a row turn the webhook off. Any node tries what is due, one node each delivery
 * (a compare-and-set on `claimed_until`).
 */
export class BotDeliveries {
  private readonly guard: OutboundGuard;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private again = false;
  private stopped = false;
  private prunedAt = 0;

  constructor(private readonly ctx: DeliveryParts) {
    const env = ctx.env;
    this.guard = new OutboundGuard({
      allowHttp: env.botWebhookAllowHttp,
      allowInternal: env.botWebhookAllowInternal,
      allowedHosts: env.botWebhookAllowedHosts,
      resolve: env.resolveHost ?? systemResolver,
      resolveTimeoutMs: RESOLVE_TIMEOUT_MS,
    });
  }

  /** Checks a webhook URL as it is set: scheme, credentials, host and the addresses it resolves to now. */
  async check(url: string): Promise<void> {
    await this.guard.checkResolved(url);
  }

  start(): void {
    const every = this.ctx.env.botDeliverySweepMs;
    if (every > 0) this.timer = setInterval(() => this.kick(), every);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweeping;
    this.guard.close();
  }

  /** Tries what is due now, soon; a sweep under way sweeps again when it ends. */
  kick(): void {
    if (this.stopped) return;
    if (this.sweeping) {
      this.again = true;
      return;
    }
    void this.sweep().catch((err: unknown) => this.ctx.log.warn({ err }, 'bot deliveries failed'));
  }

  /**
   * Tries every delivery due now, at most BATCH at once, each taken as soon as a try ends (a slow
   * webhook holds only its own slot); answers how many were tried. Done deliveries past KEEP_MS are
   * deleted once an hour.
   */
  sweep(): Promise<number> {
    if (this.sweeping) return this.sweeping.then(() => this.sweep());
    const run = (async () => {
      await this.prune();
      let tried = 0;
      const trying = new Set<Promise<void>>();
      do {
        this.again = false;
        for (;;) {
          const due = await this.ctx.repos.bots.due(this.ctx.now(), BATCH);
          let taken = 0;
          for (const row of due) {
            while (trying.size >= BATCH) await Promise.race(trying);
            if (!(await this.ctx.repos.bots.claim(row, this.ctx.now() + CLAIM_MS))) continue;
            taken++;
            const attempt: Promise<void> = this.attempt(row)
              .catch((err: unknown) => this.ctx.log.warn({ err, delivery: row.id }, 'bot delivery failed'))
              .finally(() => trying.delete(attempt));
            trying.add(attempt);
          }
          tried += taken;
          if (due.length < BATCH || taken === 0) break;
        }
        await Promise.all(trying);
      } while (this.again && !this.stopped);
      return tried;
    })();
    this.sweeping = run;
    return run.finally(() => {
      this.sweeping = undefined;
    });
  }

  private async prune(): Promise<void> {
    const now = this.ctx.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await this.ctx.repos.bots.prune(now - KEEP_MS);
  }

  /** One try of one delivery, its outcome recorded. */
  private async attempt(row: DeliveryRow): Promise<void> {
    const { bots, messages } = this.ctx.repos;
    const bot = await bots.active(row.bot_id);
    const now = this.ctx.now();
    if (!bot || bot.webhook_state !== 'on') return bots.giveUp(row, 'turnedOff', now);
    // Withdrawn or deleted before it reached the bot: what it said is not sent on.
    const message = await messages.byId(row.msg_id);
    if (!message || message.is_undo || message.is_deleted) return bots.giveUp(row, 'withdrawn', now);
    let status = 0;
    let error: BotDeliveryError = 'status';
    try {
      const secret = this.ctx.sealer.open(bot.webhook_secret, secretContext(bot.user_id));
      const signature = new Webhook(secret).sign(row.event_id, new Date(now), row.payload);
      status = await this.guard.request(bot.webhook_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Sparrow-Webhooks/1',
          'webhook-id': row.event_id,
          'webhook-timestamp': String(Math.floor(now / 1000)),
          'webhook-signature': signature,
        },
        body: Buffer.from(row.payload),
        timeoutMs: BOT_DELIVERY_TIMEOUT_MS,
      });
      if (status >= 200 && status < 300) {
        await bots.delivered(row, status, this.ctx.now());
        return;
      }
    } catch (err) {
      error = err instanceof OutboundRefused ? 'refused' : err instanceof OutboundTimeout ? 'timeout' : 'unreachable';
      this.ctx.log.info({ err, delivery: row.id, bot: row.bot_id }, 'bot webhook not reached');
    }
    const delay = BOT_RETRY_DELAYS_MS[row.attempts];
    const later = this.ctx.now();
    await bots.failed(
      row,
      { status, error, nextAt: delay === undefined ? undefined : later + delay },
      later,
      BOT_FAILURES_MAX,
    );
  }
}
