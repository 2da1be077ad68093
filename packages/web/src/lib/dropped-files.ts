import { judgePickedVideo } from './media-rules';

/** How a file given to a chat (pasted, dropped) is sent: as a picture, a video, or a file. */
export type AttachKind = 'image' | 'video' | 'file';

/**
 * Pictures the chat shows inline; any other image (SVG, TIFF, HEIC…) goes as a file, as it does
 * from the + panel's 文件.
 */
const INLINE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/avif']);

export function attachKind(file: Pick<File, 'type'>): AttachKind {
  if (INLINE_IMAGES.has(file.type)) return 'image';
  if (file.type.startsWith('video/')) return 'video';
  return 'file';
}

/**
 * How a pasted or dropped video goes, once its length is read: longer than a video message may be
 * (VIDEO_MAX_S), it goes as a file, as the + panel's 文件 sends it; a length the browser cannot
 * read is left to the server, as the album's is.
 */
export function givenVideoKind(durationS: number | null): 'video' | 'file' {
  return judgePickedVideo(durationS) === 'tooLong' ? 'file' : 'video';
}

/** The parts of a DataTransfer read here (a paste's clipboardData, a drop's dataTransfer). */
export interface Transfer {
  readonly types: readonly string[];
  readonly files?: ArrayLike<File> | null;
  readonly items?: ArrayLike<{ kind: string; getAsFile(): File | null }> | null;
}

/** Whether a drag carries files (and not text or a link dragged from the page). */
export function carriesFiles(t: Pick<Transfer, 'types'> | null): boolean {
  return t !== null && Array.from(t.types).includes('Files');
}

/**
 * The files of a paste or drop, in their order: `files` where the browser fills it, else the file
 * items (some browsers give a pasted picture only as an item). Empty when it holds only text.
 */
export function filesOf(t: Transfer | null): File[] {
  if (!t) return [];
  const files = Array.from(t.files ?? []);
  if (files.length > 0) return files;
  return Array.from(t.items ?? [])
    .filter((item) => item.kind === 'file')
    .map((item) => item.getAsFile())
    .filter((f): f is File => f !== null);
}

/**
 * The files a paste puts in a chat: none when it also holds plain text (a copy from a document or a
 * spreadsheet carries a picture of itself beside its text, and the text is what was meant).
 */
export function pastedFiles(t: Transfer | null): File[] {
  if (!t || Array.from(t.types).includes('text/plain')) return [];
  return filesOf(t);
}

/** A pasted picture has no name of its own ("image.png"): it gets one by its time, as a screenshot would. */
export function namedFile(file: File, now: Date): File {
  if (file.name && file.name !== 'image.png') return file;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return new File([file], `paste-${stamp}.${ext}`, { type: file.type, lastModified: file.lastModified });
}
