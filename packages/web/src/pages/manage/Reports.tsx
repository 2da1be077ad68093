import {
  messagePreview,
  REPORT_MUTE_MINUTES,
  REPORT_STATUSES,
  reportActionsFor,
  type ManagedReport,
  type ManagedReportDetail,
  type ReportAction,
  type ReportStatus,
} from '@sparrow/protocol';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { translate } from '../../i18n';
import type { ManageT } from './i18n';
import { usePaged } from './paged';
import { formatTime, ListState, PagedRows } from './parts';

type Filter = ReportStatus | '';

/** A queue row's title and who it concerns. */
function ReportSummary({ r, t, locale }: { r: ManagedReport; t: ManageT; locale: string }) {
  return (
    <div className="manage-row-main">
      <p className="manage-row-title">
        {t('reports.rowTitle', {
          id: r.id,
          kind: t(`reports.kind.${r.kind}`),
          reason: t(`reports.reason.${r.reason}`),
        })}
        <span className={`manage-tag${r.status === 'new' ? ' manage-tag-off' : ''}`}>
          {t(`reports.status.${r.status}`)}
        </span>
      </p>
      <p className="manage-row-sub">
        {t('reports.reporter', { name: r.reporter.realname || r.reporter.account })} ·{' '}
        {t('reports.target', { name: r.target_user.realname || r.target_user.account })}
      </p>
      <p className="manage-row-sub">
        {formatTime(r.create_time, locale)}
        {r.action && ` · ${t('reports.outcome', { action: t(`reports.action.${r.action}`) })}`}
        {r.handler_name && ` · ${t('reports.handler', { name: r.handler_name })}`}
      </p>
    </div>
  );
}

/** What a report saw when it was made, as the reporter saw it. */
function Evidence({ report, t, locale }: { report: ManagedReportDetail; t: ManageT; locale: string }) {
  const e = report.evidence;
  switch (e.kind) {
    case 'message':
      return (
        <>
          <p className="manage-row-sub">{t('reports.chat', { name: e.chat_name })}</p>
          <ol className="manage-evidence" aria-label={t('reports.evidence')}>
            {e.messages.map((m) => {
              const reported = m.msg_id === e.msg_id;
              return (
                <li
                  key={m.msg_id}
                  className={`manage-evidence-line${reported ? ' manage-evidence-reported' : ''}`}
                  aria-current={reported ? 'true' : undefined}
                >
                  {reported && <span className="manage-tag manage-tag-off">{t('reports.reported')}</span>}
                  <span className="manage-evidence-who">
                    {m.type === 'event' ? '' : `${m.fromUser.displayName || m.fromUser.realname}：`}
                  </span>
                  {m.type === 'image' ? (
                    <img className="manage-evidence-image" src={m.content} alt={messagePreview(m, translate)} />
                  ) : (
                    <span>{m.type === 'text' || m.type === 'event' ? m.content : messagePreview(m, translate)}</span>
                  )}
                  <span className="manage-row-sub"> · {formatTime(m.sendTime, locale)}</span>
                </li>
              );
            })}
          </ol>
        </>
      );
    case 'moment':
      return (
        <div className="manage-evidence">
          <p className="manage-row-title">{e.post.realname}</p>
          <p className="manage-notice-text">{e.post.content}</p>
          <div className="manage-pictures">
            {e.post.pictures.map((p, i) => (
              <img key={p.file_id} src={p.thumb} alt={t('reports.pictureN', { n: i + 1 })} />
            ))}
          </div>
          <p className="manage-row-sub">{formatTime(e.post.create_time, locale)}</p>
        </div>
      );
    case 'user':
      return (
        <div className="manage-evidence">
          <p className="manage-row-title">
            {e.user.realname} <span className="manage-code">@{e.user.account}</span>
          </p>
          {e.user.motto && <p className="manage-row-sub">{t('reports.motto', { motto: e.user.motto })}</p>}
        </div>
      );
    case 'group':
      return (
        <div className="manage-evidence">
          <p className="manage-row-title">{e.group.name}</p>
          <p className="manage-row-sub">
            {t('reports.members', { count: e.group.member_count })} · {t('reports.owner', { id: e.group.owner_id })}
          </p>
          {e.group.notice && (
            <p className="manage-notice-text">{t('reports.groupNotice', { notice: e.group.notice })}</p>
          )}
        </div>
      );
  }
}

