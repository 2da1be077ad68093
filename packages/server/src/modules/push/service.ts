import { createECDH } from 'node:crypto';
import {
  PUSH_SUBSCRIPTIONS_MAX,
  translate,
  type PushKey,
  type WebPushPayload,
  type PushSettings,
  type RouteInput,
} from '@sparrow/protocol';
import type webpush from 'web-push';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { onFirstUse } from '../../lib/lazy';
import { parseJson } from '../../lib/text';
import type { Chat } from '../access';
import type { Session } from '../auth';
import { previewOf, readerOf, type MessageRow } from '../im';
import type { UserRow } from '../user';
import type { PushRepo, SubscriptionRow } from './repo';

/** web-push, for the first push sent: a server that sends none does not hold it (about 2 MB). */
const loadWebPush = onFirstUse<typeof webpush>('web-push');

/** How long a push service keeps a push for a browser that is not reachable, s. */
const PUSH_TTL_S = 24 * 3600;
/** How long a push service may take to answer, ms. */
const PUSH_TIMEOUT_MS = 10_000;

interface Vapid {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * Web Push (api.md §7): subscriptions, and a push per message to each recipient who has no bound
 * socket on any node, unless they muted the chat. The VAPID key pair is made at the first start
 * (buildApp calls `keys`) and kept in the database, so every node and every restart signs with the
 * same one.
 */
export class PushService {
  private vapid: Promise<Vapid> | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly repo: PushRepo,
  ) {}

  async key(session: Session): Promise<PushKey> {
    const { publicKey } = await this.keys();
    return { publicKey, preview: await this.repo.preview(session.userId) };
  }

  async subscribe(session: Session, body: RouteInput<'pushSubscribe'>): Promise<void> {
    // A push service is reached by the server: only over https, so that a subscription cannot
    // make the server call plain-http addresses inside its own network.
    if (new URL(body.endpoint).protocol !== 'https:' && !this.ctx.env.pushAllowHttp)
      throw new AppError('Validation', {}, { fields: ['endpoint'] });
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
      const sides = await this.ctx.repos.messages.rowsIn(row.chat_key, subscribed);
      const audience = subscribed.filter((id) => sides.get(id)?.is_notice !== 0);
      if (audience.length === 0) return;
      const [users, plain] = await Promise.all([
        this.ctx.repos.users.byIds(audience),
        this.repo.withoutPreview(audience),
      ]);
      const vapid = await this.keys();
      await Promise.all(
        subs
          .filter((s) => users.has(s.user_id))
          .map((s) =>
            this.send(s, this.payload(row, chat, sender, users.get(s.user_id)!, !plain.has(s.user_id)), vapid),
          ),
      );
    } catch (err) {
      this.ctx.log.warn({ err, msgId: row.id }, 'web push failed');
    }
  }

  /** What the reader's notification says, in their language. */
  private payload(row: MessageRow, chat: Chat, sender: UserRow, reader: UserRow, preview: boolean): WebPushPayload {
    const locale = readerOf(reader).locale;
    const target = chat.kind === 'group' ? `group-${chat.group.id}` : String(sender.id);
    const call = row.type === 'webrtc' ? ({ call: 1 } as const) : {};
    if (!preview) return { title: 'Sparrow', body: translate(locale, 'push.newMessage'), chat: target, ...call };
    const text = previewOf(row, readerOf(reader));
    if (row.type === 'webrtc') {
      const video = parseJson(row.extends).type === 1;
      const kind = translate(locale, video ? 'call.video' : 'call.audio');
      return {
        title: sender.realname,
        body: translate(locale, 'push.call', { name: sender.realname, kind }),
        chat: target,
        call: 1,
      };
    }
    if (chat.kind === 'group') return { title: chat.group.name, body: `${sender.realname}: ${text}`, chat: target };
    return { title: sender.realname, body: text, chat: target };
  }

  /**
   * Encrypts and signs with web-push (RFC 8291, RFC 8292) and posts the request itself, so that the
   * answer decides what happens to the subscription: 404 and 410 mean the browser dropped it.
   */
  private async send(sub: SubscriptionRow, payload: WebPushPayload, vapid: Vapid): Promise<void> {
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
    try {
      const res = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ?? null,
        redirect: 'error',
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (res.status === 404 || res.status === 410) await this.repo.drop(sub.id);
      else if (!res.ok) this.ctx.log.warn({ status: res.status, userId: sub.user_id }, 'push service refused a push');
    } catch (err) {
      this.ctx.log.warn({ err, userId: sub.user_id }, 'push service unreachable');
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
