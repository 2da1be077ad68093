import { AddOutline, SetOutline } from 'antd-mobile-icons';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ContactKey } from '../../lib/conversation-list';
import { checkSticker } from '../../lib/media-rules';
import { emojiPath } from '../../nav/paths';
import { configStore } from '../../stores/config';
import { stickers, useStickers } from '../../stores/stickers';
import { refuse, sendSticker } from './send-media';
import './composer.css';

/** My stickers in the input panel: tap one to send it; add from the album; manage them. */
export function StickerPanel({ chatKey, header }: { chatKey: ContactKey; header?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const items = useStickers((s) => s.items);
  const status = useStickers((s) => s.status);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void stickers.load();
  }, []);

  const add = async (file: File | undefined) => {
    if (!file || refuse(checkSticker(file, configStore.getState().config?.fileUpload), file.name)) return;
    try {
      await stickers.upload(file, file.name);
    } catch {
      // The request layer showed why (too large, not an image).
    }
  };

  return (
    <div className="sticker-panel" role="group" aria-label={t('media.sticker.panel')}>
      <div className="sticker-bar">
        {header}
        <button type="button" className="sticker-manage" onClick={() => void navigate(emojiPath(chatKey))}>
          <SetOutline aria-hidden="true" /> {t('media.sticker.manage')}
        </button>
      </div>
      <ul className="sticker-grid">
        <li>
          <button
            type="button"
            className="sticker-tile sticker-tile-add"
            aria-label={t('media.sticker.fromAlbum')}
            onClick={() => input.current?.click()}
          >
            <AddOutline aria-hidden="true" />
          </button>
        </li>
        {items.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="sticker-tile"
              aria-label={t('media.sticker.send', { name: s.name || t('preview.emoji') })}
              onClick={() => sendSticker(chatKey, s)}
            >
              <img src={s.src} alt="" loading="lazy" draggable={false} />
            </button>
          </li>
        ))}
      </ul>
      {status === 'ready' && items.length === 0 && <p className="sticker-empty">{t('media.sticker.empty')}</p>}
      {status === 'error' && (
        <p className="sticker-empty">
          {t('media.sticker.loadFailed')}{' '}
          <button type="button" className="button-link" onClick={() => void stickers.load(true)}>
            {t('common.retry')}
          </button>
        </p>
      )}
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        aria-label={t('media.sticker.fromAlbum')}
        onChange={(e) => {
          void add(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
