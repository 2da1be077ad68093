import * as z from 'zod';
import { FAVORITE_BATCH_MAX, FORWARD_MAX, FORWARD_MIN, KEYWORDS_MAX } from '../limits';
import { personText, rowId } from './fields';
import { paging } from './friend';
import { contactId } from './im';

/**
 * `/enterprise/favorite/add` (收藏): saves messages or a moments post to my favourites, exactly one
 * of `msg_ids` and `post_id`. Each is kept as it is now (a snapshot): a later withdrawal or
 * deletion of the original does not change it. Saving one already saved answers the saved one.
 */
export const FavoriteAddBody = z
  .object({
    /** Messages I can see (multi-select), msg_ids; event lines and calls are refused. */
    msg_ids: z.array(rowId).min(1).max(FAVORITE_BATCH_MAX).optional(),
    /** A moments post I can see. */
    post_id: rowId.optional(),
  })
  .refine((b) => (b.msg_ids === undefined) !== (b.post_id === undefined), {
    path: ['msg_ids'],
    message: 'exactly one of msg_ids and post_id',
  });

/**
 * What the favourites list is filtered by: a message type, `media` (images and videos), `link`
 * (a text holding a web address), `record` (a merged chat record), or `moment` (a moments post).
 * In WeChat's order, which the web client's filter chips follow.
 */
export const FavoriteFilter = z.enum([
  'text',
  'media',
  'file',
  'voice',
  'location',
  'contact',
  'link',
  'record',
  'moment',
]);
export type FavoriteFilter = z.infer<typeof FavoriteFilter>;

/** `/enterprise/favorite/list`: my favourites, newest first. */
export const FavoriteListBody = z.object({
  /** Only favourites of this kind. */
  type: FavoriteFilter.optional(),
  /** Words to find, all of them, as searchMessage finds them (Chinese needs no spaces; case is ignored). */
  keywords: personText(KEYWORDS_MAX).optional(),
  ...paging,
});

/** `/enterprise/favorite/del`: removes favourites of mine; ids that are not (or no longer) mine are passed over. */
export const FavoriteDelBody = z.object({
  /** Favourite ids. */
  ids: z.array(rowId).min(1).max(FAVORITE_BATCH_MAX),
});

/** `/enterprise/favorite/send`: sends a favourite's content to 1–5 chats, by the rules of sendMessage. */
export const FavoriteSendBody = z.object({
  /** The favourite's id. */
  id: rowId,
  /** The chats: user ids or `group-<n>`, as forwardMessage takes them. */
  user_ids: z.array(contactId).min(FORWARD_MIN).max(FORWARD_MAX),
});

/** A picture of a saved moments post. */
export interface FavoriteImage {
  file_id: number;
  src: string;
  thumb: string;
  /** px, 0 when unknown. */
  width: number;
  height: number;
}

/**
 * What a favourite keeps: the message's type, content and `extends` as they were when it was saved
 * (for a moments post: type `moment`, the post's text, `extends.images` and `extends.location`),
 * who sent it and when, and the chat it came from.
 */
export interface FavoriteSnapshot {
  type: string;
  content: string;
  extends: Record<string, unknown>;
  sender: { id: number; name: string; avatar: string };
  /** When the original was sent or posted, ms. */
  sendTime: number;
  /** The chat's name as the saver saw it ('' for a moments post). */
  chatName: string;
}

/** A favourite of mine (`/enterprise/favorite/list`, `add`). */
export interface Favorite {
  id: number;
  kind: 'message' | 'moment';
  /** The message type, or `moment`. */
  type: string;
  /** The message it was saved from (0 for a post). */
  source_msg_id: number;
  /** The post it was saved from (0 for a message). */
  source_post_id: number;
  body: FavoriteSnapshot;
  /** The words it is found by: a text's or post's text, a file's name, a place's name and address, a card's name. */
  words: string;
  /** `[start, end)` offsets into `words` (UTF-16 code units) of each match of the keywords; [] without. */
  highlight: Array<[number, number]>;
  /** When it was saved, ms. */
  create_time: number;
}

/** Whether a text holds a web address (the `link` filter). */
export function holdsLink(text: string): boolean {
  return LINK.test(text);
}

/** A web address in a text, as the `link` filter and the client's links find it. */
const LINK = /https?:\/\/\S/iu;
