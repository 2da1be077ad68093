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
  | 'preview.poll'
  | 'preview.chain'
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
    case 'poll':
      return t('preview.poll', { question: name(m.extends.question) });
    case 'chain':
      return t('preview.chain', { title: name(m.extends.title) });
    default: {
      // Markdown read only as far as a preview goes (its patterns are quadratic on some lines).
      const text =
        m.type === 'text' && m.extends.markdown === 1
          ? markdownWords(m.content.slice(0, PREVIEW_MAX * MARKDOWN_READ))
          : m.content;
      return text.replace(/\s+/g, ' ').slice(0, PREVIEW_MAX);
    }
  }
}

/** How much more markdown than a preview's length is read for it: a link's address is not shown. */
const MARKDOWN_READ = 8;

/**
 * The words of a robot's markdown (docs/protocol.md §10) as a line of text reads them: a link's
 * text without its address, emphasis and code without their marks, headings, quotes and list
 * items without theirs. Some patterns take time quadratic in a line's length: callers bound it.
 */
export function markdownWords(source: string): string {
  return source
    .replace(/!?\[((?:\\.|[^\]\\\n])*)\]\([^)\s]*\)/g, '$1')
    .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)/gm, '')
    .replace(/(\*\*|__|~~)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?![\w*])/g, '$1$2')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!>~|])/g, '$1');
}

/** The words of a new-message notification that are not the message's own. */
export type NotificationKey = 'push.newMessage' | 'push.call';

/** What a new message's notification is made from; the caller words `text` and `call` in the reader's language. */
export interface NotificationSource {
  /** The reader's choice (`/enterprise/push/setting`): false shows only that a message came. */
  preview: boolean;
  /** The sender's name as the reader sees it. */
  sender: string;
  /** The group's name, for a group message. */
  group?: string | undefined;
  /** The message's preview (`messagePreview`). */
  text: string;
  /** For a call: its kind in words ("语音通话"). */
  call?: string | undefined;
}

/**
 * The title and body of a new-message notification, alike for a Web Push (the server's) and one
 * the open page shows while hidden: without a preview, only the app's name and that a message came.
 */
export function notificationText(
  n: NotificationSource,
  t: (key: NotificationKey, params?: Record<string, string>) => string,
): { title: string; body: string } {
  if (!n.preview) return { title: 'Sparrow', body: t('push.newMessage') };
  if (n.call !== undefined) return { title: n.sender, body: t('push.call', { name: n.sender, kind: n.call }) };
  if (n.group !== undefined) return { title: n.group, body: `${n.sender}: ${n.text}` };
  return { title: n.sender, body: n.text };
}
