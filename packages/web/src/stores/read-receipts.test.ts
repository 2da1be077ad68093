import type { ReadCount } from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createReceipts,
  RECEIPTS_BATCH_MS,
  RECEIPTS_GROUPS_KEPT,
  RECEIPTS_REFRESH_MS,
  receiptShown,
} from './read-receipts';

interface Call {
  gid: string;
  ids: number[];
  /** Answers this call from the table as it is now (or `counts`, as given). */
  answer(counts?: ReadCount[]): Promise<void>;
  fail(): Promise<void>;
}

/** A server's answers from a table of counts; each call waits until the test answers it. */
function harness(table: Record<number, ReadCount>) {
  const asked: Call[] = [];
  const r = createReceipts(
    (gid, ids) =>
      new Promise<ReadCount[]>((resolve, reject) => {
        asked.push({
          gid,
          ids,
          answer: async (counts) => {
            resolve(counts ?? ids.flatMap((id) => (table[id] ? [{ ...table[id] }] : [])));
            await vi.advanceTimersByTimeAsync(0);
          },
          fail: async () => {
            reject(new Error('offline'));
            await vi.advanceTimersByTimeAsync(0);
          },
        });
      }),
  );
  /** Lets the batch go, and answers every call not answered yet. */
  const run = async () => {
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    for (const call of asked.filter((c) => !answered.has(c))) {
      answered.add(call);
      await call.answer();
    }
  };
  const answered = new Set<Call>();
  const count = (gid: string, id: number) => r.store.getState().byGroup[gid]?.[id];
  return { r, asked, table, run, count };
}

