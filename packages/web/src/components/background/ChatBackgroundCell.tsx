import { PictureOutline } from 'antd-mobile-icons';
import { useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useChatBackground } from '../../lib/chat-background';
import { Cell } from '../Cell';
import { feedback } from '../feedback';
import { Sheet } from '../Sheet';
import './background.css';

/**
 * "Chat background" of a conversation's info page: pick a picture from the album (kept on this
 * device only) or go back to the default. The row is a list item; everything else lives in the
 * sheet, outside the list.
 */
export function ChatBackgroundCell({ contactId }: { contactId: string | number }) {
  const { t } = useTranslation();
  const { url, pick, reset } = useChatBackground(contactId);
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      feedback.toast(t('media.limits.notImage'));
      return;
    }
    try {
      await pick(file);
      setOpen(false);
      feedback.toast(t('media.background.set'));
    } catch {
      feedback.toast(t('media.background.failed'));
    }
  };

  const restore = async () => {
    try {
      await reset();
      setOpen(false);
      feedback.toast(t('media.background.reset'));
    } catch {
      feedback.toast(t('media.background.failed'));
    }
  };

  return (
    <>
      <Cell
        title={t('media.background.title')}
        onClick={() => setOpen(true)}
        extra={url ? <img className="background-thumb" src={url} alt="" /> : undefined}
      />
      {open &&
        createPortal(
          <Sheet title={t('media.background.title')} onClose={() => setOpen(false)}>
            <div className="background-sheet">
              <input
                ref={input}
                type="file"
                accept="image/*"
                hidden
                aria-label={t('media.background.album')}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  void choose(file);
                }}
              />
              <div className="background-preview" style={url ? { backgroundImage: `url("${url}")` } : undefined}>
                {!url && <span>{t('media.background.default')}</span>}
              </div>
              <button type="button" className="button button-primary" onClick={() => input.current?.click()}>
                <PictureOutline aria-hidden="true" /> {t('media.background.album')}
              </button>
              {url && (
                <button type="button" className="button button-default" onClick={() => void restore()}>
                  {t('media.background.restore')}
                </button>
              )}
            </div>
          </Sheet>,
          document.body,
        )}
    </>
  );
}
