import { EXPORT_DOWNLOAD_PATH, type DataExport } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { formatSize } from '../../lib/linkify';
import { formatDateTime } from '../../lib/relative-time';
import { saveFile } from '../../lib/save-file';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { dataExports } from '../../stores/data-export';
import { sessionStore } from '../../stores/session';

/** Fetches the archive with my session (a plain link could not send it) and saves it. */
async function saveArchive(id: number): Promise<void> {
  const token = sessionStore.getState().token;
  const res = await fetch(`${EXPORT_DOWNLOAD_PATH}?id=${id}`, { headers: token ? { Authorization: token } : {} });
  if (!res.ok) throw new Error(`download ${res.status}`);
  saveFile(await res.blob(), `sparrow-data-${id}.zip`);
}

/** 下载我的数据: ask for an archive, watch it being prepared, download it until it expires. */
export function DataExportPage() {
  const { t, i18n } = useTranslation();
  const back = useBackTo(paths.secure);
  const [current, setCurrent] = useState<DataExport | null | undefined>(undefined);

  useEffect(() => {
    let live = true;
    const stop = dataExports.subscribe((data) => setCurrent((now) => (!now || data.id >= now.id ? data : now)));
    api
      .exportStatus({}, { quiet: true })
      .then((data) => {
        if (live) setCurrent((now) => (now && data && now.id > data.id ? now : data));
      })
      .catch(() => live && setCurrent(null));
    return () => {
      live = false;
      stop();
    };
  }, []);

  const handleRequest = async () => {
    setCurrent(await api.exportRequest({}, { loading: true }));
  };

  const handleDownload = async (id: number) => {
    try {
      await saveArchive(id);
    } catch {
      feedback.toast(t('secure.exportDownloadFailed'));
    }
  };

  const working = current?.state === 'queued' || current?.state === 'running';
  const expiry = current?.expire_time ? formatDateTime(current.expire_time, i18n.language) : '';

  return (
    <Page title={t('secure.exportTitle')} onBack={back}>
      <p className="form-note">{t('secure.exportIntro')}</p>
      {current !== undefined && (
        <section className="form-note" aria-live="polite">
          {working && current && (
            <>
              <p>{current.state === 'queued' ? t('secure.exportQueued') : t('secure.exportRunning')}</p>
              <progress
                max={100}
                value={current.progress}
                aria-label={t('secure.exportProgress')}
                style={{ width: '100%' }}
              >
                {current.progress}%
              </progress>
              <p>{t('secure.exportPercent', { progress: current.progress })}</p>
            </>
          )}
          {current?.state === 'done' && (
            <>
              <p>{t('secure.exportReady', { size: formatSize(current.size) })}</p>
              <p>{t('secure.exportExpires', { time: expiry })}</p>
            </>
          )}
          {current?.state === 'expired' && <p>{t('secure.exportExpired')}</p>}
          {current?.state === 'failed' && <p>{t('secure.exportFailed')}</p>}
        </section>
      )}
      {current !== undefined && !working && (
        <div className="actions">
          {current?.state === 'done' && (
            <button type="button" className="button button-primary" onClick={() => void handleDownload(current.id)}>
              {t('secure.exportDownload')}
            </button>
          )}
          <button
            type="button"
            className={current?.state === 'done' ? 'button button-default' : 'button button-primary'}
            onClick={() => void handleRequest()}
          >
            {current ? t('secure.exportAgain') : t('secure.exportRequest')}
          </button>
        </div>
      )}
    </Page>
  );
}
