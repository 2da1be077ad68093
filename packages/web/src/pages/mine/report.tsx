import {
  REPORT_KINDS,
  REPORT_PICTURES_MAX,
  REPORT_REASONS,
  REPORT_TEXT_MAX,
  type ReportKind,
  type ReportReason,
  type UploadResult,
} from '@sparrow/protocol';
import { AddOutline, CheckCircleOutline, CheckOutline, CloseOutline, RedoOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import '../../components/moments/moments.css';
import { randomUuid } from '../../lib/ids';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import '../pages.css';
import './report.css';

interface Picked {
  key: string;
  file: File;
  preview: string;
  state: 'uploading' | 'done' | 'failed';
  fileId?: number;
}

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
  const [pics, setPics] = useState<Picked[]>([]);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const previews = useRef(new Set<string>());

  useEffect(() => {
    const urls = previews.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const patch = (key: string, change: Partial<Picked>) =>
    setPics((p) => p.map((x) => (x.key === key ? { ...x, ...change } : x)));

  const upload = async (file: File, key: string) => {
    patch(key, { state: 'uploading' });
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const up = (await api.uploadFile(form, { silent: true })) as UploadResult;
      patch(key, { state: 'done', fileId: up.file_id });
    } catch {
      patch(key, { state: 'failed' });
    }
  };

  const pick = (files: FileList | null) => {
    if (!files) return;
    const added: Picked[] = [...files].slice(0, REPORT_PICTURES_MAX - pics.length).map((file) => {
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      return { key: randomUuid(), file, preview, state: 'uploading' };
    });
    setPics((p) => [...p, ...added]);
    for (const a of added) void upload(a.file, a.key);
  };

  const uploading = pics.some((p) => p.state === 'uploading');
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
          file_ids: pics.filter((p) => p.state === 'done').map((p) => p.fileId!),
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
        <fieldset className="cell-group option-list">
          <legend className="report-legend">{t('report.reasonLegend')}</legend>
          <ul className="cells">
            {REPORT_REASONS.map((r) => (
              <li key={r}>
                <label className="cell">
                  <input type="radio" name="reason" checked={reason === r} onChange={() => setReason(r)} />
                  <span className="cell-title">{t(`report.reason.${r}`)}</span>
                  {reason === r && <CheckOutline className="cell-check" aria-hidden="true" />}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
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
        <ul className="moment-grid moment-grid-3 moment-picks report-picks" aria-labelledby="report-pictures">
          {pics.map((p, i) => (
            <li key={p.key} className={`moment-image moment-pick-${p.state}`}>
              <img src={p.preview} alt={t('report.pictureN', { n: i + 1 })} />
              {p.state === 'uploading' && <span className="moment-pick-state">{t('report.uploading')}</span>}
              {p.state === 'failed' && (
                <button
                  type="button"
                  className="moment-pick-state moment-pick-retry"
                  onClick={() => void upload(p.file, p.key)}
                >
                  <RedoOutline aria-hidden="true" /> {t('report.uploadFailed')}
                </button>
              )}
              <button
                type="button"
                className="moment-pick-remove"
                aria-label={t('report.removePicture', { n: i + 1 })}
                onClick={() => setPics((all) => all.filter((x) => x.key !== p.key))}
              >
                <CloseOutline aria-hidden="true" />
              </button>
            </li>
          ))}
          {pics.length < REPORT_PICTURES_MAX && (
            <li className="moment-image moment-pick-add">
              <label>
                <AddOutline aria-hidden="true" />
                <span className="visually-hidden">{t('report.addPictures')}</span>
                <input
                  type="file"
                  accept="image/*"
                  multiple
                  className="visually-hidden"
                  onChange={(e) => {
                    pick(e.target.files);
                    e.target.value = '';
                  }}
                />
              </label>
            </li>
          )}
        </ul>
      </div>
    </Page>
  );
}
