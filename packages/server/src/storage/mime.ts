/** Content types of what we store, by extension; anything else is served as octet-stream. */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  avif: 'image/avif',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  amr: 'audio/amr',
  webm: 'video/webm',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
};

const INLINE_IMAGES = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'avif']);

export function mimeOf(ext: string): string {
  return TYPES[ext.toLowerCase()] ?? 'application/octet-stream';
}

/** Images are shown inline; everything else downloads (never rendered as a page). */
export function isInline(ext: string): boolean {
  return INLINE_IMAGES.has(ext.toLowerCase());
}
