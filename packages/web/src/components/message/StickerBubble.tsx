import type { MessageOf } from '@sparrow/protocol';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { stickers } from '../../stores/stickers';
import { feedback } from '../feedback';
import { Sheet } from '../Sheet';
import { fileIdOf } from './media-fields';
import './media.css';

/** A sticker: the picture alone, no bubble; a tap shows it large with "Add to stickers". */
export function StickerBubble({ message }: { message: MessageOf<'emoji'> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const fileId = fileIdOf(message);

  const add = async () => {
    try {
      await stickers.addFromFile(fileId);
      setOpen(false);
      feedback.toast(t('media.sticker.added'));
    } catch {
      // The request layer showed why.
    }
  };

  return (
    <>
      <button type="button" className="sticker" aria-label={t('media.sticker.open')} onClick={() => setOpen(true)}>
        <img src={message.content} alt="" loading="lazy" draggable={false} />
      </button>
      {open &&
        createPortal(
          <Sheet title={t('media.sticker.title')} onClose={() => setOpen(false)}>
            <div className="sticker-sheet">
              <img className="sticker-large" src={message.content} alt={t('preview.emoji')} />
              {fileId > 0 && (
                <button type="button" className="button button-primary" onClick={() => void add()}>
                  {t('media.sticker.add')}
                </button>
              )}
            </div>
          </Sheet>,
          document.body,
        )}
    </>
  );
}
