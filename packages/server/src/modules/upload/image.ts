import { IMAGE_PIXELS_MAX } from '@sparrow/protocol';
import type { Sharp } from 'sharp';
import { AppError } from '../../errors';
import { loadSharp } from '../../lib/lazy';

/**
 * An uploaded image, its size read from its header before anything is decoded: one of more than
 * IMAGE_PIXELS_MAX pixels is refused (`ImageTooLarge`), since decoding it would take about 4 bytes
 * a pixel of memory and seconds of a thread. sharp holds to the same budget while it decodes, for
 * a header that understates. One that is no image sharp can read is `FileTypeForbidden`.
 */
export async function openImage(file: string): Promise<{ image: Sharp; width: number; height: number }> {
  // Reading the header decodes nothing; with the budget set, sharp would refuse it unnamed.
  const meta = await loadSharp()(file, { animated: false, limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height) throw new AppError('FileTypeForbidden');
  if (meta.width * meta.height > IMAGE_PIXELS_MAX)
    throw new AppError('ImageTooLarge', { mpx: Math.floor(IMAGE_PIXELS_MAX / 1_000_000) });
  const image = loadSharp()(file, { animated: false, limitInputPixels: IMAGE_PIXELS_MAX });
  return { image, width: meta.width, height: meta.height };
}
