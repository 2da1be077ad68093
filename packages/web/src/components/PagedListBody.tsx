import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PagedList, PagedListState } from '../lib/paged-list';
import { EmptyState } from './EmptyState';

interface Props<T> {
  list: PagedListState<T>;
  pager: PagedList<T>;
  /** The empty state's icon, loaded or not. */
  icon: ReactNode;
  /** Said when the first page could not be read, above 重试. */
  loadFailed: string;
  /** Said when nothing is found. */
  empty: { title: string; description: string };
  /** The line above the list, given how many there are. */
  total: (count: number) => string;
  /** Said below the last page. */
  end: string;
  /** The list itself. */
  children: ReactNode;
}

/**
 * The body of a page listing what a `PagedList` reads (files, favourites): a spinner while the first
 * page comes, 重试 when it failed, the empty state, or the count, the list and, below it, the next
 * page read as it scrolls into view.
 */
export function PagedListBody<T>({ list, pager, icon, loadFailed, empty, total, end, children }: Props<T>) {
  const { t } = useTranslation();
  const hasMore = list.status === 'ready' && list.more;
  const loadingMore = list.next === 'loading';

  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void pager.loadMore();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, pager]);

  if (list.status === 'loading')
    return (
      <div className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span className="visually-hidden">{t('common.loading')}</span>
      </div>
    );
  if (list.status === 'failed')
    return (
      <EmptyState icon={icon} title={loadFailed} description="">
        <button type="button" className="button button-default files-retry" onClick={() => void pager.start()}>
          {t('common.retry')}
        </button>
      </EmptyState>
    );
  if (list.items.length === 0) return <EmptyState icon={icon} title={empty.title} description={empty.description} />;
  return (
    <>
      <p className="files-total">{total(list.total ?? list.items.length)}</p>
      {children}
      <div ref={sentinel} className="files-more" role="status">
        {loadingMore ? t('common.loading') : hasMore ? '' : end}
      </div>
    </>
  );
}
