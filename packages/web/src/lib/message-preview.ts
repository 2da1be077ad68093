import type { Message } from '@sparrow/protocol';
import type { MessageKey } from '../i18n/keys';

type Translate = (key: MessageKey, options?: Record<string, string>) => string;

const PREVIEW_MAX = 100;

/** The one-line preview of a message for lists, as the server writes `lastContent`. */
export function messagePreview(m: Pick<Message, 'type' | 'content' | 'extends' | 'fileName'>, t: Translate): string {
  const ext = m.extends;
  const name = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (m.type) {
    case 'text':
    case 'event':
      return m.content.replace(/\s+/g, ' ').slice(0, PREVIEW_MAX);
    case 'image':
      return t('preview.image');
    case 'voice':
      return t('preview.voice');
    case 'video':
      return t('preview.video');
    case 'emoji':
      return t('preview.emoji');
    case 'file':
      return t('preview.file', { name: m.fileName || name(ext.name) });
    case 'location':
      return t('preview.location', { name: name(ext.name) });
    case 'contact':
      return t('preview.contact', { name: name(ext.displayName) });
    case 'webrtc':
      return t('preview.webrtc');
  }
}
