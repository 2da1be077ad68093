import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createListAsker, READ_LIST_AGAIN_MS, type ListOutcome } from './list-asker';

/** A list asker for message 10 whose calls wait until the test settles them, in any order. */
function harness() {
  const calls: Array<{ resolve(v: number): void; reject(): void }> = [];
  const shown: Array<ListOutcome<number>> = [];
  const asker = createListAsker(
    10,
    () => new Promise<number>((resolve, reject) => calls.push({ resolve, reject: () => reject(new Error('offline')) })),
    (o) => shown.push(o),
  );
  return { asker, calls, shown };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an open list of who read a message', () => {
  it('asks again only for pushes that passed this message: the first at once, a burst once at its end', async () => {
    const h = harness();
    h.asker.ask();
    expect(h.calls).toHaveLength(1);
    // Before the first answer, pushes do not start over nor flood: they wait out the interval.
    for (let i = 0; i < 30; i++) h.asker.pushed({ after: 5, msg_id: 12 });
    expect(h.calls).toHaveLength(1);
    // A push for other messages of the group changes nothing here.
    h.asker.pushed({ after: 10, msg_id: 20 });
    h.asker.pushed({ after: 1, msg_id: 9 });
    await vi.advanceTimersByTimeAsync(READ_LIST_AGAIN_MS);
    expect(h.calls).toHaveLength(2);
    // Later, a lone push is asked about at once; steady pushes once per interval, never starved.
    await vi.advanceTimersByTimeAsync(READ_LIST_AGAIN_MS);
    h.asker.pushed({ after: 0, msg_id: 10 });
    expect(h.calls).toHaveLength(3);
    for (let ms = 0; ms < READ_LIST_AGAIN_MS * 3; ms += 100) {
      h.asker.pushed({ after: 0, msg_id: 10 });
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(h.calls.length).toBeGreaterThanOrEqual(5);
    expect(h.calls.length).toBeLessThanOrEqual(6);
    h.asker.stop();
    h.asker.pushed({ after: 0, msg_id: 10 });
    await vi.advanceTimersByTimeAsync(READ_LIST_AGAIN_MS * 2);
    expect(h.calls.length).toBeLessThanOrEqual(6);
  });

  it('keeps answers arriving out of order from going back, and shows a failure to be retried', async () => {
    const h = harness();
    h.asker.ask();
    h.asker.ask();
    h.calls[1]!.resolve(2);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.shown).toEqual([{ ok: true, list: 2 }]);
    // The older answering first is shown until the newer comes.
    h.asker.ask();
    h.asker.ask();
    h.calls[2]!.resolve(3);
    await vi.advanceTimersByTimeAsync(0);
    h.calls[3]!.reject();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.shown.slice(1)).toEqual([{ ok: true, list: 3 }, { ok: false }]);
    h.asker.ask();
    h.calls[4]!.resolve(4);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.shown.at(-1)).toEqual({ ok: true, list: 4 });
  });
});
