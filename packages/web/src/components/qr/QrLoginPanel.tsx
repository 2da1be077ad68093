import type { LoginResult } from '@sparrow/protocol';
import { CheckCircleFill, RedoOutline } from 'antd-mobile-icons';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../Avatar';
import { codeDataUrl } from './draw';
import { useQrLogin, type QrLoginView } from './use-qr-login';
import './qr.css';

interface Props {
  /** A phone confirmed: the page's own session. */
  onSignedIn: (login: LoginResult) => void;
  /** Back to the password form. */
  onUsePassword: () => void;
}

/** Edge of the code on screen, px; drawn at twice that for sharp screens. */
const CODE_PX = 200;

/** The line under the code for each state. */
const STATE_TEXT = {
  loading: 'qrLogin.loading',
  failed: 'qrLogin.failed',
  waiting: 'qrLogin.waiting',
  scanned: 'qrLogin.scannedHint',
  confirmed: 'qrLogin.confirmed',
  cancelled: 'qrLogin.cancelled',
  expired: 'qrLogin.expired',
} as const satisfies Record<QrLoginView['status'], string>;

/**
 * 扫码登录 on a signed-out page: the login code, and what became of it: waiting, scanned (whose
 * phone, "请在手机上确认"), confirmed, cancelled or expired (tap to refresh).
 */
export default function QrLoginPanel({ onSignedIn, onUsePassword }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const { view, refresh } = useQrLogin(onSignedIn);
  const [image, setImage] = useState<{ url: string; src: string } | null>(null);
  const qrUrl = 'qrUrl' in view ? view.qrUrl : null;

  useEffect(() => {
    if (!qrUrl) return;
    let live = true;
    codeDataUrl(qrUrl, CODE_PX * 2).then(
      (src) => live && setImage({ url: qrUrl, src }),
      () => live && setImage(null),
    );
    return () => {
      live = false;
    };
  }, [qrUrl]);

  const shown = image && image.url === qrUrl ? image.src : null;
  const spent = view.status === 'expired' || view.status === 'cancelled' || view.status === 'failed';
  return (
    <section className="qr-login" aria-labelledby={titleId}>
      <h2 className="qr-login-title" id={titleId}>
        {t('qrLogin.title')}
      </h2>
      <div className="qr-login-code" aria-busy={view.status === 'loading'}>
        {view.status === 'scanned' || view.status === 'confirmed' ? (
          <div className="qr-login-scanned">
            {view.status === 'scanned' ? (
              <Avatar src={view.scanner.avatar} name={view.scanner.realname} alt={view.scanner.realname} size={88} />
            ) : (
              <CheckCircleFill className="qr-login-done" aria-hidden="true" />
            )}
            <strong>{view.status === 'scanned' ? t('qrLogin.scanned') : t('qrLogin.confirmed')}</strong>
          </div>
        ) : shown ? (
          <img
            className={spent ? 'qr-login-spent' : undefined}
            src={shown}
            width={CODE_PX}
            height={CODE_PX}
            alt={t('qrLogin.codeAlt')}
          />
        ) : (
          <span className="spinner" aria-hidden="true" />
        )}
        {spent && (
          <button type="button" className="qr-login-refresh" onClick={refresh}>
            <RedoOutline aria-hidden="true" />
            <span>{t(STATE_TEXT[view.status])}</span>
            <span className="qr-login-refresh-tap">{t('qrLogin.refresh')}</span>
          </button>
        )}
      </div>
      <p className="qr-login-state" role="status">
        {t(STATE_TEXT[view.status])}
      </p>
      <button type="button" className="button button-link" onClick={onUsePassword}>
        {t('qrLogin.usePassword')}
      </button>
    </section>
  );
}
