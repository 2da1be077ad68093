import type { ReceiptPush } from '../../stores/read-receipts';

/** The least time between two askings of a read list while pushes come, ms (the first at once, the last at the end). */
export const READ_LIST_AGAIN_MS = 1_000;

/** What an asking came to: the list, or that it could not be had. */
export type ListOutcome<T> = { ok: true; list: T } | { ok: false };

/**
 * How an open list of who read one message (groupReadList) is kept current: asked at once, then
 * again when a push passed this message (one whose span `(after, msg_id]` holds it), at most once per
 * READ_LIST_AGAIN_MS with the last of a burst asked at its end. Answers are not cancelled: each is
 * shown unless a newer one was shown already, so that answers arriving out of order never go back.
 */
export function createListAsker<T>(msgId: number, fetch: () => Promise<T>, show: (outcome: ListOutcome<T>) => void) {
  let asked = 0;
  let shown = 0;
  let lastAsked = -Infinity;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  let live = true;

  const ask = () => {
    const seq = ++asked;
    lastAsked = Date.now();
    const settle = (outcome: ListOutcome<T>) => {
      if (!live || seq < shown) return;
      shown = seq;
      show(outcome);
    };
    fetch().then(
      (list) => settle({ ok: true, list }),
      () => settle({ ok: false }),
    );
  };

  return {
    /** Asks now (the sheet opened, or the person asked to try again). */
    ask,
    /** A push for the group: asked again if it passed this message, as the interval allows. */
    pushed(push: Pick<ReceiptPush, 'after' | 'msg_id'>): void {
      if (!live || !(push.after < msgId && msgId <= push.msg_id) || trailing) return;
      const wait = lastAsked + READ_LIST_AGAIN_MS - Date.now();
      if (wait <= 0) return ask();
      trailing = setTimeout(() => {
        trailing = null;
        if (live) ask();
      }, wait);
    },
    /** The sheet closed: nothing more is asked or shown. */
    stop(): void {
      live = false;
      if (trailing) clearTimeout(trailing);
      trailing = null;
    },
  };
}
