import { MOMENT_PAGE } from '@sparrow/protocol';
import { describe, expect, it } from 'vitest';
import { mergePage } from './feed-pages';

const posts = (...ids: number[]) => ids.map((id) => ({ id, v: 0 }));
/** Ids from `top` down, `n` of them. */
const run = (top: number, n: number) => Array.from({ length: n }, (_, i) => top - i);

describe('laying a page read again over the loaded feed', () => {
  it('puts a new post on top and keeps every page scrolled through', () => {
    const loaded = posts(...run(100, MOMENT_PAGE * 3));
    const first = posts(101, ...run(100, MOMENT_PAGE - 1));
    const merged = mergePage(loaded, first, 0);
    expect(merged.map((p) => p.id)).toEqual([101, ...run(100, MOMENT_PAGE * 3)]);
  });

  it('takes the fresh copy of a post it read again, and drops one the page no longer holds', () => {
    const loaded = posts(...run(100, MOMENT_PAGE * 2));
    const page = run(100, MOMENT_PAGE + 1)
      .filter((id) => id !== 95)
      .map((id) => ({ id, v: id === 96 ? 1 : 0 }));
    const merged = mergePage(loaded, page, 101);
    expect(merged.some((p) => p.id === 95)).toBe(false);
    expect(merged.find((p) => p.id === 96)?.v).toBe(1);
    expect(merged).toHaveLength(MOMENT_PAGE * 2 - 1);
  });

  it('reads a short page as the end of the list', () => {
    expect(mergePage(posts(5, 4, 3, 2, 1), posts(5, 3), 0).map((p) => p.id)).toEqual([5, 3]);
    expect(mergePage(posts(5, 4), [], 0)).toEqual([]);
  });

  it('adds nothing below the oldest post loaded, where paging goes on', () => {
    const loaded = posts(...run(100, MOMENT_PAGE));
    // A like on a post further down than the pages loaded so far.
    expect(mergePage(loaded, posts(...run(50, MOMENT_PAGE)), 51)).toEqual(loaded);
    const first = mergePage(loaded, posts(101, ...run(100, MOMENT_PAGE - 1)), 0);
    expect(first.map((p) => p.id)).toEqual([101, ...run(100, MOMENT_PAGE)]);
    const deeper = mergePage(loaded, posts(...run(95, MOMENT_PAGE)), 96);
    expect(deeper.map((p) => p.id)).toEqual(run(100, MOMENT_PAGE));
  });

  it('leaves the posts above the stretch it read alone', () => {
    expect(mergePage(posts(9, 8, 7, 6), posts(7), 8).map((p) => p.id)).toEqual([9, 8, 7]);
  });
});
