import type { AuditRow, ManageStats } from '@sparrow/protocol';
import { HistogramOutline } from 'antd-mobile-icons';
import { useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { api, request } from '../../api';
import { formatFileSize } from '../../lib/file-size';
import { useLoaded } from '../../lib/use-loaded';
import { useSession } from '../../stores/session';
import { auditWords } from './audit-text';
import type { ManageKey, ManageT } from './i18n';
import { formatTime, ListState } from './parts';
import { manageTabPath } from './tabs';

type ChartProps = { days: ManageStats['messagesPerDay']; series: string; locale: string };

function uptime(seconds: number, t: ManageT): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return t('dashboard.uptimeValue', { d, h, m });
}

/** The chart, fetched with its library only when the dashboard shows. */
function Chart({ stats, t, locale }: { stats: ManageStats; t: ManageT; locale: string }) {
  const [Loaded, setLoaded] = useState<ComponentType<ChartProps> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('./Chart').then(
      (m) => live && setLoaded(() => m.default),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  const days = stats.messagesPerDay;
  const total = days.reduce((n, d) => n + d.count, 0);
  const busiest = days.reduce((a, b) => (b.count > a.count ? b : a), days[0] ?? { day: '', count: 0 });
  return (
    <figure className="manage-chart">
      <figcaption className="manage-section-title">{t('dashboard.chartTitle')}</figcaption>
      {failed ? (
        <p className="manage-status">{t('dashboard.chartFailed')}</p>
      ) : Loaded ? (
        <Loaded days={days} series={t('dashboard.chartSeries')} locale={locale} />
      ) : (
        <div className="manage-chart-plot" />
      )}
      <p className="manage-chart-summary">
        {t('dashboard.chartSummary', { total, max: busiest.count, day: busiest.day })}
      </p>
    </figure>
  );
}

/** The counts and the latest audit rows, as the page opens. */
async function readDashboard(): Promise<{ stats: ManageStats; audit: AuditRow[] }> {
  const [stats, audit] = await Promise.all([
    api.manageStats({}, { silent: true }),
    request('manageAuditList', { limit: 10 }, { silent: true }),
  ]);
  return { stats, audit: audit.data };
}

/** 概览: counts, the messages of 30 days, what the server is, and the latest audit rows. */
export function Dashboard({ t, locale }: { t: ManageT; locale: string }) {
  const { data, status, reload: load } = useLoaded(readDashboard);
  const me = useSession((s) => s.user?.user_id ?? 0);
  const stats = data?.stats;
  const audit = data?.audit ?? [];

  if (!stats || status !== 'ready')
    return (
      <ListState
        status={status === 'error' ? 'error' : 'loading'}
        empty={{ icon: <HistogramOutline />, title: '', description: '' }}
        t={t}
        onRetry={() => void load()}
      />
    );

  const number = new Intl.NumberFormat(locale);
  const cards: [ManageKey, string][] = [
    ['dashboard.users', number.format(stats.users)],
    ['dashboard.online', number.format(stats.online)],
    ['dashboard.groups', number.format(stats.groups)],
    ['dashboard.messagesToday', number.format(stats.messagesToday)],
    ['dashboard.storage', formatFileSize(stats.storageBytes)],
    ['dashboard.version', stats.version],
    ['dashboard.uptime', uptime(stats.uptimeS, t)],
  ];
  return (
    <>
      <dl className="manage-cards">
        {cards.map(([label, value]) => (
          <div key={label} className="manage-card">
            <dt>{t(label)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Chart stats={stats} t={t} locale={locale} />
      <section className="manage-section" aria-labelledby="manage-audit">
        <h2 className="manage-section-title" id="manage-audit">
          {t('dashboard.audit')}
        </h2>
        {audit.length === 0 ? (
          <p className="manage-status">{t('dashboard.auditEmpty')}</p>
        ) : (
          <ul className="manage-list">
            {audit.map((row) => {
              const words = auditWords(row, t, me);
              return (
                <li key={row.id} className="manage-row">
                  <div className="manage-row-main">
                    <p className="manage-row-title">
                      {words.what} · {words.target}
                    </p>
                    <p className="manage-row-sub">
                      {words.who} · {words.where} · {formatTime(row.create_time, locale)}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        <p className="manage-more">
          <Link to={manageTabPath('audit')} replace>
            {t('dashboard.auditAll')}
          </Link>
        </p>
      </section>
    </>
  );
}
