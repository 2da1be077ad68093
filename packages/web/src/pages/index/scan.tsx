import { ExclamationTriangleOutline, PictureOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { decodeCanvas, decodeFile, drawScaled, preloadDecoder } from '../../components/qr/decode';
import { useCamera } from '../../components/qr/use-camera';
import { copyText } from '../../lib/clipboard';
import { FROM_SCANNER, ownBases, scanTarget } from '../../lib/scan-target';
import { chatPath, paths, withQuery } from '../../nav/paths';
import { sessionStore } from '../../stores/session';
import '../../components/qr/qr.css';

/** How often a camera frame is read, ms. */
const FRAME_MS = 200;
/** Camera frames are read at most this large, px: enough for a code held in the frame. */
const FRAME_MAX = 720;

/** A torch, for the camera's light (antd-mobile-icons has none). */
function TorchIcon() {
  return (
    <svg
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d="M7 3h10v4l-3 4v10h-4V11L7 7z" strokeLinejoin="round" />
      <path d="M12 13v3" strokeLinecap="round" />
    </svg>
  );
}

/** Text that is no link of ours nor a web address: shown, to copy. */
function TextResult({ text, onAgain }: { text: string; onAgain: () => void }) {
  const { t } = useTranslation();
  const handleCopy = async () => feedback.toast(t((await copyText(text)) ? 'qr.scan.copied' : 'qr.scan.copyFailed'));
  return (
    <section className="scan-result" aria-labelledby="scan-result-title">
      <h2 id="scan-result-title">{t('qr.scan.result')}</h2>
      <p>{t('qr.scan.resultDesc')}</p>
      <p className="scan-result-text">{text}</p>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={() => void handleCopy()}>
          {t('qr.scan.copy')}
        </button>
        <button type="button" className="button button-default" onClick={onAgain}>
          {t('qr.scan.again')}
        </button>
      </div>
    </section>
  );
}

/**
 * 扫一扫 (`/pages/index/scan`): the back camera with a viewfinder, the torch where the camera has
 * one, and "album" to read a picture. A code of this server opens its landing page (a group I am
 * in opens its chat), another web address the in-app browser, any other text is shown to copy.
 * Without a camera (refused, missing, an insecure page) the page says why and offers the album.
 */
export default function ScanPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const video = useRef<HTMLVideoElement>(null);
  const handling = useRef(false);
  const [text, setText] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const camera = useCamera(video, text === null);

  useEffect(preloadDecoder, []);

  const handle = useCallback(
    async (decoded: string) => {
      const target = scanTarget(decoded, ownBases(window.location, sessionStore.getState().user?.qrUrl));
      if (target.kind === 'text') {
        setText(target.text);
        return;
      }
      if (target.kind === 'web') {
        void navigate(withQuery(paths.webview, { url: target.url }), { replace: true });
        return;
      }
      if (target.qr === 'group') {
        // A member scanning their own group's code goes straight to the chat.
        const group = await api.groupInfoqq({ token: target.token }, { silent: true }).catch(() => null);
        if (group?.isJoin) {
          void navigate(chatPath(group.group_id), { replace: true });
          return;
        }
      }
      void navigate(target.path, { replace: true, state: FROM_SCANNER });
    },
    [navigate],
  );

  // Reads the camera a few times a second until a code is found.
  useEffect(() => {
    if (camera.state !== 'live' || text !== null) return;
    const canvas = document.createElement('canvas');
    let busy = false;
    const timer = setInterval(() => {
      const el = video.current;
      if (busy || handling.current || !el || el.readyState < 2 || !el.videoWidth) return;
      busy = true;
      drawScaled(canvas, el, el.videoWidth, el.videoHeight, FRAME_MAX);
      decodeCanvas(canvas)
        .then(async (decoded) => {
          if (!decoded || handling.current) return;
          handling.current = true;
          await handle(decoded);
        })
        .catch(() => {
          // A frame that cannot be read: the next one is tried.
        })
        .finally(() => {
          busy = false;
        });
    }, FRAME_MS);
    return () => clearInterval(timer);
  }, [camera.state, text, handle]);

  const handlePick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || handling.current) return;
    setReading(true);
    handling.current = true;
    try {
      const decoded = await decodeFile(file);
      if (decoded) await handle(decoded);
      else {
        feedback.toast(t('qr.scan.notFound'));
        handling.current = false;
      }
    } catch {
      feedback.toast(t('qr.scan.notFound'));
      handling.current = false;
    } finally {
      setReading(false);
    }
  };

  const handleAgain = () => {
    handling.current = false;
    setText(null);
  };

  if (text !== null) {
    return (
      <Page title={t('qr.routes.scan')}>
        <TextResult text={text} onAgain={handleAgain} />
      </Page>
    );
  }

  const problem = camera.state === 'starting' || camera.state === 'live' ? null : camera.state;
  return (
    <Page title={t('qr.routes.scan')} className="scan">
      {problem ? (
        <div className="scan-problem" role="alert">
          <ExclamationTriangleOutline className="scan-problem-icon" aria-hidden="true" />
          <p>{t(`qr.scan.${problem}`)}</p>
        </div>
      ) : (
        <div className="scan-view">
          <video
            ref={video}
            className="scan-video"
            muted
            playsInline
            aria-label={t('qr.scan.preview')}
            aria-describedby="scan-hint"
          />
          <div className="scan-frame" aria-hidden="true">
            <span className="scan-line" />
          </div>
          <p className="scan-hint" id="scan-hint" role="status">
            {reading ? t('qr.scan.reading') : camera.state === 'starting' ? t('qr.scan.starting') : t('qr.scan.hint')}
          </p>
        </div>
      )}
      <div className="scan-tools">
        {camera.torch.supported && (
          <button
            type="button"
            className="scan-tool"
            aria-pressed={camera.torch.on}
            onClick={() => void camera.toggleTorch()}
          >
            <TorchIcon />
            {camera.torch.on ? t('qr.scan.torchOff') : t('qr.scan.torchOn')}
          </button>
        )}
        <label className="scan-tool" title={t('qr.scan.albumHint')}>
          <PictureOutline aria-hidden="true" />
          {t('qr.scan.album')}
          <input type="file" accept="image/*" disabled={reading} onChange={(e) => void handlePick(e)} />
        </label>
      </div>
    </Page>
  );
}
