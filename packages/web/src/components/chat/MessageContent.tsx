import type { Message } from '@sparrow/protocol';
import { EnvironmentOutline, FileOutline, PhoneFill, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, withQuery } from '../../app/paths';
import { formatSize, linkify } from '../../lib/linkify';

function Text({ content }: { content: string }) {
  return (
    <span className="msg-text">
      {linkify(content).map((p, i) =>
        p.kind === 'text' ? (
          p.text
        ) : (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer">
            {p.text}
          </a>
        ),
      )}
    </span>
  );
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** What a message says, by its type (api.md §2 message types). */
export function MessageContent({ message: m }: { message: Message }) {
  const { t } = useTranslation();
  const ext = m.extends;
  switch (m.type) {
    case 'text':
    case 'event':
      return <Text content={m.content} />;
    case 'emoji':
      return <img className="msg-sticker" src={m.content} alt={t('preview.emoji')} loading="lazy" />;
    case 'image': {
      const w = num(ext.width);
      const h = num(ext.height);
      return (
        <a href={m.content} target="_blank" rel="noopener noreferrer" className="msg-media-link">
          <img
            className="msg-image"
            src={m.preview || m.content}
            alt={t('preview.image')}
            loading="lazy"
            style={w && h ? { aspectRatio: `${w} / ${h}` } : undefined}
          />
        </a>
      );
    }
    case 'video':
      return (
        <video className="msg-video" src={m.content} poster={str(ext.poster) || undefined} controls preload="none">
          {t('preview.video')}
        </video>
      );
    case 'voice':
      return (
        <span className="msg-voice">
          <audio src={m.content} controls preload="none" aria-label={t('preview.voice')} />
          <span className="msg-voice-length">{t('chat.seconds', { count: Math.round(num(ext.duration)) })}</span>
        </span>
      );
    case 'file': {
      const name = m.fileName || str(ext.name);
      return (
        <a className="msg-card" href={m.download || m.content} download={name}>
          <span className="msg-card-text">
            <span className="msg-card-title">{name}</span>
            <span className="msg-card-sub">{formatSize(m.fileSize ?? num(ext.size))}</span>
          </span>
          <FileOutline className="msg-card-icon" aria-hidden="true" />
        </a>
      );
    }
    case 'location':
      return (
        <span className="msg-card">
          <span className="msg-card-text">
            <span className="msg-card-title">{str(ext.name)}</span>
            <span className="msg-card-sub">{str(ext.address)}</span>
          </span>
          <EnvironmentOutline className="msg-card-icon" aria-hidden="true" />
        </span>
      );
    case 'contact':
      return (
        <Link className="msg-card" to={withQuery(paths.contactDetail, { id: num(ext.id) || undefined })}>
          <span className="msg-card-text">
            <span className="msg-card-title">{str(ext.displayName)}</span>
            <span className="msg-card-sub">{t('chat.contactCard')}</span>
          </span>
          <UserOutline className="msg-card-icon" aria-hidden="true" />
        </Link>
      );
    case 'webrtc':
      return (
        <span className="msg-call">
          <PhoneFill aria-hidden="true" /> {m.content}
        </span>
      );
  }
}
