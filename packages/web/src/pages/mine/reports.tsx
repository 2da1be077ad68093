import type { MyReport } from '@sparrow/protocol';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { EmptyState } from '../../components/EmptyState';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { Page } from '../../components/Page';
import { appEvents } from '../../chat/events';
import { useLoaded } from '../../lib/use-loaded';
import { formatSeparator } from '../../lib/relative-time';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import '../pages.css';
import './report.css';

/** What became of a report, in words: where it stands, or its outcome once closed. */
function outcomeKey(r: MyReport): 'report.outcome.acted' | 'report.outcome.dismissed' | null {
  if (r.status !== 'closed' || r.warned) return null;
  return r.action === 'dismiss' ? 'report.outcome.dismissed' : 'report.outcome.acted';
}

/**
 * 我的投诉 (`/pages/mine/reports`): my reports, newest first, each with where it stands and, once
 * closed, its outcome; and the warnings an admin gave me after a report about me. A notice of
 * an outcome arriving while it is open reads the list again.
 */
export default function ReportsPage() {
  const { t, i18n } = useTranslation();
  const back = useBackTo(paths.setting);
  const fetch = useCallback(() => api.reportMine({}, { silent: true }), []);
  const { data, status, reload } = useLoaded(fetch);

  useEffect(() => appEvents.on('reportNotice', () => void reload()), [reload]);

  const now = Date.now();
  return (
    <Page title={t('report.mine')} onBack={back}>
      {!data && status === 'loading' && <DelayedSpinner />}
      {!data && status === 'error' && (
        <EmptyState icon={<ExclamationCircleOutline />} title={t('report.loadFailed')} description="">
          <button type="button" className="button button-default" onClick={() => void reload()}>
            {t('common.retry')}
          </button>
        </EmptyState>
      )}
      {data?.length === 0 && (
        <EmptyState icon={<ExclamationCircleOutline />} title={t('report.empty')} description={t('report.emptyDesc')} />
      )}
      {data && data.length > 0 && (
        <ul className="report-list" aria-label={t('report.mine')}>
          {data.map((r) => {
            const kind = t(`report.kind.${r.kind}`);
            const reason = t(`report.reason.${r.reason}`);
            const outcome = outcomeKey(r);
            return (
              <li key={`${r.warned ? 'w' : 'r'}${r.id}`} className="report-item">
                <span className="report-item-head">
                  <span>
                    {r.warned ? t('report.warnedItem', { kind, reason }) : t('report.item', { kind, reason })}
                  </span>
                  <span className="report-item-status">
                    {r.warned ? t('report.warned') : t(`report.status.${r.status}`)}
                  </span>
                </span>
                {outcome && <p className="report-item-outcome">{t(outcome)}</p>}
                <p className="report-item-time">
                  {formatSeparator(r.closed_time || r.create_time, now, t, i18n.language)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </Page>
  );
}
