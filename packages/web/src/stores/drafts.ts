import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { readUserItem, storage } from '../lib/storage';
import { sessionStore } from './session';

export interface DraftsState {
  /** Unsent text by contact key. */
  drafts: Record<string, string>;
}

const currentUser = () => sessionStore.getState().user?.user_id ?? null;

/** Drafts per contact (docs/product.md §3 `draft`), written through to localStorage so a reload keeps them. */
export const draftsStore = createStore<DraftsState>()(() => ({
  drafts: readUserItem('draft', currentUser())?.drafts ?? {},
}));

export function useDrafts<T>(selector: (s: DraftsState) => T): T {
  return useStore(draftsStore, selector);
}

export const drafts = {
  get(key: string): string {
    return draftsStore.getState().drafts[key] ?? '';
  },
  set(key: string, text: string): void {
    const current = draftsStore.getState().drafts;
    if ((current[key] ?? '') === text) return;
    const next = { ...current };
    if (text.trim()) next[key] = text;
    else delete next[key];
    draftsStore.setState({ drafts: next });
    const user_id = currentUser();
    if (user_id !== null) storage.set('draft', { user_id, drafts: next });
  },
  /** Another user signed in (or nobody): their drafts, or none. */
  reload(): void {
    draftsStore.setState({ drafts: readUserItem('draft', currentUser())?.drafts ?? {} });
  },
};

sessionStore.subscribe((s, prev) => {
  if (s.user?.user_id !== prev.user?.user_id) drafts.reload();
});
