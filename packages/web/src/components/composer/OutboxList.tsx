import { CloseOutline, ExclamationCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { ContactKey } from '../../lib/conversation-list';
import { formatFileSize } from '../../lib/file-size';
import { extensionOf } from '../../lib/media-rules';
import { formatClockDuration } from '../../lib/media-url';
import { outbox, useOutbox, type OutboxItem } from '../../stores/outbox';
import { useSession } from '../../stores/session';
import { Avatar } from '../Avatar';
import { FileIcon } from '../message/FileIcon';
import { fitThumb } from '../message/media-fields';
import { VoiceWaves } from '../message/VoiceBubble';
import '../message/media.css';
import './composer.css';

function Percent({ value }: { value: number }) {
  return <span className="outbox-percent">{Math.round(value * 100)}%</span>;
}

function Body({ item }: { item: OutboxItem }) {
  const { t } = useTranslation();
  const p = item.preview;
  const uploading = item.state === 'sending' && item.progress !== null;
  switch (item.type) {
    case 'image':
    case 'video': {
      const size = fitThumb(p.width ?? 0, p.height ?? 0, item.type === 'video' ? 160 : 150, 60);
      return (
        <span className="media-thumb outbox-thumb" style={{ width: size.width, height: size.height }}>
          {p.url && <img src={p.url} alt="" draggable={false} />}
          {item.type === 'video' && p.durationS !== undefined && (
            <span className="media-duration">{formatClockDuration(p.durationS)}</span>
          )}
          {uploading && (
            <span className="outbox-shade">
              <Percent value={item.progress ?? 0} />
            </span>
          )}
        </span>
      );
    }
    case 'file':
      return (
        <span className="file-card outbox-file">
          <span className="file-card-text">
            <span className="file-card-name">{p.name}</span>
            <span className="file-card-size">{formatFileSize(p.size ?? 0)}</span>
            {uploading && (
              <span
                className="outbox-bar"
                role="progressbar"
                aria-label={t('media.outbox.progress', { name: p.name ?? '' })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round((item.progress ?? 0) * 100)}
              >
                <span style={{ width: `${Math.round((item.progress ?? 0) * 100)}%` }} />
              </span>
            )}
          </span>
          <FileIcon ext={extensionOf(p.name ?? '')} />
        </span>
      );
    case 'voice':
      return (
        <span className="voice voice-mine outbox-voice" style={{ width: 90 }}>
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
  }
}

/** The bubble type class the chat's stylesheet knows (stickers are `emoji` messages). */
const bubbleClass = (type: OutboxItem['type']) => `bubble bubble-${type}`;

/**
 * My messages still on their way in a conversation, drawn as my own bubbles at the bottom of the
 * list: uploads with their progress and a cancel button, failures with retry.
 */
export function OutboxList({ chatKey }: { chatKey: ContactKey }) {
  const { t } = useTranslation();
  const items = useOutbox(chatKey);
  const me = useSession((s) => s.user);
  if (items.length === 0) return null;
  const name = me?.realname ?? '';
  return (
    <div className="outbox" aria-label={t('media.outbox.label')} role="group">
      {items.map((item) => (
        <div className="chat-item" key={item.id}>
          <div className="msg msg-mine">
            <span className="msg-avatar" aria-hidden="true">
              <Avatar src={me?.avatar} name={name} alt="" size={40} />
            </span>
            <div className="msg-body">
              <div className="msg-line">
                {item.state === 'sending' && item.progress === null && (
                  <span className="spinner msg-state" role="status" aria-label={t('chat.sending')} />
                )}
                {item.state === 'failed' && (
                  <button
                    type="button"
                    className="msg-retry"
                    aria-label={t('chat.resend')}
                    onClick={() => outbox.retry(item.id)}
                  >
                    <ExclamationCircleFill aria-hidden="true" />
                  </button>
                )}
                {(item.progress !== null || item.state === 'failed') && (
                  <button
                    type="button"
                    className="outbox-cancel"
                    aria-label={item.state === 'failed' ? t('media.outbox.discard') : t('media.outbox.cancel')}
                    onClick={() => outbox.cancel(item.id)}
                  >
                    <CloseOutline aria-hidden="true" />
                  </button>
                )}
                <div className={bubbleClass(item.type)}>
                  <Body item={item} />
                </div>
              </div>
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
