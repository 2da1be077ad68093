import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { PagedList, type PagedListIo, type PagedListState } from './paged-list';

/**
 * A `PagedList` for a page: a new list (emptied, its first page read) whenever `read` changes, that
 * is when what the page asks for changes; none is read while `enabled` is false. Gives the list's
 * state, redrawn on each change, and the list to page on, refresh or update.
 */
export function usePagedList<T>(
  read: PagedListIo<T>['read'],
  key: PagedListIo<T>['key'],
  enabled = true,
): [PagedListState<T>, PagedList<T>] {
  const list = useMemo(() => new PagedList({ read, key }), [read, key]);
  useEffect(() => {
    if (!enabled) return;
    void list.start();
    return () => list.stop();
  }, [list, enabled]);
  return [useSyncExternalStore(list.subscribe, list.getState), list];
}
