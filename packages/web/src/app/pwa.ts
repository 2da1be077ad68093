/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';
import { navigateTo } from '../nav/navigation';
import { chatPath } from '../nav/paths';

/**
 * The installable app's page side: registers the service worker (src/sw.ts) once the first screen
 * has painted and follows its "open this chat" messages. Web Push on and off: session/push.ts.
 */

/** Registers the service worker after the first paint, off the start-up's critical path. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; chat?: unknown }>) => {
    if (event.data?.type === 'openChat' && typeof event.data.chat === 'string') navigateTo(chatPath(event.data.chat));
  });
  void registerSW({ immediate: true });
}
