import type { Favorite, FavoriteSnapshot } from '@sparrow/protocol';
import type { FavoriteRow } from './repo';

/** A favourite as its owner reads it, with where the keywords are in its words. */
export function presentFavorite(row: FavoriteRow, highlight: Array<[number, number]>): Favorite {
  return {
    id: row.id,
    kind: row.kind === 'moment' ? 'moment' : 'message',
    type: row.type,
    source_msg_id: row.source_msg_id,
    source_post_id: row.source_post_id,
    body: JSON.parse(row.body) as FavoriteSnapshot,
    words: row.search_text,
    highlight,
    create_time: row.create_time,
  };
}