/** One report opened: what it concerns, what the reporter said and showed, and the actions that fit it. */
function ReportDetail({ id, t, locale, onClose }: { id: number; t: ManageT; locale: string; onClose: () => void }) {
  const [report, setReport] = useState<ManagedReportDetail | null>(null);
  const [failed, setFailed] = useState(false);
  const [minutes, setMinutes] = useState<number>(REPORT_MUTE_MINUTES[1]);
  const [busy, setBusy] = useState(false);
  const muteId = useId();

  const load = useCallback(() => {
    setFailed(false);
    api.manageReportGet({ id }, { silent: true }).then(setReport, () => setFailed(true));
  }, [id]);
  useEffect(load, [load]);

  const act = async (action: ReportAction) => {
    const ok = await feedback.confirm({
      content: t('reports.confirm', { id, action: t(`reports.action.${action}`) }),
      confirmText: t(`reports.action.${action}`),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      await api.manageReportAct({ id, action, ...(action === 'mute' && { minutes }) }, { loading: true, quiet: true });
      feedback.toast(t('reports.done'));
      onClose();
    } catch {
      // The server's message was shown (another admin may have closed it first): read it again.
      load();
    } finally {
      setBusy(false);
    }
  };

  if (!report) return <ListState status={failed ? 'error' : 'loading'} empty={EMPTY(t)} t={t} onRetry={load} />;
  const open = report.status !== 'closed';
  return (
    <section className="manage-section" aria-labelledby="manage-report">
      <div className="manage-inline manage-report-back">
        <button type="button" className="button button-default" onClick={onClose}>
          {t('reports.back')}
        </button>
      </div>
      <h2 className="manage-section-title" id="manage-report">
        {t('reports.detail', { id: report.id })}
      </h2>
      <div className="manage-list">
        <div className="manage-row">
          <ReportSummary r={report} t={t} locale={locale} />
        </div>
        <div className="manage-row">
          <div className="manage-row-main">
            <p className="manage-row-sub">{t('reports.text')}</p>
            <p className="manage-notice-text">{report.text || t('reports.noText')}</p>
            {report.pictures.length > 0 && (
              <>
                <p className="manage-row-sub">{t('reports.pictures')}</p>
                <div className="manage-pictures">
                  {report.pictures.map((p, i) => (
                    <a key={p.file_id} href={p.src} target="_blank" rel="noreferrer">
                      <img src={p.thumb} alt={t('reports.pictureN', { n: i + 1 })} />
                    </a>
                  ))}
                </div>
              </>
            )}
          </div>
        </div>
        <div className="manage-row">
          <div className="manage-row-main">
            <h3 className="manage-row-sub">{t('reports.evidence')}</h3>
            <Evidence report={report} t={t} locale={locale} />
          </div>
        </div>
        {open && (
          <div className="manage-row">
            <div className="manage-row-actions manage-report-actions" role="group" aria-label={t('reports.act')}>
              {reportActionsFor(report.kind).map((action) =>
                action === 'mute' ? (
                  <span key={action} className="manage-field">
                    <label htmlFor={muteId}>{t('reports.muteFor')}</label>
                    <select id={muteId} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
                      {REPORT_MUTE_MINUTES.map((m) => (
                        <option key={m} value={m}>
                          {t(`reports.durations.${m}`)}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      className="button button-default"
                      disabled={busy}
                      onClick={() => void act(action)}
                    >
                      {t('reports.action.mute')}
                    </button>
                  </span>
                ) : (
                  <button
                    key={action}
                    type="button"
                    className={`button ${action === 'dismiss' || action === 'warn' ? 'button-default' : 'button-danger'}`}
                    disabled={busy}
                    onClick={() => void act(action)}
                  >
                    {t(`reports.action.${action}`)}
                  </button>
                ),
              )}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}

const EMPTY = (t: ManageT) => ({
  icon: <ExclamationCircleOutline />,
  title: t('reports.empty'),
  description: t('reports.emptyDesc'),
});

/**
 * 投诉: the report queue, newest first, of one status; opening a report shows what it concerns and
 * puts a new one in review; each action closes it and tells the reporter.
 */
export function Reports({ t, locale }: { t: ManageT; locale: string }) {
  const [status, setStatus] = useState<Filter>('new');
  const [opened, setOpened] = useState<number | null>(null);
  const list = usePaged('manageReportList', status ? { status } : {});
  const filterId = useId();

  if (opened !== null)
    return (
      <ReportDetail
        id={opened}
        t={t}
        locale={locale}
        onClose={() => {
          setOpened(null);
          list.reload();
        }}
      />
    );
  return (
    <>
      <form className="manage-filters" aria-label={t('reports.filter')} onSubmit={(e) => e.preventDefault()}>
        <div className="manage-field">
          <label htmlFor={filterId}>{t('reports.filter')}</label>
          <select id={filterId} value={status} onChange={(e) => setStatus(e.target.value as Filter)}>
            {REPORT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`reports.status.${s}`)}
              </option>
            ))}
            <option value="">{t('reports.status.all')}</option>
          </select>
        </div>
      </form>
      <PagedRows list={list} empty={EMPTY(t)} t={t}>
        {list.items.map((r) => (
          <li key={r.id} className="manage-row">
            <ReportSummary r={r} t={t} locale={locale} />
            <div className="manage-row-actions">
              <button
                type="button"
                className="button button-default"
                aria-label={t('reports.openTitle', { id: r.id })}
                onClick={() => setOpened(r.id)}
              >
                {t('reports.open')}
              </button>
            </div>
          </li>
        ))}
      </PagedRows>
    </>
  );
}
