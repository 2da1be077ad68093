import type { GlobalConfig } from '@sparrow/protocol';
import { forcedOffline } from '../app/account';
import { storage } from '../lib/storage';
import { config } from '../stores/config';
import { presence } from '../stores/presence';
import { sessionStore } from '../stores/session';
import { SocketClient, socketUrl } from './socket';

/** The app's push channel, feeding the stores; account.ts runs it while someone is signed in. */
export const socket = new SocketClient({
  url: socketUrl(window.location),
  getAuth: () => {
    const { token, user } = sessionStore.getState();
    return token && user ? { user_id: user.user_id, token } : null;
  },
  network: window,
  page: document,
});

socket.on('state', (s) => config.setSocket(s));
socket.on('init', ({ client_id }) => storage.set('client_id', client_id));
socket.on('pong', ({ multiport }) => config.setMultiport(multiport));
socket.on('updateConfig', (data) => config.merge(data as Partial<GlobalConfig>));
socket.on('isOnline', ({ id, is_online }) => presence.set(id, is_online));
socket.on('offline', () => forcedOffline());
