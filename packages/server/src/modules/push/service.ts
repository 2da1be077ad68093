import { createECDH } from 'node:crypto';
import {
  notificationText,
  PUSH_SUBSCRIPTIONS_MAX,
  translate,
  type PushKey,
  type WebPushPayload,
  type PushSettings,
  type RouteInput,
} from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type webpush from 'web-push';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { onFirstUse } from '../../lib/lazy';
import { OutboundGuard, OutboundQueue, OutboundRefused, OutboundTimeout, systemResolver } from '../../lib/outbound';
import { parseJson } from '../../lib/text';
import type { Realtime } from '../../realtime/realtime';
import type { Repos } from '../../repos';
import type { Chat } from '../access';
import type { Session } from '../auth';
import { previewOf, readerOf, type MessageRow } from '../im';
import type { Metrics } from '../ops';
import type { UserRow } from '../user';
import type { PushLimits } from './limits';
import type { PushRepo, SubscriptionRow } from './repo';

/** web-push, for the first push sent: a server that sends none does not hold it (about 2 MB). */
const loadWebPush = onFirstUse<typeof webpush>('web-push');

/** How long a push service keeps a push for a browser that is not reachable, s. */
const PUSH_TTL_S = 24 * 3600;
/** How long a push may take, from the lookup of its host to the end of the answer, ms. */
export const PUSH_TIMEOUT_MS = 5_000;
/** Pushes in flight at once per process: each holds a socket (a file descriptor) until answered. */
export const PUSH_CONCURRENCY = 32;
/** Pushes waiting for a free slot; past this the oldest waiting one is dropped. */
export const PUSH_QUEUE_MAX = 5_000;
/** Pushes in a row a subscription may fail… */
export const PUSH_FAILURES_MAX = 5;
/** …over at least this long before it is dropped, ms: an outage of an hour loses no subscription. */
export const PUSH_FAILING_MS = 3_600_000;
/** How long the lookup of a push service's host may take when a browser subscribes, ms. */
const PUSH_RESOLVE_TIMEOUT_MS = 3_000;

const PUSH_LIMITS: PushLimits = {
  timeoutMs: PUSH_TIMEOUT_MS,
  concurrency: PUSH_CONCURRENCY,
  queueMax: PUSH_QUEUE_MAX,
  failuresMax: PUSH_FAILURES_MAX,
  failingMs: PUSH_FAILING_MS,
};

/** What became of pushes since start, by outcome; /metrics reads it. */
export interface PushCounts {
  /** Taken by the push service (2xx). */
  sent: number;
  /** Answered 404/410: the browser dropped the subscription, which is deleted. */
  gone: number;
  /** Refused or timed out, or refused by the guard before leaving (`refused` counts those too). */
  failed: number;
  /** Not sent: the address was internal, or the host not allowed, at send time. */
  refused: number;
  /** Subscriptions deleted after failing `failuresMax` times in a row. */
  dropped: number;
}

/** What PushService is built from (its own repository apart). */
export interface PushParts {
  env: ServerConfig;
  repos: Pick<Repos, 'conversations' | 'users'>;
  realtime: Pick<Realtime, 'reachable'>;
  metrics: Pick<Metrics, 'watchWebPush'>;
  log: FastifyBaseLogger;
  now: () => number;
}

interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * Web Push (docs/protocol.md §7): subscriptions, and a push per message to each recipient who has no bound
 * socket on any node, unless they muted the chat. The VAPID key pair is made at the first start
 * (buildApp calls `keys`) and kept in the database, so every node and every restart signs with the
 * same one.
 */
export class PushService {
  private vapid: Promise<Vapid> | undefined;
  private readonly limits: PushLimits;
  /** Every push service request goes through it: see lib/outbound.ts. */
  private readonly guard: OutboundGuard;
  private readonly queue: OutboundQueue;
  private readonly outcomes: PushCounts = { sent: 0, gone: 0, failed: 0, refused: 0, dropped: 0 };

  constructor(
    private readonly ctx: PushParts,
    private readonly repo: PushRepo,
  ) {
    const env = ctx.env;
    this.limits = { ...PUSH_LIMITS, ...env.pushLimits };
    this.guard = new OutboundGuard({
      allowHttp: env.pushAllowHttp,
      allowInternal: env.pushAllowInternal,
      allowedHosts: env.pushAllowedHosts,
      resolve: env.resolveHost ?? systemResolver,
      resolveTimeoutMs: PUSH_RESOLVE_TIMEOUT_MS,
    });
    this.queue = new OutboundQueue(this.limits.concurrency, this.limits.queueMax);
    ctx.metrics.watchWebPush(() => this.counts());
  }

