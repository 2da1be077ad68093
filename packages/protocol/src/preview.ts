/** The words of a preview that are not the message's own text. */
export type PreviewKey =
  | 'preview.image'
  | 'preview.voice'
  | 'preview.video'
  | 'preview.emoji'
  | 'preview.file'
  | 'preview.location'
  | 'preview.contact'
  | 'preview.record'
  | 'preview.webrtc';

/** Characters of text kept in a preview. */
export const PREVIEW_MAX = 100;

/**
 * The one-line preview of a message in conversation lists and quotes (`lastContent`), the same on
 * the server and the client; `t` words it in the reader's language.
 */
export function messagePreview(
  m: { type: string; content: string; extends: Record<string, unknown>; fileName?: string | undefined },
  t: (key: PreviewKey, params?: Record<string, string>) => string,
): string {
  const name = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (m.type) {
    case 'image':
    case 'voice':
    case 'video':
    case 'emoji':
    case 'record':
    case 'webrtc':
      return t(`preview.${m.type}`);
    case 'file':
      return t('preview.file', { name: m.fileName || name(m.extends.name) });
    case 'location':
      return t('preview.location', { name: name(m.extends.name) });
    case 'contact':
      return t('preview.contact', { name: name(m.extends.displayName) });
    default:
      return m.content.replace(/\s+/g, ' ').slice(0, PREVIEW_MAX);
  }
}
