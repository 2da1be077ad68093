import type { Message } from '@sparrow/protocol';

/** A string field of a message's `extends`, '' when absent. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A finite number field of a message's `extends`, 0 when absent. */
export const num = (v: unknown): number => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
};

/** The stored file of a media message (docs/protocol.md: image, voice, video, file and sticker extends). */
export const fileIdOf = (m: Pick<Message, 'extends'>): number => num(m.extends.file_id);

/**
 * The size a picture shows at in the list, WeChat style: the long side at most `max`, the short
 * side at least `min` (very long or very wide pictures are cropped to that, not squeezed).
 */
export function fitThumb(width: number, height: number, max = 150, min = 60): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) return { width: max, height: max };
  const scale = max / Math.max(width, height);
  let w = width * scale;
  let h = height * scale;
  if (w < min) w = min;
  if (h < min) h = min;
  return { width: Math.round(Math.min(w, max)), height: Math.round(Math.min(h, max)) };
}
