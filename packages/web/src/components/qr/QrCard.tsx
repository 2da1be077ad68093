import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../Avatar';
import { feedback } from '../feedback';
import { saveFile } from '../../lib/save-file';
import { cardPng, codeDataUrl } from './draw';
import './qr.css';

interface Props {
  /** The person's or group's name. */
  title: string;
  /** A second line: the account, or the member count. */
  subtitle: string;
  avatar: string;
  /** The code's link; null while it is being fetched. */
  qrUrl: string | null;
  /** When it stops working, ms. */
  qrExpire: number;
  /** What scanning it does. */
  hint: string;
  /** Fetches a fresh code (valid seven days from now). */
  onRefresh: () => Promise<void>;
}

/** Edge of the code on screen, px; drawn at twice that for sharp phone screens. */
const CODE_PX = 232;

/** A code as 我的二维码 and 群二维码 show it: who, the code, until when; save as a picture, refresh. */
export function QrCard({ title, subtitle, avatar, qrUrl, qrExpire, hint, onRefresh }: Props) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [image, setImage] = useState<{ url: string; src: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!qrUrl) return;
    let live = true;
    codeDataUrl(qrUrl, CODE_PX * 2).then(
      (src) => live && setImage({ url: qrUrl, src }),
      () => live && feedback.toast(t('qr.card.loadFailed')),
    );
    return () => {
      live = false;
    };
  }, [qrUrl, t]);

  const expired = qrExpire <= Date.now();
  const expires = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(qrExpire),
  );

  const handleSave = async () => {
    if (!qrUrl) return;
    setBusy(true);
    try {
      const png = await cardPng({
        text: qrUrl,
        title,
        subtitle,
        avatar,
        hint,
        expires: t('qr.card.expires', { time: expires }),
      });
      saveFile(png, t('qr.card.fileName', { name: title }));
      feedback.toast(t('qr.card.saved'));
    } catch {
      feedback.toast(t('qr.card.saveFailed'));
    } finally {
      setBusy(false);
    }
  };

  const handleRefresh = async () => {
    setBusy(true);
    try {
      await onRefresh();
      feedback.toast(t('qr.card.refreshed'));
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };

  const shown = image && image.url === qrUrl ? image.src : null;
  return (
    <>
      <section className="qr-card" aria-labelledby={titleId}>
        <div className="qr-card-head">
          <Avatar src={avatar} name={title} alt="" size={56} />
          <div className="qr-card-who">
            <h2 className="qr-card-title" id={titleId}>
              {title}
            </h2>
            {subtitle && <p className="qr-card-subtitle">{subtitle}</p>}
          </div>
        </div>
        <div className="qr-card-code" aria-busy={!shown}>
          {shown ? (
            <img src={shown} width={CODE_PX} height={CODE_PX} alt={t('qr.card.codeAlt', { name: title })} />
          ) : (
            <span className="spinner" aria-hidden="true" />
          )}
        </div>
        <p className="qr-card-hint">{hint}</p>
        <p className={`qr-card-expire${expired ? ' qr-card-expired' : ''}`} role={expired ? 'alert' : undefined}>
          {expired ? t('qr.card.expired') : t('qr.card.expires', { time: expires })}
        </p>
      </section>
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          disabled={!shown || expired || busy}
          onClick={() => void handleSave()}
        >
          {t('qr.card.save')}
        </button>
        <button type="button" className="button button-default" disabled={busy} onClick={() => void handleRefresh()}>
          {t('qr.card.refresh')}
        </button>
      </div>
    </>
  );
}
