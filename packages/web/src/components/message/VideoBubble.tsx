import type { MessageOf } from '@sparrow/protocol';
import { PlayOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatClockDuration } from '../../lib/media-url';
import { videoPath } from '../../nav/paths';
import { fitThumb } from './media-fields';
import './media.css';

/** A video message: its poster with the length (or a grid's square tile); a tap opens the player page. */
export function VideoBubble({ message, tile }: { message: MessageOf<'video'>; tile?: boolean | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { width, height, poster, duration } = message.extends;
  const size = fitThumb(width || 9, height || 16, 160, 80);
  return (
    <button
      type="button"
      className={tile ? 'media-thumb media-video media-tile' : 'media-thumb media-video'}
      style={tile ? undefined : { width: size.width, height: size.height }}
      aria-label={t('media.video.open', { length: formatClockDuration(duration) })}
      onClick={() => void navigate(videoPath(message.content, poster || undefined))}
    >
      {poster && <img src={poster} alt="" loading="lazy" draggable={false} />}
      <span className="media-play" aria-hidden="true">
        <PlayOutline />
      </span>
      <span className="media-duration" aria-hidden="true">
        {formatClockDuration(duration)}
      </span>
    </button>
  );
}