const asks = (h: { asked: Call[] }) => h.asked.map(({ gid, ids }) => ({ gid, ids }));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('group read receipts on screen', () => {
  it('asks for the rows drawn together in one call per group, and not again once known', async () => {
    const h = harness({ 5: { msg_id: 5, read: 1, unread: 2 }, 7: { msg_id: 7, read: 0, unread: 3 } });
    h.r.want('group-1', 5);
    h.r.want('group-1', 7);
    h.r.want('group-1', 7);
    h.r.want('group-2', 9);
    h.r.want('group-1', 0);
    await h.run();
    expect(asks(h)).toEqual([
      { gid: 'group-1', ids: [5, 7] },
      { gid: 'group-2', ids: [9] },
    ]);
    expect(h.r.store.getState().byGroup['group-1']).toEqual({ 5: { read: 1, unread: 2 }, 7: { read: 0, unread: 3 } });
    h.r.want('group-1', 5);
    await h.run();
    expect(h.asked).toHaveLength(2);
  });

  it('asks again, on pushes, for those of mine the reader passed that someone had not read: at once, then at most once per RECEIPTS_REFRESH_MS', async () => {
    const h = harness({
      3: { msg_id: 3, read: 3, unread: 0 },
      5: { msg_id: 5, read: 1, unread: 2 },
      7: { msg_id: 7, read: 0, unread: 3 },
      9: { msg_id: 9, read: 0, unread: 3 },
    });
    const hide = h.r.show('group-1');
    for (const id of [3, 5, 7, 9]) h.r.want('group-1', id);
    await h.run();
    h.table[5] = { msg_id: 5, read: 2, unread: 1 };
    h.r.onPush({ toContactId: 'group-1', after: 4, msg_id: 8 });
    expect(h.r.store.getState().pushed['group-1']).toMatchObject({ after: 4, msg_id: 8 });
    await h.run();
    expect(asks(h).at(-1)).toEqual({ gid: 'group-1', ids: [5, 7] });
    expect(h.count('group-1', 5)).toEqual({ read: 2, unread: 1 });

    // A burst of pushes: nothing until the interval is over, then one call for all they passed.
    for (let i = 0; i < 40; i++) h.r.onPush({ toContactId: 'group-1', after: 4, msg_id: 9 });
    await h.run();
    expect(h.asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RECEIPTS_REFRESH_MS);
    await h.run();
    expect(asks(h)).toHaveLength(3);
    expect(asks(h).at(-1)).toEqual({ gid: 'group-1', ids: [5, 7, 9] });
    // Quiet after it: nothing more.
    await vi.advanceTimersByTimeAsync(RECEIPTS_REFRESH_MS * 3);
    await h.run();
    expect(h.asked).toHaveLength(3);

    // Off screen, a push marks them out of date; they are asked when the chat is shown again.
    hide();
    h.r.onPush({ toContactId: 'group-1', after: 0, msg_id: 9 });
    await vi.advanceTimersByTimeAsync(RECEIPTS_REFRESH_MS * 2);
    await h.run();
    expect(h.asked).toHaveLength(3);
    expect(h.r.store.getState().pushed['group-1']).toBeUndefined();
    h.r.show('group-1');
    await h.run();
    expect(asks(h).at(-1)).toEqual({ gid: 'group-1', ids: [5, 7, 9] });

    // After a reconnect, those someone had not read are asked again.
    await vi.advanceTimersByTimeAsync(RECEIPTS_REFRESH_MS);
    h.r.refresh();
    await h.run();
    expect(asks(h).at(-1)).toEqual({ gid: 'group-1', ids: [5, 7, 9] });
    // Forgotten (receipts off in the group and on again), a row asks afresh.
    h.r.forget('group-1');
    h.r.want('group-1', 3);
    await h.run();
    expect(asks(h).at(-1)).toEqual({ gid: 'group-1', ids: [3] });
    h.r.clear();
    expect(h.r.store.getState().byGroup).toEqual({});
  });

  it('asks again, once answered, for counts a push passed while they were being asked, and keeps the newer answer', async () => {
    const h = harness({ 5: { msg_id: 5, read: 0, unread: 3 } });
    h.r.show('group-1');
    h.r.want('group-1', 5);
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    expect(h.asked).toHaveLength(1);
    // The first answer is still on its way when someone reads it: not asked twice at once.
    h.r.onPush({ toContactId: 'group-1', after: 0, msg_id: 5 });
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    expect(h.asked).toHaveLength(1);
    h.table[5] = { msg_id: 5, read: 1, unread: 2 };
    await h.asked[0]!.answer([{ msg_id: 5, read: 0, unread: 3 }]);
    expect(h.count('group-1', 5)).toEqual({ read: 0, unread: 3 });
    await vi.advanceTimersByTimeAsync(RECEIPTS_REFRESH_MS);
    expect(h.asked).toHaveLength(2);
    await h.asked[1]!.answer();
    expect(h.count('group-1', 5)).toEqual({ read: 1, unread: 2 });

    // An answer to a question asked before the group was forgotten comes last: the newer one stays.
    h.r.want('group-2', 8);
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    const older = h.asked[2]!;
    h.r.forget('group-2');
    h.r.want('group-2', 8);
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    await h.asked[3]!.answer([{ msg_id: 8, read: 2, unread: 0 }]);
    await older.answer([{ msg_id: 8, read: 0, unread: 2 }]);
    expect(h.count('group-2', 8)).toEqual({ read: 2, unread: 0 });
  });

  it('does not ask again for what an answer left out, and takes a group whose whole batch came back empty as off', async () => {
    const h = harness({ 5: { msg_id: 5, read: 1, unread: 1 } });
    h.r.want('group-1', 5);
    h.r.want('group-1', 6);
    await h.run();
    expect(asks(h)).toEqual([{ gid: 'group-1', ids: [5, 6] }]);
    // Scrolled away and back: neither the answered one nor the one left out is asked again.
    h.r.want('group-1', 5);
    h.r.want('group-1', 6);
    await h.run();
    expect(h.asked).toHaveLength(1);

    h.r.want('group-2', 1);
    h.r.want('group-2', 2);
    await h.run();
    expect(asks(h).at(-1)).toEqual({ gid: 'group-2', ids: [1, 2] });
    h.r.want('group-2', 3);
    await h.run();
    expect(h.asked).toHaveLength(2);
    // What receipts are may have changed meanwhile: on reconnect, or once the group is forgotten, it asks again.
    h.r.refresh();
    h.r.want('group-2', 3);
    await h.run();
    expect(asks(h).at(-1)).toEqual({ gid: 'group-2', ids: [3] });

    // A failed call leaves nothing remembered: the row asks again.
    h.r.want('group-3', 4);
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    await h.asked.at(-1)!.fail();
    h.r.want('group-3', 4);
    await vi.advanceTimersByTimeAsync(RECEIPTS_BATCH_MS);
    expect(asks(h).at(-1)).toEqual({ gid: 'group-3', ids: [4] });
  });

  it('keeps the counts of the groups shown most recently only', async () => {
    const h = harness({ 1: { msg_id: 1, read: 0, unread: 1 } });
    const gids = Array.from({ length: RECEIPTS_GROUPS_KEPT + 3 }, (_, i) => `group-${i + 1}`);
    for (const gid of gids) {
      const hide = h.r.show(gid);
      h.r.want(gid, 1);
      await h.run();
      if (gid !== 'group-2') hide();
    }
    const kept = Object.keys(h.r.store.getState().byGroup);
    expect(kept).toHaveLength(RECEIPTS_GROUPS_KEPT);
    // The one still on screen is kept however long ago it was opened; the oldest others are not.
    expect(kept).toContain('group-2');
    expect(kept).not.toContain('group-1');
    expect(kept).toContain(gids.at(-1));
  });

  it('shows nothing for a message that reached no one else, 全部已读 only when someone read it and no one is left', () => {
    expect(receiptShown(undefined)).toBe('nothing');
    expect(receiptShown({ read: 0, unread: 0 })).toBe('nothing');
    expect(receiptShown({ read: 2, unread: 0 })).toBe('allRead');
    expect(receiptShown({ read: 0, unread: 2 })).toBe('unread');
  });
});
