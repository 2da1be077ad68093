import { READ_COUNTS_IDS_MAX, type PushPayloads, type ReadCount } from '@sparrow/protocol';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { api } from '../api';
import { sessionStore } from './session';

/** One of my group messages' receipt: how many of those it reached have read it, and have not. */
export type ReceiptCount = Pick<ReadCount, 'read' | 'unread'>;

/**
 * What a count shows beside my message: nothing before it is known or while the message reached no
 * one else (all the others joined after it, or left); else 全部已读 or N人未读.
 */
export function receiptShown(count: ReceiptCount | undefined): 'nothing' | 'allRead' | 'unread' {
  if (!count || count.read + count.unread === 0) return 'nothing';
  return count.unread === 0 ? 'allRead' : 'unread';
}

/** The last `readReceipt` of a group on screen: someone read its messages after `after` up to `msg_id`. */
export interface ReceiptPush {
  /** Raised by each push, so that two alike are two changes. */
  seq: number;
  after: number;
  msg_id: number;
}

export interface ReceiptsState {
  /** By group (`group-<n>`), then by msg_id: the counts as last asked. */
  byGroup: Record<string, Record<number, ReceiptCount>>;
  /** By group on screen: its last push, which an open list of who read one asks again on if it passed that one. */
  pushed: Record<string, ReceiptPush>;
}

/** How long the messages rows ask for wait to go together in one `groupReadCounts`. */
export const RECEIPTS_BATCH_MS = 50;

/**
 * The least time between two askings of a group's counts made out of date by pushes, ms: in a large
 * group each member's read is a push to the sender, and their counts are asked at most this often
 * (the first at once, the last of a burst at the end of it).
 */
export const RECEIPTS_REFRESH_MS = 2_000;

/** How many groups' counts are kept: those shown most recently. */
export const RECEIPTS_GROUPS_KEPT = 20;

/** What the store knows of one group besides its counts. */
interface GroupWork {
  /** Asked and not answered yet: each msg_id with the request that asked it. */
  asking: Map<number, number>;
  /** Out of date (a push passed them, or the socket came back): to be asked again when shown. */
  stale: Set<number>;
  /** Asked, and left out of the answer (not mine to count): not asked again. */
  unanswered: Set<number>;
  /** A whole batch came back empty: the server has receipts off for me or the group. */
  off: boolean;
  /** Chats on screen showing the group. */
  shown: number;
  /** When out-of-date counts were last asked for, ms. */
  lastAsked: number;
  /** The asking at the end of a burst of pushes, when one waits. */
  trailing: ReturnType<typeof setTimeout> | null;
}

const newWork = (shown = 0): GroupWork => ({
  asking: new Map(),
  stale: new Set(),
  unanswered: new Set(),
  off: false,
  shown,
  lastAsked: -Infinity,
  trailing: null,
});

/**
 * Group read receipts (群消息已读回执) of my messages on screen. Each row of mine asks for its count
 * (`want`); what is asked within RECEIPTS_BATCH_MS goes in one call per group. A `readReceipt` push
 * marks out of date those of my messages the reader's new position passed that still had someone
 * unread (and those being asked, asked again once answered); a group on screen asks for them at
 * most once per RECEIPTS_REFRESH_MS, another when it is shown. Only the RECEIPTS_GROUPS_KEPT groups
 * shown last are kept.
 */
