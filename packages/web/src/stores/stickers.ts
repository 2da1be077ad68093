import type { EmojiItem } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { api } from '../api';
import { sessionStore } from './session';

export interface StickersState {
  /** Whose collection this is; another account signing in starts over. */
  user: number | null;
  items: EmojiItem[];
  status: 'idle' | 'loading' | 'ready' | 'error';
}

export const stickersStore = createStore<StickersState>()(() => ({ user: null, items: [], status: 'idle' }));

export function useStickers<T>(selector: (s: StickersState) => T): T {
  return useStore(stickersStore, selector);
}

const me = () => sessionStore.getState().user?.user_id ?? null;

function mine(): boolean {
  return stickersStore.getState().user === me();
}

function putFront(items: EmojiItem[], item: EmojiItem): EmojiItem[] {
  return [item, ...items.filter((i) => i.id !== item.id && i.file_id !== item.file_id)];
}

let loading: Promise<void> | null = null;

/** My sticker collection (docs/protocol.md /enterprise/emoji/*), newest first as the server keeps it. */
export const stickers = {
  /** Loads the collection once per account; `force` loads it again. */
  load(force = false): Promise<void> {
    const state = stickersStore.getState();
    if (!force && mine() && state.status === 'ready') return Promise.resolve();
    loading ??= (async () => {
      const user = me();
      stickersStore.setState(mine() ? { status: 'loading' } : { user, items: [], status: 'loading' });
      try {
        const items = await api.emojiIndex({}, { silent: true });
        if (me() === user) stickersStore.setState({ user, items, status: 'ready' });
      } catch {
        if (me() === user) stickersStore.setState({ status: 'error' });
      }
    })().finally(() => {
      loading = null;
    });
    return loading;
  },

  /** Adds a picture from the album (uploadEmoji: an image within emojiSize). */
  async upload(file: Blob, name: string): Promise<EmojiItem> {
    const form = new FormData();
    form.append('file', file, name);
    const item = await api.uploadEmoji(form, { loading: true, quiet: true });
    stickersStore.setState((s) => ({ items: putFront(s.items, item) }));
    return item;
  },

  /** Adds the picture or sticker of a message I can see (emoji/add). */
  async addFromFile(file_id: number): Promise<EmojiItem> {
    const item = await api.emojiAdd({ file_id }, { quiet: true });
    if (mine()) stickersStore.setState((s) => ({ items: putFront(s.items, item) }));
    return item;
  },

  async remove(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await api.emojiDel({ ids }, { quiet: true });
    const gone = new Set(ids);
    stickersStore.setState((s) => ({ items: s.items.filter((i) => !gone.has(i.id)) }));
  },

  /** Moves stickers to the front, in the order given (the server does the same). */
  async moveToFront(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await api.emojiMove({ ids }, { quiet: true });
    const chosen = new Set(ids);
    stickersStore.setState((s) => {
      const byId = new Map(s.items.map((i) => [i.id, i]));
      const front = ids.map((id) => byId.get(id)).filter((i): i is EmojiItem => i !== undefined);
      return { items: [...front, ...s.items.filter((i) => !chosen.has(i.id))] };
    });
  },
};
