import { BOT_DELIVERY_TIMEOUT_MS, BOT_FAILURES_MAX, BOT_RETRY_DELAYS_MS } from '@sparrow/protocol';
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
  repos: Pick<Repos, 'bots'>;
  sealer: Sealer;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now: () => number;
}

/** How long a node holds a delivery it is trying: past every try's time-out. */
const CLAIM_MS = BOT_DELIVERY_TIMEOUT_MS * 3;
/** Deliveries one sweep tries at once. */
const BATCH = 16;
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

  /** Tries every delivery due now (batch after batch); answers how many were tried. */
  sweep(): Promise<number> {
    if (this.sweeping) return this.sweeping.then(() => this.sweep());
    const run = (async () => {
      let tried = 0;
      do {
        this.again = false;
        for (;;) {
          const now = this.ctx.now();
          const due = await this.ctx.repos.bots.due(now, BATCH);
          if (due.length === 0) break;
          const mine: DeliveryRow[] = [];
          for (const row of due)
            if (await this.ctx.repos.bots.claim(row.id, row.claimed_until, now + CLAIM_MS)) mine.push(row);
          await Promise.all(mine.map((row) => this.attempt(row)));
          tried += mine.length;
          if (due.length < BATCH) break;
        }
      } while (this.again && !this.stopped);
      return tried;
    })();
    this.sweeping = run;
    return run.finally(() => {
      this.sweeping = undefined;
    });
  }

  /** One try of one delivery, its outcome recorded. */
  private async attempt(row: DeliveryRow): Promise<void> {
    const { bots } = this.ctx.repos;
    const bot = await bots.byId(row.bot_id);
    const now = this.ctx.now();
    if (!bot || bot.webhook_state !== 'on') {
      await bots.failed(row, { status: 0, error: 'webhook turned off', nextAt: undefined }, now, Infinity);
      return;
    }
    let status = 0;
    let error = '';
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
      error = `HTTP ${status}`;
    } catch (err) {
      error =
        err instanceof OutboundRefused || err instanceof OutboundTimeout
          ? err.message
          : `connection failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
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
