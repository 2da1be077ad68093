import { withQuery } from './paths';

/** The media pages: two of the product's route table (§2) and file management (docs/product.md §2 texts). */
export const mediaPaths = {
  emoji: '/pages/message/emoji',
  video: '/pages/message/video',
  files: '/pages/mine/files',
} as const;

/** The video player for a video message. */
export function videoPath(src: string, poster?: string): string {
  return withQuery(mediaPaths.video, { src, poster });
}

/** My stickers; with a conversation, tapping one sends it there. */
export function emojiPath(chatKey?: string): string {
  return withQuery(mediaPaths.emoji, { id: chatKey });
}

/** File management, optionally opened on the files of one conversation. */
export function filesPath(query: { tab?: 'sent' | 'received' } = {}): string {
  return withQuery(mediaPaths.files, query);
}
