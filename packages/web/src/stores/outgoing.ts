import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/** My newest message of a conversation that the server has not stored yet, as its row shows it. */
export interface OutgoingState {
  state: 'sending' | 'failed';
  /** Its preview line ("[图片]", the text…). */
  text: string;
}

export interface OutgoingStoreState {
  /** By contact key; only conversations with a message of mine on its way or failed. */
  byKey: Record<string, OutgoingState>;
}

/** What the Messages tab shows of messages on their way; the conversation engines write it. */
export const outgoingStore = createStore<OutgoingStoreState>()(() => ({ byKey: {} }));

export function useOutgoing<T>(selector: (s: OutgoingStoreState) => T): T {
  return useStore(outgoingStore, selector);
}

export const outgoing = {
  set(key: string, value: OutgoingState | null): void {
    const current = outgoingStore.getState().byKey;
    const before = current[key];
    if (before?.state === value?.state && before?.text === value?.text) return;
    const next = { ...current };
    if (value) next[key] = value;
    else delete next[key];
    outgoingStore.setState({ byKey: next });
  },
  clear(): void {
    outgoingStore.setState({ byKey: {} });
  },
};
