import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface PresenceState {
  /** Online flags pushed by `isOnline`, by user id. */
  online: Record<number, 0 | 1>;
}

export const presenceStore = createStore<PresenceState>()(() => ({ online: {} }));

export function usePresence<T>(selector: (s: PresenceState) => T): T {
  return useStore(presenceStore, selector);
}

export const presence = {
  set(id: number, isOnline: 0 | 1): void {
    presenceStore.setState((s) => ({ online: { ...s.online, [id]: isOnline } }));
  },
  clear(): void {
    presenceStore.setState({ online: {} });
  },
};
