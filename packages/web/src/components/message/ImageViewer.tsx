import type { MessageOf } from '@sparrow/protocol';
import { CloseOutline, DownlandOutline, LeftOutline, RightOutline, SmileOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { stickers } from '../../stores/stickers';
import { feedback } from '../feedback';
import { fileIdOf } from './media-fields';
import './media.css';

interface Props {
  images: readonly MessageOf<'image'>[];
  start: number;
  onClose: () => void;
}

/** A swipe shorter than this (px) snaps back; longer goes to the next picture. */
const SWIPE_PX = 60;
/** A press that moves less than this and lets go quickly is a tap (closes, as in WeChat). */
const TAP_PX = 6;
const TAP_MS = 300;

function downloadName(m: MessageOf<'image'>): string {
  const path = m.content.split('?')[0] ?? '';
  return path.slice(path.lastIndexOf('/') + 1) || 'image';
}

/**
 * Pictures full size on black: swipe (or arrow keys) between the pictures of the conversation, tap
 * to close. The thumbnail shows at once and the full picture replaces it when it has loaded.
 */
export function ImageViewer({ images, start, onClose }: Props) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(() => Math.min(Math.max(0, start), Math.max(0, images.length - 1)));
  const [drag, setDrag] = useState(0);
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(() => new Set());
  const press = useRef<{ x: number; y: number; at: number; id: number } | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const count = images.length;
  const current = images[index];

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => previous?.focus?.();
  }, []);

  const go = (delta: number) => setIndex((i) => Math.min(count - 1, Math.max(0, i + delta)));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    press.current = { x: e.clientX, y: e.clientY, at: performance.now(), id: e.pointerId };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = press.current;
    if (!p || p.id !== e.pointerId) return;
    let dx = e.clientX - p.x;
    // Resistance past the first and the last picture.
    if ((index === 0 && dx > 0) || (index === count - 1 && dx < 0)) dx /= 3;
    setDrag(dx);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const p = press.current;
    press.current = null;
    setDrag(0);
    if (!p || p.id !== e.pointerId) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (Math.abs(dx) < TAP_PX && Math.abs(dy) < TAP_PX && performance.now() - p.at < TAP_MS) {
      onClose();
    } else if (dx <= -SWIPE_PX) {
      go(1);
    } else if (dx >= SWIPE_PX) {
      go(-1);
    }
  };

  const addSticker = async () => {
    if (!current) return;
    try {
      await stickers.addFromFile(fileIdOf(current));
      feedback.toast(t('media.sticker.added'));
    } catch {
      // The request layer showed why.
    }
  };

  return createPortal(
    <div
      ref={dialog}
      className="viewer"
      role="dialog"
      aria-modal="true"
      aria-label={t('media.image.viewer')}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        } else if (e.key === 'ArrowRight') {
          go(1);
        } else if (e.key === 'ArrowLeft') {
          go(-1);
        }
      }}
    >
      {count > 1 && (
        <p className="viewer-count" aria-live="polite">
          {t('media.image.position', { index: index + 1, count })}
        </p>
      )}
      <div
        className="viewer-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          press.current = null;
          setDrag(0);
        }}
      >
        <div
          className={`viewer-track${drag ? ' viewer-dragging' : ''}`}
          style={{ transform: `translateX(calc(${-index * 100}% + ${drag}px))` }}
        >
          {images.map((m, i) => {
            const near = Math.abs(i - index) <= 1;
            const thumb = m.preview || m.extends.thumb || m.content;
            const full = loaded.has(m.content);
            return (
              <div className="viewer-slide" key={m.id} aria-hidden={i !== index}>
                {near && (
                  <>
                    {!full && thumb !== m.content && (
                      <img className="viewer-img viewer-img-thumb" src={thumb} alt="" draggable={false} />
                    )}
                    <img
                      className={`viewer-img${full ? '' : ' viewer-img-loading'}`}
                      src={m.content}
                      alt={i === index ? t('media.image.full') : ''}
                      draggable={false}
                      onLoad={() => setLoaded((s) => new Set(s).add(m.content))}
                    />
                  </>
                )}
              </div>
            );
          })}
        </div>
      </div>
      <button type="button" className="viewer-close" aria-label={t('common.close')} onClick={onClose}>
        <CloseOutline aria-hidden="true" />
      </button>
      {count > 1 && index > 0 && (
        <button
          type="button"
          className="viewer-nav viewer-prev"
          aria-label={t('media.image.previous')}
          onClick={() => go(-1)}
        >
          <LeftOutline aria-hidden="true" />
        </button>
      )}
      {count > 1 && index < count - 1 && (
        <button
          type="button"
          className="viewer-nav viewer-next"
          aria-label={t('media.image.next')}
          onClick={() => go(1)}
        >
          <RightOutline aria-hidden="true" />
        </button>
      )}
      {current && (
        <div className="viewer-actions">
          {fileIdOf(current) > 0 && (
            <button type="button" className="viewer-action" onClick={() => void addSticker()}>
              <SmileOutline aria-hidden="true" />
              <span>{t('media.sticker.add')}</span>
            </button>
          )}
          <a className="viewer-action" href={current.content} download={downloadName(current)}>
            <DownlandOutline aria-hidden="true" />
            <span>{t('media.image.save')}</span>
          </a>
        </div>
      )}
    </div>,
    document.body,
  );
}
