import { MOMENT_PAGE } from '@sparrow/protocol';

/**
 * A page of posts read again (`list` with `last_id`, newest first) laid over the posts already
 * loaded, so that a push changes only what it touched and the pages scrolled through stay:
 * between `lastId` (0: the newest) and the page's last post (the end of the list when the page
 * came short), the page is the truth, so loaded posts it no longer holds are gone; outside that
 * stretch the loaded posts stay as they are. The loaded posts stay one unbroken stretch from the
 * newest down, which paging on goes on from: nothing below the oldest loaded post is added, and
 * a page wholly below it (a post not loaded yet) changes nothing.
 */
export function mergePage<T extends { id: number }>(loaded: readonly T[], page: readonly T[], lastId: number): T[] {
  const above = lastId > 0 ? lastId : Number.POSITIVE_INFINITY;
  const oldest = loaded.length ? loaded[loaded.length - 1]!.id : 0;
  if (above <= oldest) return [...loaded];
  const below = page.length >= MOMENT_PAGE ? page[page.length - 1]!.id : 0;
  const kept = loaded.filter((p) => p.id >= above || p.id < below);
  return [...kept, ...page.filter((p) => p.id >= oldest)].sort((a, b) => b.id - a.id);
}
