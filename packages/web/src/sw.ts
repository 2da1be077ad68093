/// <reference lib="webworker" />
import { createHandlerBoundToURL, precacheAndRoute, cleanupOutdatedCaches } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import type { WebPushPayload } from '@sparrow/protocol';
import { notificationTag } from './lib/notification';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/*
 * The service worker: the app shell (index.html and every built file) is cached at install, so a
 * reload without a network shows the app with what it stored (conversations, the offline banner)
 * instead of the browser's error page. It also shows Web Push notifications and opens their chat.
 */
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// The app routes by hash, so every page load is a navigation to the shell; the server's own paths are not.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [
      /^\/(common|enterprise|manage|scan|storage|wss|docs|openapi\.json|metrics|healthz|readyz)(\/|$)/,
      // A code's scan path under whatever path the app is served at: the server sends it on to the page.
      /\/scan\/[ug]\/[^/]+\/?$/,
    ],
  }),
);

self.addEventListener('install', () => {
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The app's address of a chat (`#/pages/message/chat?id=…`, as `chatPath` makes it). */
const chatUrl = (chat: string) =>
  new URL(`./#/pages/message/chat?id=${encodeURIComponent(chat)}`, self.registration.scope).href;

self.addEventListener('push', (event) => {
  let payload: WebPushPayload;
  try {
    payload = event.data?.json() as WebPushPayload;
  } catch {
    return;
  }
  if (!payload?.chat) return;
  event.waitUntil(
    (async () => {
      // Nothing for the chat the user is looking at.
      const windows = await self.clients.matchAll({ type: 'window' });
      if (windows.some((w) => w.visibilityState === 'visible' && w.focused && w.url === chatUrl(payload.chat))) return;
      await self.registration.showNotification(payload.title, {
        body: payload.body,
        // One notification per chat: a newer message replaces the one before, the open page's too.
        tag: notificationTag(payload.chat),
        icon: new URL('./pwa-192.png', self.registration.scope).href,
        data: { chat: payload.chat },
        requireInteraction: payload.call === 1,
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const chat = (event.notification.data as { chat?: unknown } | null)?.chat;
  if (typeof chat !== 'string') return;
  const url = chatUrl(chat);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => w.url.startsWith(self.registration.scope));
      if (open) {
        // The open app moves to the chat itself (its router follows the hash).
        open.postMessage({ type: 'openChat', chat });
        await open.focus();
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
