import type { WebSession } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';

/**
 * The web sessions this account let in by QR login, read when the view mounts (null until they
 * arrive); `end` signs one out, whose page then returns to its login.
 */
export function useWebSessions(): { sessions: WebSession[] | null; end: (sessionId: number) => Promise<void> } {
  const [sessions, setSessions] = useState<WebSession[] | null>(null);

  useEffect(() => {
    let live = true;
    api.webSessions({}, { silent: true }).then(
      (list) => live && setSessions(list),
      () => live && setSessions([]),
    );
    return () => {
      live = false;
    };
  }, []);

  const end = useCallback(async (sessionId: number) => {
    await api.webSessionEnd({ session_id: sessionId }, { loading: true });
    setSessions((list) => (list ?? []).filter((s) => s.session_id !== sessionId));
  }, []);

  return { sessions, end };
}
