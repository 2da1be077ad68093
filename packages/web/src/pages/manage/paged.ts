import type { RouteBody, RouteName, RouteResponses } from '@sparrow/protocol';
import { useCallback, useEffect, useState } from 'react';
import { request } from '../../api';

import type { LoadStatus } from '../../lib/use-loaded';
export type { LoadStatus };

/** The list routes of the console: they take a page and answer an array with `count`. */
type PagedRoute = {
  [N in RouteName]: RouteResponses[N] extends readonly unknown[] ? (N extends `manage${string}` ? N : never) : never;
}[RouteName];

export const PAGE_SIZE = 20;

/** One page of a console list at a time, asked again when the filter or the page changes. */
export function usePaged<N extends PagedRoute>(name: N, filter: Omit<RouteBody<N>, 'page' | 'limit'>) {
  type Item = RouteResponses[N] extends readonly (infer I)[] ? I : never;
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<Item[]>([]);
  const [count, setCount] = useState(0);
  const [status, setStatus] = useState<LoadStatus>('loading');
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(filter);

  useEffect(() => setPage(1), [key]);

  useEffect(() => {
    let live = true;
    setStatus('loading');
    request(name, { ...(JSON.parse(key) as object), page, limit: PAGE_SIZE } as never, { silent: true }).then(
      (result) => {
        if (!live) return;
        setItems(result.data as unknown as Item[]);
        setCount(result.count ?? 0);
        setStatus('ready');
      },
      () => live && setStatus('error'),
    );
    return () => {
      live = false;
    };
  }, [name, key, page, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  return { items, count, page, pages, setPage, status, reload };
}

/** The console's short lists, asked whole: they take no body and answer an array. */
type WholeRoute = 'manageDepartmentList' | 'manageKeywordLists' | 'manageSsoList';

/** A console list short enough to ask whole (not paged), asked again on `reload`. */
export function useWhole<N extends WholeRoute>(name: N) {
  type Item = RouteResponses[N] extends readonly (infer I)[] ? I : never;
  const [items, setItems] = useState<Item[]>([]);
  const [status, setStatus] = useState<LoadStatus>('loading');
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    setStatus('loading');
    request(name, {} as never, { silent: true }).then(
      (result) => {
        if (!live) return;
        setItems(result.data as unknown as Item[]);
        setStatus('ready');
      },
      () => live && setStatus('error'),
    );
    return () => {
      live = false;
    };
  }, [name, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { items, status, reload };
}
