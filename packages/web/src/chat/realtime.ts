import { SocketClient, socketUrl } from '../api/socket';
import { sessionStore } from '../stores/session';
import { dispatch } from './dispatch';

/**
 * The app's push channel; session/connection.ts runs it while someone is signed in. The socket
 * parses each frame and hands it to `dispatch`, which routes it to the stores and the conversations.
 */
export const socket = new SocketClient({
  url: socketUrl(window.location),
  getAuth: () => {
    const { token, user } = sessionStore.getState();
    return token && user ? { user_id: user.user_id, token } : null;
  },
  network: window,
  page: document,
  dispatch,
});
