import {
  REPORT_KINDS,
  REPORT_PICTURES_MAX,
  REPORT_REASONS,
  REPORT_TEXT_MAX,
  type ReportKind,
  type ReportReason,
} from '@sparrow/protocol';
import { CheckCircleOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { OptionList } from '../../components/Cell';
import { EmptyState } from '../../components/EmptyState';
import { PicturePicks, usePicturePicks } from '../../components/moments/PicturePicks';
import { Page } from '../../components/Page';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import '../pages.css';
import './report.css';

/** The reported thing the query names: `kind` and `id` (a number, or `group-<n>` for a group). */
function targetOf(params: URLSearchParams): { kind: ReportKind; id: number | string } | null {
  const kind = params.get('kind') as ReportKind | null;
  const raw = params.get('id') ?? '';
  if (!kind || !REPORT_KINDS.includes(kind)) return null;
  if (kind === 'group' && /^group-[1-9]\d*$/.test(raw)) return { kind, id: raw };
  return /^[1-9]\d*$/.test(raw) ? { kind, id: Number(raw) } : null;
}

/**
 * 投诉 (`/pages/mine/report?kind=&id=`): why (one reason of the list), what happened in a few
 * words, a few screenshots; sent, it says so and where its outcome will show.
 */
export default function ReportPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = useBackTo(paths.home);
  const [params] = useSearchParams();
  const target = targetOf(params);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [text, setText] = useState('');
  const picks = usePicturePicks(REPORT_PICTURES_MAX);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const { uploading, fileIds } = picks;
  const canSend = target !== null && reason !== null && !busy && !uploading;

  const handleSubmit = async () => {
    if (!target || !reason) return;
    setBusy(true);
    try {
      await api.report(
        {
          kind: target.kind,
          id: target.id,
          reason,
          ...(text.trim() && { text: text.trim() }),
          file_ids: fileIds,
        },
        { loading: true },
      );
      setSent(true);
    } finally {
      setBusy(false);
    }
  };

  if (sent)
    return (
      <Page title={t('report.title')} onBack={back}>
        <EmptyState icon={<CheckCircleOutline />} title={t('report.sentTitle')} description={t('report.sentDesc')}>
          <div className="report-sent-actions">
            <button
              type="button"
              className="button button-default"
              onClick={() => void navigate(paths.reports, { replace: true })}
            >
              {t('report.viewMine')}
            </button>
            <button type="button" className="button button-primary" onClick={back}>
              {t('report.done')}
            </button>
          </div>
        </EmptyState>
      </Page>
    );

  if (!target)
    return (
      <Page title={t('report.title')} onBack={back}>
        <p className="report-bad-link">{t('report.badLink')}</p>
      </Page>
    );

  return (
    <Page
      title={t('report.title')}
      onBack={back}
      footer={
        <div className="report-footer">
          <button
            type="button"
            className="button button-primary"
            disabled={!canSend}
            onClick={() => void handleSubmit()}
          >
            {t('report.submit')}
          </button>
        </div>
      }
    >
      <div className="report-page">
        <h2 className="report-target">{t(`report.target.${target.kind}`)}</h2>
        <OptionList
          legend={t('report.reasonLegend')}
          legendClassName="report-legend"
          name="reason"
          options={REPORT_REASONS}
          value={reason}
          label={(r) => t(`report.reason.${r}`)}
          onChange={setReason}
        />
        <label className="report-legend" htmlFor="report-text">
          {t('report.text')}
        </label>
        <div className="report-text-box">
          <textarea
            id="report-text"
            className="moment-publish-text"
            value={text}
            maxLength={REPORT_TEXT_MAX}
            rows={4}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('report.textPlaceholder')}
          />
          <span className="report-count" aria-hidden="true">
            {t('report.textCount', { count: [...text].length, max: REPORT_TEXT_MAX })}
          </span>
        </div>
        <p className="report-legend" id="report-pictures">
          {t('report.pictures', { max: REPORT_PICTURES_MAX })}
        </p>
        <PicturePicks picks={picks} className="report-picks" aria-labelledby="report-pictures" />
      </div>
    </Page>
  );
}
