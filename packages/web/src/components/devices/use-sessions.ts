import type { DeviceSession } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api';

/**
 * My live sessions (登录设备), this device's first, read when the view mounts (null until they
 * arrive, [] when they could not be read); `end` and `endOthers` sign devices out and read the list again.
 */
export function useSessions(): {
  sessions: DeviceSession[] | null;
  end: (sessionId: number) => Promise<void>;
  endOthers: () => Promise<void>;
} {
  const [sessions, setSessions] = useState<DeviceSession[] | null>(null);

  const load = useCallback(async () => {
    const list = await api.sessions({}, { silent: true }).catch(() => []);
    setSessions([...list].sort((a, b) => Number(b.current) - Number(a.current)));
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const end = useCallback(
    async (sessionId: number) => {
      await api.sessionEnd({ session_id: sessionId }, { loading: true });
      await load();
    },
    [load],
  );

  const endOthers = useCallback(async () => {
    await api.sessionEndOthers({}, { loading: true });
    await load();
  }, [load]);

  return { sessions, end, endOthers };
}
