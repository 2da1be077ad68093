import type { PushPayloads } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { sessionStore } from './session';

/** Someone's own name and picture as a `profileChanged` push last told them. */
export type PersonNow = Pick<PushPayloads['profileChanged'], 'realname' | 'avatar'>;

export interface PeopleState {
  /**
   * People whose name or picture changed during this session, by user id: the members of my groups
   * who are not my contacts have no row of mine to follow, and the messages of an open chat carry
   * the sender as they were when it was loaded.
   */
  byId: Record<number, PersonNow>;
}

export const peopleStore = createStore<PeopleState>()(() => ({ byId: {} }));

export function usePeople<T>(selector: (s: PeopleState) => T): T {
  return useStore(peopleStore, selector);
}

export const people = {
  changed({ user_id, realname, avatar }: PushPayloads['profileChanged']): void {
    peopleStore.setState((s) => ({ byId: { ...s.byId, [user_id]: { realname, avatar } } }));
  },
  clear(): void {
    peopleStore.setState({ byId: {} });
  },
};

/**
 * The name a message's sender is shown by now: a group nickname stays as it was given; a sender
 * shown by their own name is shown by the one a push told since.
 */
export function senderName(fromUser: { displayName: string; realname: string }, now: PersonNow | undefined): string {
  const byOwnName = !fromUser.displayName || fromUser.displayName === fromUser.realname;
  return now && byOwnName ? now.realname : fromUser.displayName || fromUser.realname;
}

// Another account signing in on this device starts with nothing pushed.
sessionStore.subscribe((s, prev) => {
  if (s.user?.user_id !== prev.user?.user_id) people.clear();
});
