import { api } from '../api';

/**
 * Web Push in this browser for the signed-in user: turned on and off in the settings, dropped when
 * the session ends. The service worker (src/sw.ts) shows the pushes.
 */

/** Whether this browser can show pushes at all (a service worker, the Push API, notifications). */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** True when this browser is subscribed and still allowed to show notifications. */
export async function pushEnabled(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  return (await currentSubscription()) !== null;
}

/** Why turning pushes on did not work, for the settings page to say. */
export type PushRefusal = 'denied' | 'unsupported';

/**
 * Asks for the permission (only now, on the user's tap), subscribes this browser with the
 * server's VAPID key and hands the subscription to the server.
 */
export async function enablePush(): Promise<PushRefusal | null> {
  if (!pushSupported()) return 'unsupported';
  if ((await Notification.requestPermission()) !== 'granted') return 'denied';
  const reg = await navigator.serviceWorker.ready;
  const key = await api.pushKey({});
  let sub: PushSubscription;
  try {
    sub =
      (await reg.pushManager.getSubscription()) ??
      (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key.publicKey }));
  } catch {
    return 'unsupported';
  }
  const json = sub.toJSON();
  await api.pushSubscribe({
    endpoint: sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  });
  return null;
}

/**
 * Unsubscribes this browser and tells the server to forget it; when the server cannot be told,
 * the push service answers its next push 410 and the server forgets it then.
 */
export async function disablePush(): Promise<void> {
  const sub = pushSupported() ? await currentSubscription() : null;
  if (!sub) return;
  const { endpoint } = sub;
  await sub.unsubscribe();
  await api.pushUnsubscribe({ endpoint }, { silent: true }).catch(() => undefined);
}

/** Unsubscribes this browser without telling the server (its session has ended). */
export async function dropPushSubscription(): Promise<void> {
  const sub = pushSupported() ? await currentSubscription() : null;
  await sub?.unsubscribe();
}
