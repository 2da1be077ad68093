import type * as RealtimeModule from '../chat/realtime';
import { sessionStore } from '../stores/session';

type Realtime = typeof RealtimeModule;
let realtime: Promise<Realtime> | null = null;

/** The socket module, loaded on first use (it parses frames with protocol's zod schemas). */
export function loadRealtime(): Promise<Realtime> {
  realtime ??= import('../chat/realtime').catch((error: unknown) => {
    realtime = null;
    throw error;
  });
  return realtime;
}

/** Runs the socket while someone is signed in: start on sign-in, stop on sign-out. */
export function followSession(): void {
  const follow = (token: string | null, previous: string | null | undefined) => {
    if (!token) {
      if (realtime) void realtime.then(({ socket }) => socket.stop());
      return;
    }
    loadRealtime().then(
      ({ socket }) => {
        if (sessionStore.getState().token !== token) return;
        if (socket.state === 'open' && previous) socket.bind();
        else socket.start();
      },
      () => {
        // Offline at start: the HTTP pages still work; pushes begin with the next sign-in or start.
      },
    );
  };
  follow(sessionStore.getState().token, undefined);
  sessionStore.subscribe((s, prev) => {
    if (s.token !== prev.token) follow(s.token, prev.token);
  });
}
