import * as z from 'zod';
import { EmptyBody } from './common';

/** Longest push service URL a subscription may name. */
export const PUSH_ENDPOINT_MAX = 1024;
/** Push subscriptions kept per user (one per browser); the oldest gives way to a new one. */
export const PUSH_SUBSCRIPTIONS_MAX = 10;

/** Base64url, as PushSubscription.toJSON() gives its keys. */
const base64url = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/);

/** `/enterprise/push/key`: the server's VAPID public key and my preview choice. */
export const PushKeyBody = EmptyBody;

/** `/enterprise/push/subscribe`: a browser's PushSubscription.toJSON(). */
export const PushSubscribeBody = z.object({
  /** The push service's URL for this browser. */
  endpoint: z.url({ protocol: /^https?$/ }).max(PUSH_ENDPOINT_MAX),
  keys: z.object({
    /** The browser's P-256 public key (65 bytes uncompressed, base64url). */
    p256dh: base64url(80, 100),
    /** The browser's 16-byte auth secret (base64url). */
    auth: base64url(16, 32),
  }),
});

/** `/enterprise/push/unsubscribe`: forget one of my subscriptions. */
export const PushUnsubscribeBody = z.object({
  endpoint: z.string().trim().min(1).max(PUSH_ENDPOINT_MAX),
});

/** `/enterprise/push/setting`: whether my pushes show the sender and the message (1) or only that one came (0). */
export const PushSettingBody = z.object({
  preview: z.coerce.number().int().min(0).max(1),
});

/** What `/enterprise/push/key` answers. */
export interface PushKey {
  /** The VAPID public key (base64url), the applicationServerKey of PushManager.subscribe. */
  publicKey: string;
  /** 1 when my pushes show the sender and the message. */
  preview: 0 | 1;
}

/** What `/enterprise/push/setting` answers. */
export interface PushSettings {
  preview: 0 | 1;
}

/** What a push carries to the service worker (JSON, encrypted end to end). */
export interface WebPushPayload {
  /** The notification's title: the sender or group, or the app's name without a preview. */
  title: string;
  body: string;
  /** The chat to open on a click: a user id or "group-N". */
  chat: string;
  /** 1 when the push tells of a call. */
  call?: 1;
}