  /**
   * At shutdown: drops the pushes waiting, lets those under way end (each within its time-out) and
   * closes the connections kept to push services, before the database they report to closes.
   */
  async stop(): Promise<void> {
    await this.queue.stop();
    this.guard.close();
  }

  /** Pushes in flight and waiting now, those dropped from a full queue, and the outcomes since start. */
  counts(): PushCounts & { running: number; waiting: number; queueDropped: number } {
    const q = this.queue.counts();
    return { ...this.outcomes, running: q.running, waiting: q.waiting, queueDropped: q.dropped };
  }

  async key(session: Session): Promise<PushKey> {
    const { publicKey } = await this.keys();
    return { publicKey, preview: await this.repo.preview(session.userId) };
  }

  /**
   * Stores a browser's subscription once its push service is one the server may call: https, no
   * userinfo, an allowed host whose addresses (looked up now) are all public. Sending checks the
   * address again as it connects.
   */
  async subscribe(session: Session, body: RouteInput<'pushSubscribe'>): Promise<void> {
    try {
      await this.guard.checkResolved(body.endpoint);
    } catch (err) {
      if (!(err instanceof OutboundRefused)) throw err;
      this.ctx.log.info({ userId: session.userId, reason: err.reason }, 'push subscription refused');
      throw new AppError('Validation', {}, { fields: ['endpoint'] });
    }
    await this.repo.subscribe(
      session.userId,
      session.id,
      { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth },
      this.ctx.now(),
      PUSH_SUBSCRIPTIONS_MAX,
    );
  }

  unsubscribe(session: Session, endpoint: string): Promise<void> {
    return this.repo.unsubscribe(session.userId, endpoint);
  }

  async setting(session: Session, preview: 0 | 1): Promise<PushSettings> {
    await this.repo.setPreview(session.userId, preview);
    return { preview };
  }

  /**
   * Called for each message fanned out: pushes it to those of `recipients` who have a subscription,
   * no bound socket anywhere (presence spans nodes) and the chat not muted. Never throws: a push
   * is a courtesy beside the stored message.
   */
  async notify(row: MessageRow, chat: Chat, sender: UserRow, recipients: number[]): Promise<void> {
    try {
      if (row.type === 'event' || chat.kind === 'self') return;
      // Presence first: a recipient with the app open, the common case, costs no query.
      const others = recipients.filter((id) => id !== sender.id);
      if (others.length === 0) return;
      const bound = await this.ctx.realtime.reachable(others);
      const away = others.filter((id) => !bound.has(id));
      if (away.length === 0) return;
      const subs = await this.repo.subscriptionsOf(away, this.ctx.now());
      if (subs.length === 0) return;
      const subscribed = [...new Set(subs.map((s) => s.user_id))];
      const sides = await this.ctx.repos.conversations.rowsIn(row.chat_key, subscribed);
      const audience = subscribed.filter((id) => sides.get(id)?.is_notice !== 0);
      if (audience.length === 0) return;
      const [users, plain] = await Promise.all([
        this.ctx.repos.users.byIds(audience),
        this.repo.withoutPreview(audience),
      ]);
      const vapid = await this.keys();
      for (const s of subs) {
        const reader = users.get(s.user_id);
        if (!reader) continue;
        const payload = this.payload(row, chat, sender, reader, !plain.has(s.user_id));
        this.queue.add(() => this.send(s, payload, vapid));
      }
    } catch (err) {
      this.ctx.log.warn({ err, msgId: row.id }, 'web push failed');
    }
  }

  /** What the reader's notification says, in their language (protocol's `notificationText`). */
  private payload(row: MessageRow, chat: Chat, sender: UserRow, reader: UserRow, preview: boolean): WebPushPayload {
    const locale = readerOf(reader).locale;
    const target = chat.kind === 'group' ? `group-${chat.group.id}` : String(sender.id);
    const call = row.type === 'webrtc';
    const video = call && parseJson(row.extends).type === 1;
    const words = notificationText(
      {
        preview,
        sender: sender.realname,
        group: chat.kind === 'group' ? chat.group.name : undefined,
        text: preview && !call ? previewOf(row, readerOf(reader)) : '',
        call: call ? translate(locale, video ? 'call.video' : 'call.audio') : undefined,
      },
      (key, params) => translate(locale, key, params),
    );
    return { ...words, chat: target, ...(call && ({ call: 1 } as const)) };
  }

