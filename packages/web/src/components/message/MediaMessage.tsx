import type { Message } from '@sparrow/protocol';
import { ContactCardBubble } from './ContactCardBubble';
import { FileBubble } from './FileBubble';
import { ImageBubble } from './ImageBubble';
import { LocationBubble } from './LocationBubble';
import { StickerBubble } from './StickerBubble';
import { VideoBubble } from './VideoBubble';
import { VoiceBubble } from './VoiceBubble';

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
      return null;
  }
}
