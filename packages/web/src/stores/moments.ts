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
  /** Moves on every `moments` push, so an open feed knows to load again. */
  version: number;
}

export const momentsStore = createStore<MomentsState>()(() => ({
  user: null,
  count: 0,
  poster: 0,
  avatar: '',
  version: 0,
}));

export function useMoments<T>(selector: (s: MomentsState) => T): T {
  return useStore(momentsStore, selector);
}

const me = () => sessionStore.getState().user?.user_id ?? null;

let loading: Promise<void> | null = null;

/** Discover's dot and the feed's notices entry (api.md /enterprise/moments/unread). */
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

  /** A friend posted, or someone liked or commented on my post (push `moments`). */
  onPush(_data: PushPayload<'moments'>): void {
    momentsStore.setState((s) => ({ version: s.version + 1 }));
    void moments.refresh();
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
