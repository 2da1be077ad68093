import type { MessageOf } from '@sparrow/protocol';
import { PictureWrongOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpenImage } from './gallery';
import { fitThumb } from './media-fields';
import './media.css';

/** A picture message: its thumbnail at WeChat's size (or a grid's square tile); a tap shows it full size. */
export function ImageBubble({ message, tile }: { message: MessageOf<'image'>; tile?: boolean | undefined }) {
  const { t } = useTranslation();
  const { open, viewer } = useOpenImage(message);
  const [broken, setBroken] = useState(false);
  const size = fitThumb(message.extends.width, message.extends.height);
  const src = message.preview || message.extends.thumb || message.content;
  return (
    <>
      <button
        type="button"
        className={tile ? 'media-thumb media-tile' : 'media-thumb'}
        style={tile ? undefined : { width: size.width, height: size.height }}
        aria-label={t('media.image.open')}
        onClick={open}
      >
        {broken ? (
          <PictureWrongOutline className="media-broken" aria-hidden="true" />
        ) : (
          <img src={src} alt="" loading="lazy" draggable={false} onError={() => setBroken(true)} />
        )}
      </button>
      {viewer}
    </>
  );
}
