import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../EmptyState';

/** What a moments page shows while its first read is on its way. */
export function MomentsLoading() {
  const { t } = useTranslation();
  return (
    <p className="moment-end" role="status">
      {t('common.loading')}
    </p>
  );
}

/** What a moments page shows when its read failed and there is nothing to show: why, and a retry. */
export function MomentsFailed({ icon, title, onRetry }: { icon: ReactNode; title: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState icon={icon} title={title} description={t('moments.failedHint')}>
      <button type="button" className="button button-primary" onClick={onRetry}>
        {t('common.retry')}
      </button>
    </EmptyState>
  );
}
