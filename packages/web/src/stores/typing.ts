import type { PushPayloads } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { contactKey } from '../lib/conversation-list';
import { heard, spoke, typingIn, type Typers } from '../lib/typing';
import { useNowUntil } from '../lib/use-now-until';
import { sessionStore } from './session';

export interface TypingState {
  /** Who is typing where (对方正在输入…), by chat key and user id, until when (ms). */
  typers: Typers;
}

export const typingStore = createStore<TypingState>()(() => ({ typers: {} }));

export const typing = {
  /** A `typing` push; ignored while my own setting is off (the server sends none then, bar a race). */
  onPush(data: PushPayloads['typing'], now = Date.now()): void {
    if (sessionStore.getState().user?.typing === 0) return;
    typingStore.setState((s) => ({ typers: heard(s.typers, contactKey(data.chat), data.from, data.state, now) }));
  },
  /** A message of `from` arrived in chat `key`: they are done typing it. */
  spoke(key: string, from: number): void {
    const typers = spoke(typingStore.getState().typers, key, from);
    if (typers !== typingStore.getState().typers) typingStore.setState({ typers });
  },
  clear(): void {
    typingStore.setState({ typers: {} });
  },
};

const NONE: readonly number[] = [];

/** Who is typing in chat `key` now, in the order they started; the view changes again when one lapses. */
export function useTypers(key: string): readonly number[] {
  const chat = useStore(typingStore, (s) => s.typers[key]);
  const deadlines = chat ? Object.values(chat) : NONE;
  const now = useNowUntil(deadlines);
  if (!chat) return NONE;
  return typingIn({ [key]: chat }, key, now).ids;
}