export function createReceipts(ask: (toContactId: string, ids: number[]) => Promise<ReadCount[]>) {
  const store: StoreApi<ReceiptsState> = createStore<ReceiptsState>()(() => ({ byGroup: {}, pushed: {} }));
  /** By group, oldest shown first. */
  const work = new Map<string, GroupWork>();
  const queued = new Map<string, Set<number>>();
  let scheduled = false;
  let requests = 0;
  let pushes = 0;

  const drop = (gid: string) => {
    const w = work.get(gid);
    if (w?.trailing) clearTimeout(w.trailing);
    work.delete(gid);
    queued.delete(gid);
    store.setState((s) => {
      const { [gid]: _counts, ...byGroup } = s.byGroup;
      const { [gid]: _push, ...pushed } = s.pushed;
      return { byGroup, pushed };
    });
  };

  const entry = (gid: string): GroupWork => {
    let w = work.get(gid);
    if (w) return w;
    w = newWork();
    work.set(gid, w);
    for (const [old, ow] of work) {
      if (work.size <= RECEIPTS_GROUPS_KEPT) break;
      if (ow.shown === 0 && old !== gid) drop(old);
    }
    return w;
  };

  const flush = () => {
    scheduled = false;
    const batches = [...queued];
    queued.clear();
    for (const [gid, ids] of batches) {
      const all = [...ids];
      for (let i = 0; i < all.length; i += READ_COUNTS_IDS_MAX)
        void fetchCounts(gid, all.slice(i, i + READ_COUNTS_IDS_MAX));
    }
  };

  const enqueue = (gid: string, ids: Iterable<number>) => {
    const set = queued.get(gid) ?? new Set<number>();
    for (const id of ids) set.add(id);
    if (set.size === 0) return;
    queued.set(gid, set);
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, RECEIPTS_BATCH_MS);
    }
  };

  /** Asks again for a shown group's out-of-date counts not being asked: at once, or at the end of RECEIPTS_REFRESH_MS. */
  const pump = (gid: string) => {
    const w = work.get(gid);
    if (!w || w.shown === 0 || w.trailing) return;
    const wait = w.lastAsked + RECEIPTS_REFRESH_MS - Date.now();
    if (wait > 0) {
      w.trailing = setTimeout(() => {
        w.trailing = null;
        pump(gid);
      }, wait);
      return;
    }
    const due = [...w.stale].filter((id) => !w.asking.has(id));
    if (due.length === 0) return;
    for (const id of due) w.stale.delete(id);
    w.lastAsked = Date.now();
    enqueue(gid, due);
  };

  const fetchCounts = async (gid: string, ids: number[]) => {
    const w = work.get(gid);
    if (!w) return;
    const seq = ++requests;
    for (const id of ids) w.asking.set(id, seq);
    let counts: ReadCount[] | null = null;
    try {
      counts = await ask(gid, ids);
    } catch {
      // Nothing is shown for these; the next time their rows are drawn they ask again.
    }
    // Forgotten meanwhile (receipts turned off and on, signed out): the answer is of what was.
    if (work.get(gid) !== w) return;
    const current = ids.filter((id) => w.asking.get(id) === seq);
    for (const id of current) w.asking.delete(id);
    if (counts) {
      const answered = new Map(counts.map((c) => [c.msg_id, c]));
      store.setState((s) => {
        const group = { ...s.byGroup[gid] };
        for (const id of current) {
          const c = answered.get(id);
          if (c) group[id] = { read: c.read, unread: c.unread };
        }
        return { byGroup: { ...s.byGroup, [gid]: group } };
      });
      for (const id of current) if (!answered.has(id)) w.unanswered.add(id);
      if (counts.length === 0) w.off = true;
    }
    // Those a push passed while they were being asked are asked again.
    if (ids.some((id) => w.stale.has(id))) pump(gid);
  };

  /** Forgets a group's counts: receipts went off there (or on again), and what they count may have moved meanwhile. */
  const forget = (gid: string) => {
    const shown = work.get(gid)?.shown ?? 0;
    drop(gid);
    if (shown > 0) work.set(gid, newWork(shown));
  };

  return {
    store,
    /** A row of mine in a group is on screen: its count is asked for, unless it is held, on its way, or not to be had. */
    want(gid: string, msgId: number): void {
      if (msgId <= 0) return;
      const w = entry(gid);
      if (w.off || store.getState().byGroup[gid]?.[msgId] || w.asking.has(msgId) || w.unanswered.has(msgId)) return;
      enqueue(gid, [msgId]);
    },
    /** A chat of the group is on screen: its out-of-date counts are asked for. Answers the call for when it is not. */
    show(gid: string): () => void {
      const w = entry(gid);
      w.shown++;
      // Moved to the end: the most recently shown are kept.
      work.delete(gid);
      work.set(gid, w);
      pump(gid);
      return () => {
        if (work.get(gid) !== w || --w.shown > 0) return;
        if (w.trailing) clearTimeout(w.trailing);
        w.trailing = null;
        store.setState((s) => {
          const { [gid]: _push, ...pushed } = s.pushed;
          return { pushed };
        });
      };
    },
    /** Someone read my messages in a group: the counts that moved are out of date, and asked again if it is shown. */
    onPush({ toContactId, after, msg_id }: PushPayloads['readReceipt']): void {
      const gid = String(toContactId);
      const w = work.get(gid);
      if (!w) return;
      const passed = (id: number) => id > after && id <= msg_id;
      for (const [id, c] of Object.entries(store.getState().byGroup[gid] ?? {}))
        if (passed(Number(id)) && c.unread > 0) w.stale.add(Number(id));
      for (const id of w.asking.keys()) if (passed(id)) w.stale.add(id);
      if (w.shown === 0) return;
      pump(gid);
      store.setState((s) => ({ pushed: { ...s.pushed, [gid]: { seq: ++pushes, after, msg_id } } }));
    },
    /**
     * The socket came back: pushes and setting changes may have been missed, so the counts held that
     * someone had not read are out of date, and what was not to be had is asked again.
     */
    refresh(): void {
      for (const [gid, w] of work) {
        w.off = false;
        w.unanswered.clear();
        for (const [id, c] of Object.entries(store.getState().byGroup[gid] ?? {}))
          if (c.unread > 0) w.stale.add(Number(id));
        pump(gid);
      }
    },
    forget,
    /** Forgets every count (signing out, or my own 发送已读回执 changed: what I may see changed with it). */
    clear(): void {
      for (const gid of [...work.keys()]) forget(gid);
      queued.clear();
      store.setState({ byGroup: {}, pushed: {} });
    },
  };
}

export const receipts = createReceipts((toContactId, ids) =>
  api.groupReadCounts({ toContactId, ids }, { quiet: true }),
);

// Another user's counts are not mine.
sessionStore.subscribe((s, before) => {
  if (s.user?.user_id !== before.user?.user_id) receipts.clear();
});

export function useReceipts<T>(selector: (s: ReceiptsState) => T): T {
  return useStore(receipts.store, selector);
}
