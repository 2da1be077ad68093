import { describe, expect, it } from 'vitest';
import { PagedList, type ListPage, type Loaded } from './paged-list';

interface Row {
  id: number;
  text?: string;
}

/** A list whose pages are answered by hand, in any order, to show what each answer does. */
function harness() {
  const asked: { loaded: Loaded<Row>; resolve(page: ListPage<Row>): void; reject(): void }[] = [];
  const list = new PagedList<Row>({
    read: (loaded) =>
      new Promise((resolve, reject) => asked.push({ loaded, resolve, reject: () => reject(new Error('offline')) })),
    key: (r) => r.id,
  });
  const changes: string[] = [];
  list.subscribe(() => changes.push(`${list.state.status}/${list.state.next}`));
  return { list, asked, changes };
}

const rows = (...ids: number[]) => ids.map((id) => ({ id }));
const ids = (list: PagedList<Row>) => list.state.items.map((r) => r.id);

describe('PagedList', () => {
  it('reads the first page on start, then the next from what is loaded, without a duplicate', async () => {
    const { list, asked } = harness();
    const first = list.start();
    expect(list.state).toMatchObject({ status: 'loading', items: [], pages: 0 });
    asked[0]!.resolve({ items: rows(9, 8, 7), more: true });
    await expect(first).resolves.toBe(true);
    expect(list.state).toMatchObject({ status: 'ready', pages: 1, more: true, next: 'idle' });

    const more = list.loadMore();
    expect(list.state.next).toBe('loading');
    expect(asked[1]!.loaded).toEqual({ items: rows(9, 8, 7), pages: 1 });
    asked[1]!.resolve({ items: rows(7, 6), more: false });
    await more;
    expect(ids(list)).toEqual([9, 8, 7, 6]);
    expect(list.state).toMatchObject({ pages: 2, more: false, next: 'idle' });
  });

  it('asks one next page at a time, and none when there is no more', async () => {
    const { list, asked } = harness();
    const first = list.start();
    asked[0]!.resolve({ items: rows(3), more: true });
    await first;
    void list.loadMore();
    void list.loadMore();
    expect(asked).toHaveLength(2);
    asked[1]!.resolve({ items: [], more: false });
    await Promise.resolve();
    await list.loadMore();
    expect(asked).toHaveLength(2);
  });

  it('counts more from the total when the page does not say', async () => {
    const { list, asked } = harness();
    const first = list.start();
    asked[0]!.resolve({ items: rows(5, 4), total: 3 });
    await first;
    expect(list.state).toMatchObject({ more: true, total: 3 });
    const more = list.loadMore();
    asked[1]!.resolve({ items: rows(3) });
    await more;
    expect(list.state).toMatchObject({ more: false, total: 3, pages: 2 });
  });

  it('keeps the items when the next page fails, and asks it again', async () => {
    const { list, asked } = harness();
    const first = list.start();
    asked[0]!.resolve({ items: rows(2), more: true });
    await first;
    const failed = list.loadMore();
    asked[1]!.reject();
    await failed;
    expect(list.state).toMatchObject({ status: 'ready', next: 'failed', more: true });
    expect(ids(list)).toEqual([2]);
    const again = list.loadMore();
    asked[2]!.resolve({ items: rows(1), more: false });
    await again;
    expect(ids(list)).toEqual([2, 1]);
  });

  it('fails a first page with nothing shown, and a refresh that fails leaves what is shown', async () => {
    const { list, asked } = harness();
    const first = list.start();
    asked[0]!.reject();
    await expect(first).resolves.toBe(false);
    expect(list.state.status).toBe('failed');

    const retry = list.refresh();
    asked[1]!.resolve({ items: rows(4), more: false });
    await expect(retry).resolves.toBe(true);
    const refresh = list.refresh();
    expect(list.state.status).toBe('ready');
    asked[2]!.reject();
    await expect(refresh).resolves.toBe(false);
    expect(list.state.status).toBe('ready');
    expect(ids(list)).toEqual([4]);
  });

  it('drops an answer to a question asked before the list started again or stopped', async () => {
    const { list, asked } = harness();
    void list.start();
    const second = list.start();
    asked[1]!.resolve({ items: rows(2), more: true });
    await second;
    asked[0]!.resolve({ items: rows(1), more: false });
    await Promise.resolve();
    expect(ids(list)).toEqual([2]);

    const more = list.loadMore();
    list.stop();
    asked[2]!.resolve({ items: rows(0), more: false });
    await more;
    expect(ids(list)).toEqual([2]);
    expect(list.state.next).toBe('loading');
  });

  it('updates items in place and lays an answer over them unless the list started again', async () => {
    const { list, asked } = harness();
    const first = list.start();
    asked[0]!.resolve({ items: rows(3, 2, 1), more: false });
    await first;
    list.update((items) => items.filter((r) => r.id !== 2));
    expect(ids(list)).toEqual([3, 1]);

    await list.apply(Promise.resolve({ id: 3, text: 'edited' }), (items, row) =>
      items.map((r) => (r.id === row.id ? row : r)),
    );
    expect(list.state.items[0]).toEqual({ id: 3, text: 'edited' });

    let late!: (row: Row) => void;
    const applied = list.apply(new Promise<Row>((r) => (late = r)), (items, row) => [row, ...items]);
    void list.start();
    late({ id: 9 });
    await applied;
    expect(ids(list)).toEqual([]);
    await list.apply(Promise.reject(new Error('offline')), () => rows(0));
    expect(ids(list)).toEqual([]);
  });

  it('tells its listeners of each change', async () => {
    const { list, asked, changes } = harness();
    const first = list.start();
    asked[0]!.resolve({ items: rows(1), more: true });
    await first;
    const more = list.loadMore();
    asked[1]!.reject();
    await more;
    expect(changes).toEqual(['loading/idle', 'ready/idle', 'ready/loading', 'ready/failed']);
  });
});