  /**
   * Encrypts and signs with web-push (RFC 8291, RFC 8292) and posts the request through the
   * outbound guard, so that the answer decides what happens to the subscription: 404 and 410 mean
   * the browser dropped it; any other failure counts towards dropping it. Run from the queue, so
   * a push dropped from a full queue costs no encryption. Never throws.
   */
  private async send(sub: SubscriptionRow, payload: WebPushPayload, vapid: Vapid): Promise<void> {
    try {
      const request = loadWebPush().generateRequestDetails(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: vapid,
          TTL: PUSH_TTL_S,
          urgency: payload.call ? 'high' : 'normal',
          // One waiting push per chat: a newer one replaces it at the push service.
          topic: `c${payload.chat.replace(/[^A-Za-z0-9]/g, '')}`,
        },
      );
      let status: number;
      try {
        status = await this.guard.request(request.endpoint, {
          method: request.method,
          headers: request.headers as Record<string, string | number>,
          body: request.body,
          timeoutMs: this.limits.timeoutMs,
        });
      } catch (err) {
        if (err instanceof OutboundRefused) {
          this.outcomes.refused++;
          this.ctx.log.warn({ userId: sub.user_id, reason: err.reason }, 'push service address refused');
        } else if (err instanceof OutboundTimeout)
          this.ctx.log.warn({ userId: sub.user_id, ms: this.limits.timeoutMs }, 'push service timed out');
        else this.ctx.log.warn({ err, userId: sub.user_id }, 'push service unreachable');
        await this.failed(sub);
        return;
      }
      if (status >= 200 && status < 300) {
        this.outcomes.sent++;
        if (sub.failures > 0) await this.repo.succeeded(sub.id);
      } else if (status === 404 || status === 410) {
        this.outcomes.gone++;
        await this.repo.drop(sub.id);
      } else {
        this.ctx.log.warn({ status, userId: sub.user_id }, 'push service refused a push');
        await this.failed(sub);
      }
    } catch (err) {
      this.ctx.log.warn({ err, userId: sub.user_id }, 'web push failed');
    }
  }

  /** One more failure in a row; a subscription failing `failuresMax` times over `failingMs` is dropped. */
  private async failed(sub: SubscriptionRow): Promise<void> {
    this.outcomes.failed++;
    const { failuresMax, failingMs } = this.limits;
    if (await this.repo.failed(sub.id, this.ctx.now(), failuresMax, failingMs)) {
      this.outcomes.dropped++;
      this.ctx.log.info({ userId: sub.user_id, failures: failuresMax }, 'push subscription dropped after failing');
    }
  }

  /** The VAPID key pair: read once per process, made and stored when there is none yet. */
  keys(): Promise<Vapid> {
    this.vapid ??= this.loadKeys().catch((err: unknown) => {
      this.vapid = undefined;
      throw err;
    });
    return this.vapid;
  }

  private async loadKeys(): Promise<Vapid> {
    let row = await this.repo.vapid();
    if (!row) {
      const made = vapidKeys();
      await this.repo.saveVapid(made.publicKey, made.privateKey, this.ctx.now());
      row = await this.repo.vapid();
      if (!row) throw new Error('VAPID keys were not stored');
    }
    const url = new URL(this.ctx.env.publicUrl);
    const subject =
      url.protocol === 'https:' && url.hostname !== 'localhost' ? url.origin : `mailto:push@${url.hostname}`;
    return { publicKey: row.public_key, privateKey: row.private_key, subject };
  }
}

/**
 * A new VAPID key pair (RFC 8292: P-256), base64url as web-push's generateVAPIDKeys makes them: the
 * 65-byte uncompressed public point and the 32-byte private scalar (left-padded, as web-push pads it).
 */
function vapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const privateKey = Buffer.alloc(32);
  const scalar = ecdh.getPrivateKey();
  scalar.copy(privateKey, 32 - scalar.length);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}
