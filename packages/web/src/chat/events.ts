/** Things pages listen for beyond the stores: lists that reload when a push says they changed. */
export interface AppEvents {
  /** A friend request arrived or was answered. */
  friendRequests: void;
  /** A report of mine was closed, or an admin warned me after a report (the notice's text). */
  reportNotice: string;
}

type Listener<E extends keyof AppEvents> = (payload: AppEvents[E]) => void;
const listeners = new Map<keyof AppEvents, Set<Listener<never>>>();

export const appEvents = {
  on<E extends keyof AppEvents>(type: E, fn: Listener<E>): () => void {
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    set.add(fn as Listener<never>);
    return () => set.delete(fn as Listener<never>);
  },
  emit<E extends keyof AppEvents>(type: E, payload: AppEvents[E]): void {
    for (const fn of listeners.get(type) ?? []) (fn as Listener<E>)(payload);
  },
};
