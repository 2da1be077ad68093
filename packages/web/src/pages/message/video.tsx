import { DownlandOutline, LeftOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { storageUrl } from '../../lib/media-url';
import { useBack } from '../../nav/navigation';
import './media-pages.css';

/**
 * Video playback (docs/product.md §2 `/pages/message/video?src=…&poster=…`): full screen on black, playing at
 * once. Only files of this server's storage play here, never an address from elsewhere.
 */
export default function VideoPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const back = useBack();
  const src = storageUrl(params.get('src'));
  const poster = storageUrl(params.get('poster'));
  const [failed, setFailed] = useState(false);
  const name = src ? decodeURIComponent(src.split('?')[0]!.split('/').pop() ?? '') : '';

  return (
    <div className="page video-page">
      <header className="video-bar">
        <button type="button" className="video-button" aria-label={t('common.back')} onClick={back}>
          <LeftOutline aria-hidden="true" />
        </button>
        <h1 className="visually-hidden">{t('media.routes.video')}</h1>
        {src && (
          <a className="video-button" href={src} download={name} aria-label={t('media.video.download')}>
            <DownlandOutline aria-hidden="true" />
          </a>
        )}
      </header>
      <main id="main" className="video-main">
        {src && !failed ? (
          <video
            className="video-player"
            src={src}
            poster={poster ?? undefined}
            controls
            autoPlay
            playsInline
            aria-label={t('media.routes.video')}
            onError={() => setFailed(true)}
          />
        ) : (
          <p className="video-failed" role="alert">
            {t('media.video.cannotPlay')}
          </p>
        )}
      </main>
    </div>
  );
}
