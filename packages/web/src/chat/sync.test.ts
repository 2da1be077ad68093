import type { Message } from '@sparrow/protocol';
import { describe, expect, it, vi } from 'vitest';
import { SyncRunner, type SyncDeps } from './sync';
import { msg } from './test-messages';

/** A server holding `all` (ascending); `sync` pages of `limit` after a cursor. */
function setup(all: Message[], cursor: number | null, over: Partial<SyncDeps> = {}) {
  const saved: number[] = [];
  let current = cursor;
  const received: number[] = [];
  const deps: SyncDeps = {
    fetch: vi.fn(async (afterId: number, limit: number) => {
      const after = all.filter((m) => m.msg_id > afterId);
      return { messages: after.slice(0, limit), remaining: Math.max(0, after.length - limit) };
    }),
    loadCursor: () => current,
    saveCursor: (n) => {
      current = n;
      saved.push(n);
    },
    initialCursor: vi.fn(async () => 0),
    onMessages: (ms) => received.push(...ms.map((m) => m.msg_id)),
    onCaughtUp: vi.fn(),
    ...over,
  };
  return { runner: new SyncRunner(deps), deps, saved, received, cursor: () => current };
}

describe('SyncRunner', () => {
  it('pages from the saved cursor until nothing remains, moving the cursor per page', async () => {
    const all = Array.from({ length: 450 }, (_, i) => msg(i + 1));
    const { runner, deps, saved, received, cursor } = setup(all, 10);
    await runner.request();
    expect(received).toHaveLength(440);
    expect(received[0]).toBe(11);
    expect(received.at(-1)).toBe(450);
    expect(saved).toEqual([210, 410, 450]);
    expect(cursor()).toBe(450);
    expect(deps.fetch).toHaveBeenCalledTimes(3);
    expect(deps.onCaughtUp).toHaveBeenCalledWith(440);
  });

  it('starts from the newest known message when there is no cursor yet', async () => {
    const { runner, received, saved } = setup([msg(1), msg(2), msg(3)], null, { initialCursor: async () => 2 });
    await runner.request();
    expect(saved[0]).toBe(2);
    expect(received).toEqual([3]);
  });

  it('runs once more, not twice at once, when asked during a run', async () => {
    let calls = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const { runner } = setup([], 0, {
      fetch: async () => {
        calls++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return { messages: [], remaining: 0 };
      },
    });
    const first = runner.request();
    void runner.request();
    void runner.request();
    await first;
    expect(calls).toBe(2);
    expect(maxInFlight).toBe(1);
  });

  it('keeps the cursor where it was when a page fails, and tries again next time', async () => {
    let fail = true;
    const all = [msg(5), msg(6)];
    const { runner, cursor, received } = setup(all, 4, {
      fetch: async (afterId) => {
        if (fail) throw new Error('offline');
        const after = all.filter((m) => m.msg_id > afterId);
        return { messages: after, remaining: 0 };
      },
    });
    await runner.request();
    expect(cursor()).toBe(4);
    fail = false;
    await runner.request();
    expect(received).toEqual([5, 6]);
    expect(cursor()).toBe(6);
  });
});
