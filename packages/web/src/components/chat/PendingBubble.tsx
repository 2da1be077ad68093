import { useTranslation } from 'react-i18next';
import type { ChatRow, PendingPreview } from '../../chat/engine';
import { formatFileSize } from '../../lib/file-size';
import { extensionOf } from '../../lib/media-rules';
import { formatClockDuration } from '../../lib/media-url';
import { Avatar } from '../Avatar';
import { FileIcon } from '../message/FileIcon';
import { fitThumb } from '../message/media-fields';
import { VoiceWaves } from '../message/VoiceBubble';
import '../message/media.css';

function Percent({ value }: { value: number }) {
  return <span className="pending-percent">{Math.round(value * 100)}%</span>;
}

/**
 * A file or card of mine until the server has it, drawn from what the device knows: the local
 * picture with the share uploaded, a file's name and size with a progress bar, a place, a person.
 */
export function PendingBubble({ row, preview: p }: { row: ChatRow; preview: PendingPreview }) {
  const { t } = useTranslation();
  const type = row.message.type;
  const uploading = row.state === 'sending' && row.progress !== null;
  const percent = Math.round((row.progress ?? 0) * 100);
  switch (type) {
    case 'image':
    case 'video': {
      const size = fitThumb(p.width ?? 0, p.height ?? 0, type === 'video' ? 160 : 150, 60);
      return (
        <span className="media-thumb pending-thumb" style={{ width: size.width, height: size.height }}>
          {p.url && <img src={p.url} alt="" draggable={false} />}
          {type === 'video' && p.durationS !== undefined && (
            <span className="media-duration">{formatClockDuration(p.durationS)}</span>
          )}
          {uploading && (
            <span className="pending-shade">
              <Percent value={row.progress ?? 0} />
            </span>
          )}
        </span>
      );
    }
    case 'file':
      return (
        <span className="file-card pending-file">
          <span className="file-card-text">
            <span className="file-card-name">{p.name}</span>
            <span className="file-card-size">{formatFileSize(p.size ?? 0)}</span>
            {uploading && (
              <span
                className="pending-bar"
                role="progressbar"
                aria-label={t('media.pending.progress', { name: p.name ?? '' })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
              >
                <span style={{ width: `${percent}%` }} />
              </span>
            )}
          </span>
          <FileIcon ext={extensionOf(p.name ?? '')} />
        </span>
      );
    case 'voice':
      return (
        <span className="voice voice-mine pending-voice" style={{ width: 90 }}>
          <VoiceWaves playing={false} />
          <span className="voice-length">{t('chat.seconds', { count: p.durationS ?? 0 })}</span>
        </span>
      );
    case 'location':
      return (
        <span className="location-card">
          <span className="location-card-text">
            <span className="location-card-name">{p.name}</span>
            {p.label && <span className="location-card-address">{p.label}</span>}
          </span>
        </span>
      );
    case 'contact':
      return (
        <span className="card">
          <span className="card-main">
            <Avatar src={p.url} name={p.name ?? ''} alt="" size={44} />
            <span className="card-name">{p.name}</span>
          </span>
          <span className="card-foot">{t('chat.contactCard')}</span>
        </span>
      );
    case 'emoji':
      return <span className="sticker">{p.url && <img src={p.url} alt="" draggable={false} />}</span>;
    case 'text':
    case 'event':
    case 'webrtc':
    case 'record':
    case 'poll':
    case 'chain':
      return null;
  }
}
