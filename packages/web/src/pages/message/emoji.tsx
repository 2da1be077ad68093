import type { EmojiItem } from '@sparrow/protocol';
import { AddOutline, CheckCircleFill, SmileOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { refuse, sendSticker } from '../../components/composer/send-media';
import { EmptyState } from '../../components/EmptyState';
import { feedback } from '../../components/feedback';
import { Page } from '../../components/Page';
import { Sheet } from '../../components/Sheet';
import { checkSticker } from '../../lib/media-rules';
import { useBack } from '../../nav/navigation';
import { configStore } from '../../stores/config';
import { stickers, useStickers } from '../../stores/stickers';
import '../../components/message/media.css';
import './media-pages.css';

/**
 * My stickers (docs/product.md §2 `/pages/message/emoji`): add from the album, tidy up (move to the front,
 * delete), and send. Opened from a chat (`?id=<contact>`), a tap sends the sticker there.
 */
export default function EmojiPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const chatKey = params.get('id') ?? '';
  const back = useBack();
  const items = useStickers((s) => s.items);
  const status = useStickers((s) => s.status);
  const [managing, setManaging] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const [preview, setPreview] = useState<EmojiItem | null>(null);
  const album = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void stickers.load(true);
  }, []);

  const add = async (files: File[]) => {
    const limits = configStore.getState().config?.fileUpload;
    for (const file of files) {
      if (refuse(checkSticker(file, limits), file.name)) continue;
      try {
        await stickers.upload(file, file.name);
      } catch {
        // The request layer showed why.
        return;
      }
    }
  };

  const toggle = (id: number) => setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));

  const tap = (item: EmojiItem) => {
    if (managing) {
      toggle(item.id);
    } else if (chatKey) {
      sendSticker(chatKey, item);
      back();
    } else {
      setPreview(item);
    }
  };

  const moveToFront = async (ids: number[]) => {
    // In the order they show now, so their order among themselves stays.
    const ordered = items.map((i) => i.id).filter((id) => ids.includes(id));
    try {
      await stickers.moveToFront(ordered);
      setChosen([]);
      setPreview(null);
    } catch {
      // The request layer showed why.
    }
  };

  const remove = async (ids: number[]) => {
    const ok = await feedback
      .confirm({
        content: t('media.sticker.deleteConfirm', { count: ids.length }),
        confirmText: t('chat.delete'),
        cancelText: t('common.cancel'),
      })
      .catch(() => false);
    if (!ok) return;
    try {
      await stickers.remove(ids);
      setChosen([]);
      setPreview(null);
    } catch {
      // The request layer showed why.
    }
  };

  const manageButton = items.length > 0 && (
    <button
      type="button"
      className="navbar-action"
      onClick={() => {
        setManaging((m) => !m);
        setChosen([]);
      }}
    >
      {managing ? t('media.sticker.done') : t('media.sticker.tidy')}
    </button>
  );

  return (
    <Page title={t('media.routes.emoji')} right={manageButton} className="emoji-page">
      {status === 'error' && items.length === 0 ? (
        <EmptyState icon={<SmileOutline />} title={t('media.sticker.loadFailed')} description="">
          <button type="button" className="button button-default emoji-retry" onClick={() => void stickers.load(true)}>
            {t('common.retry')}
          </button>
        </EmptyState>
      ) : (
        <>
          <p className="emoji-count">
            {status === 'loading' && items.length === 0
              ? t('common.loading')
              : t('media.sticker.count', { count: items.length })}
          </p>
          <ul className="emoji-grid" aria-label={t('media.sticker.mine')}>
            {!managing && (
              <li>
                <button
                  type="button"
                  className="emoji-tile emoji-add"
                  aria-label={t('media.sticker.fromAlbum')}
                  onClick={() => album.current?.click()}
                >
                  <AddOutline aria-hidden="true" />
                </button>
              </li>
            )}
            {items.map((item) => {
              const on = chosen.includes(item.id);
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    className={`emoji-tile${on ? ' emoji-tile-on' : ''}`}
                    aria-pressed={managing ? on : undefined}
                    aria-label={
                      managing
                        ? t('media.sticker.select', { name: item.name || t('preview.emoji') })
                        : chatKey
                          ? t('media.sticker.send', { name: item.name || t('preview.emoji') })
                          : t('media.sticker.open')
                    }
                    onClick={() => tap(item)}
                  >
                    <img src={item.src} alt="" loading="lazy" draggable={false} />
                    {managing && (
                      <span className={`emoji-check${on ? ' emoji-check-on' : ''}`} aria-hidden="true">
                        {on && <CheckCircleFill />}
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
          {status === 'ready' && items.length === 0 && <p className="emoji-hint">{t('media.sticker.emptyHint')}</p>}
        </>
      )}
      {managing && (
        <div className="emoji-bar">
          <button
            type="button"
            className="emoji-bar-button"
            disabled={chosen.length === 0}
            onClick={() => void moveToFront(chosen)}
          >
            {t('media.sticker.moveToFront')}
          </button>
          <button
            type="button"
            className="emoji-bar-button emoji-bar-danger"
            disabled={chosen.length === 0}
            onClick={() => void remove(chosen)}
          >
            {chosen.length ? t('media.sticker.deleteCount', { count: chosen.length }) : t('chat.delete')}
          </button>
        </div>
      )}
      <input
        ref={album}
        type="file"
        accept="image/*"
        multiple
        hidden
        aria-label={t('media.sticker.fromAlbum')}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          void add(files);
        }}
      />
      {preview &&
        createPortal(
          <Sheet title={t('media.sticker.title')} onClose={() => setPreview(null)}>
            <div className="sticker-sheet emoji-preview">
              <img className="sticker-large" src={preview.src} alt={t('preview.emoji')} />
              <div className="emoji-preview-actions">
                <button type="button" className="button button-default" onClick={() => void moveToFront([preview.id])}>
                  {t('media.sticker.moveToFront')}
                </button>
                <button type="button" className="button button-danger" onClick={() => void remove([preview.id])}>
                  {t('chat.delete')}
                </button>
              </div>
            </div>
          </Sheet>,
          document.body,
        )}
    </Page>
  );
}
