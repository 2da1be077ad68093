import { TeamOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { groups, type GroupEntry } from '../../stores/group';
import { DelayedSpinner } from '../DelayedSpinner';
import { EmptyState } from '../EmptyState';
import { Page } from '../Page';

/**
 * What a group page shows until it has its group: not found (no or a bad id), failed to load
 * (with a retry), or a spinner.
 */
export function GroupPending({
  id,
  title,
  entry,
}: {
  id: string | null;
  title: string;
  entry: GroupEntry | undefined;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page title={title}>
      {!id ? (
        <EmptyState icon={<TeamOutline />} title={t('group.info.notFound')} description={t('group.info.notFoundDesc')}>
          <div className="actions">
            <button type="button" className="button button-default" onClick={() => void navigate(-1)}>
              {t('common.back')}
            </button>
          </div>
        </EmptyState>
      ) : entry?.status === 'error' ? (
        <EmptyState icon={<TeamOutline />} title={t('group.info.loadFailed')} description={entry.error}>
          <div className="actions">
            <button type="button" className="button button-primary" onClick={() => void groups.load(id)}>
              {t('common.retry')}
            </button>
          </div>
        </EmptyState>
      ) : (
        <DelayedSpinner />
      )}
    </Page>
  );
}
