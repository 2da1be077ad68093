import type { PushPayload } from '@sparrow/protocol';
import { api } from '../api';
import { feedback } from '../components/feedback';
import { translate } from '../i18n';

/** An open favourites page hearing each `favorite` push (another device of mine saved or removed some). */
export type FavoritesListener = (data: PushPayload<'favorite'>) => void;

const listeners = new Set<FavoritesListener>();

/** My favourites (收藏): saving from a chat or a post, and the pushes an open list follows. */
export const favorites = {
  /** Saves messages (`msg_ids`) or a post (`post_id`) and says so; answers whether it was saved. */
  async save(body: { msg_ids: number[] } | { post_id: number }): Promise<boolean> {
    try {
      await api.favoriteAdd(body, { quiet: true });
      feedback.toast(translate('favorite.saved'));
      return true;
    } catch {
      // The request layer said why.
      return false;
    }
  },

  /** A push `favorite`: the open pages hear it. */
  onPush(data: PushPayload<'favorite'>): void {
    for (const listener of [...listeners]) listener(data);
  },

  /** Hears every `favorite` push until the returned function is called (an effect's cleanup). */
  subscribe(listener: FavoritesListener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
