import type { MessageOf, MomentImage } from '@sparrow/protocol';

/**
 * A post's pictures as the image viewer takes them: image messages with the picture as content
 * and its thumbnail and size in `extends`.
 */
export function asViewerImages(postId: number, images: readonly MomentImage[]): MessageOf<'image'>[] {
  return images.map(
    (img, i) =>
      ({
        id: `moment-${postId}-${i}`,
        msg_id: 0,
        type: 'image',
        content: img.src,
        preview: img.thumb,
        extends: { width: img.width, height: img.height, thumb: img.thumb, file_id: img.file_id },
      }) as unknown as MessageOf<'image'>,
  );
}

/** Grid columns WeChat uses: one picture alone, four in two rows of two, otherwise three across. */
export const gridColumns = (count: number) => (count === 1 ? 1 : count === 4 || count === 2 ? 2 : 3);
