import type { PushPayload } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { api } from '../api';
import { sessionStore } from './session';

export interface MomentsState {
  /** Whose counts these are; another account signing in starts over. */
  user: number | null;
  /** New likes and comments on my posts since I last opened the notices. */
  count: number;
  /** The newest poster I have not seen in the feed, for Discover's dot; 0 when none. */
  poster: number;
  /** Their avatar, or ''. */
  avatar: string;
}

/** An open feed, album or post page hearing each `moments` push. */
export type MomentsListener = (data: PushPayload<'moments'>) => void;

export const momentsStore = createStore<MomentsState>()(() => ({
  user: null,
  count: 0,
  poster: 0,
  avatar: '',
}));

const listeners = new Set<MomentsListener>();

export function useMoments<T>(selector: (s: MomentsState) => T): T {
  return useStore(momentsStore, selector);
}

const me = () => sessionStore.getState().user?.user_id ?? null;

let loading: Promise<void> | null = null;

/** Discover's dot and the feed's notices entry (docs/protocol.md /enterprise/moments/unread). */
export const moments = {
  refresh(): Promise<void> {
    loading ??= (async () => {
      const user = me();
      if (user === null) return;
      try {
        const { count, poster, avatar } = await api.momentsUnread({}, { silent: true });
        if (me() === user) momentsStore.setState({ user, count, poster, avatar });
      } catch {
        // The dot stays as it was; the next push or visit asks again.
      }
    })().finally(() => {
      loading = null;
    });
    return loading;
  },

  /**
   * A friend posted, someone liked or commented on my post, or a post was deleted (push `moments`):
   * the open pages hear it, and the dot is asked again (a deleted post may have been what it showed).
   */
  onPush(data: PushPayload<'moments'>): void {
    for (const listener of [...listeners]) listener(data);
    void moments.refresh();
  },

  /** Hears every `moments` push until the returned function is called (an effect's cleanup). */
  subscribe(listener: MomentsListener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },

  async readNotices(): Promise<void> {
    await api.momentsReadNotices({}, { silent: true });
    momentsStore.setState({ count: 0 });
  },

  /** I opened the feed: its newest poster is seen. */
  seen(): void {
    momentsStore.setState({ poster: 0, avatar: '' });
  },
};
