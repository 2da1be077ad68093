import type { Message } from '@sparrow/protocol';
import { PlayOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { videoPath } from '../../app/media-paths';
import { formatClockDuration } from '../../lib/media-url';
import { fitThumb, num, str } from './media-fields';
import './media.css';

/** A video message: its poster with the length; a tap opens the player page. */
export function VideoBubble({ message }: { message: Message }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const w = num(message.extends.width);
  const h = num(message.extends.height);
  const size = fitThumb(w || 9, h || 16, 160, 80);
  const poster = str(message.extends.poster);
  const duration = num(message.extends.duration);
  return (
    <button
      type="button"
      className="media-thumb media-video"
      style={{ width: size.width, height: size.height }}
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
