import { CloseCircleOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import type { ManageT } from './i18n';

/** A list's state when it has nothing to show: loading, failed (with a retry) or empty. */
export function ListState({
  status,
  empty,
  t,
  onRetry,
}: {
  status: 'loading' | 'error' | 'empty';
  empty: { icon: ReactNode; title: string; description: string };
  t: ManageT;
  onRetry: () => void;
}) {
  if (status === 'loading')
    return (
      <p className="manage-status" role="status">
        {t('common.loading')}
      </p>
    );
  if (status === 'error')
    return (
      <EmptyState icon={<CloseCircleOutline />} title={t('common.failed')} description={t('common.failedDesc')}>
        <button type="button" className="button button-primary" onClick={onRetry}>
          {t('common.retry')}
        </button>
      </EmptyState>
    );
  return <EmptyState {...empty} />;
}

/** Previous and next page, with where we are. */
export function Pager({
  page,
  pages,
  count,
  onPage,
  t,
}: {
  page: number;
  pages: number;
  count: number;
  onPage: (page: number) => void;
  t: ManageT;
}) {
  return (
    <nav className="manage-pager" aria-label={t('common.page', { page, pages, count })}>
      <button type="button" className="button button-default" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('common.prev')}
      </button>
      <span className="manage-pager-text">{t('common.page', { page, pages, count })}</span>
      <button type="button" className="button button-default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}

/** A date and time in the reader's language. */
export function formatTime(ms: number, locale: string): string {
  return new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}
