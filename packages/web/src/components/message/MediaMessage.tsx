import type { Message } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { ContactCardBubble } from './ContactCardBubble';
import { FileBubble } from './FileBubble';
import { ImageBubble } from './ImageBubble';
import { LocationBubble } from './LocationBubble';
import { StickerBubble } from './StickerBubble';
import { VideoBubble } from './VideoBubble';
import { VoiceBubble } from './VoiceBubble';
import './media.css';

export type MediaType = 'image' | 'file' | 'voice' | 'video' | 'location' | 'contact' | 'emoji';

const MEDIA: ReadonlySet<string> = new Set<MediaType>([
  'image',
  'file',
  'voice',
  'video',
  'location',
  'contact',
  'emoji',
]);

export function isMediaType(type: string): type is MediaType {
  return MEDIA.has(type);
}

/**
 * The bubble content of a media, location, card or sticker message (docs/protocol.md §2 message types).
 * `tile`: a picture or video fills a square of the grid it is in, rather than its own shape.
 */
export function MediaMessage({ message, mine, tile }: { message: Message; mine?: boolean; tile?: boolean }) {
  if (isExpired(message)) return <ExpiredFile />;
  switch (message.type) {
    case 'image':
      return <ImageBubble message={message} tile={tile} />;
    case 'file':
      return <FileBubble message={message} />;
    case 'voice':
      return <VoiceBubble message={message} mine={mine} />;
    case 'video':
      return <VideoBubble message={message} tile={tile} />;
    case 'location':
      return <LocationBubble message={message} />;
    case 'contact':
      return <ContactCardBubble message={message} />;
    case 'emoji':
      return <StickerBubble message={message} />;
    case 'text':
    case 'event':
    case 'webrtc':
    case 'record':
    case 'poll':
    case 'chain':
      return null;
  }
}

/** Whether a picture, voice, video or file message's file expired (retention removed its bytes). */
export function isExpired(message: Message): boolean {
  return (
    (message.type === 'image' || message.type === 'voice' || message.type === 'video' || message.type === 'file') &&
    message.extends.expired === 1
  );
}

/** What an expired file's message shows in its place. */
function ExpiredFile() {
  const { t } = useTranslation();
  return <span className="file-expired">{t('retention.fileExpired')}</span>;
}
