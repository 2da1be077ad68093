import type { GlobalConfig } from './entities';

/** Sparrow's Moments feed, the in-app page (docs/product.md §2) a Discover entry of `type` 1 opens. */
export const MOMENTS_PAGE = '/pages/compass/moments';

type CompassEntry = GlobalConfig['compass']['list'][number];

/**
 * Whether a Discover entry opens Sparrow's own Moments feed: the client lists it first, with its new
 * posts and notices, and the server names it in the reader's language.
 */
export const isMomentsEntry = (item: CompassEntry): boolean =>
  item.type === 1 && item.url.split('?')[0] === MOMENTS_PAGE;
