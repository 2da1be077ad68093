import { useCallback, useEffect, useState, type Dispatch, type SetStateAction } from 'react';

export type LoadStatus = 'loading' | 'ready' | 'error';

/**
 * What a page reads once when it opens: `fetch` runs on mount and on `reload`, `status` says where
 * it is (a failure keeps the last data and reads 'error', for a retry button), and `setData` lets
 * the page show its own changes before the server confirms them. `fetch` must be stable
 * (module-level or memoised), as it is what runs again.
 */
export function useLoaded<T>(fetch: () => Promise<T>): {
  data: T | null;
  setData: Dispatch<SetStateAction<T | null>>;
  status: LoadStatus;
  reload: () => Promise<void>;
} {
  const [data, setData] = useState<T | null>(null);
  const [status, setStatus] = useState<LoadStatus>('loading');
  const reload = useCallback(async () => {
    setStatus('loading');
    try {
      setData(await fetch());
      setStatus('ready');
    } catch {
      setStatus('error');
    }
  }, [fetch]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, setData, status, reload };
}
