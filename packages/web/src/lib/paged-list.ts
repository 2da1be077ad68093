/** One page as the server answered it. */
export interface ListPage<T> {
  items: readonly T[];
  /** Whether there is more after it; when left out, more is as long as fewer than `total` are loaded. */
  more?: boolean;
  /** How many there are in all, when the server says. */
  total?: number;
}

/** What a list has read so far, given to `read` to ask for what follows. */
export interface Loaded<T> {
  items: readonly T[];
  /** Pages read (0 before the first). */
  pages: number;
}

/** A list's I/O, injected: how a page is read and what makes two items the same. */
export interface PagedListIo<T> {
  /** The page that follows `loaded` (the first when nothing is loaded). */
  read(loaded: Loaded<T>): Promise<ListPage<T>>;
  /** An item's identity: a page that holds an item already loaded does not add it twice. */
  key(item: T): string | number;
}

export interface PagedListState<T> {
  /** The first page: on its way, shown, or failed with nothing shown. */
  status: 'loading' | 'ready' | 'failed';
  items: readonly T[];
  pages: number;
  more: boolean;
  /** How many there are in all, when the server said; else null. */
  total: number | null;
  /** The next page: not asked, on its way, or failed (asking again retries it). */
  next: 'idle' | 'loading' | 'failed';
}

const EMPTY = { status: 'loading', items: [], pages: 0, more: false, total: null, next: 'idle' } as const;

/**
 * A list read page by page (moments, a chat's history, files, search hits), without React: it keeps
 * what is loaded, reads the first page again or the next one, drops a page that answers a question
 * asked before the list was started again, and tells its listeners of each change. Pages compose it
 * through `usePagedList`; its I/O is given, so it is tested without a server.
 */
export class PagedList<T> {
  private current: PagedListState<T> = EMPTY;
  private readonly listeners = new Set<() => void>();
  /** Counts the starts and first pages read again; an answer to an older one is dropped. */
  private generation = 0;

  constructor(private readonly io: PagedListIo<T>) {}

  get state(): PagedListState<T> {
    return this.current;
  }

  readonly getState = (): PagedListState<T> => this.current;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Empties the list and reads the first page. */
  start(): Promise<boolean> {
    this.generation++;
    this.set(EMPTY);
    return this.readFirst();
  }

  /**
   * Reads the first page again, the items shown staying until it comes; answers whether it came. A
   * failure leaves a list that was shown as it is.
   */
  refresh(): Promise<boolean> {
    this.generation++;
    return this.readFirst();
  }

  /** Stops listening for the answers on their way (the page using it has gone). */
  stop(): void {
    this.generation++;
  }

  /** Reads the next page, once at a time and only when there is one. */
  async loadMore(): Promise<void> {
    const s = this.current;
    if (s.status !== 'ready' || !s.more || s.next === 'loading') return;
    const asked = this.generation;
    this.set({ ...s, next: 'loading' });
    try {
      const page = await this.io.read({ items: s.items, pages: s.pages });
      if (asked !== this.generation) return;
      const now = this.current;
      const seen = new Set(now.items.map(this.io.key));
      const items = [...now.items, ...page.items.filter((i) => !seen.has(this.io.key(i)))];
      this.set(this.settled(items, now.pages + 1, page, now.total));
    } catch {
      if (asked === this.generation) this.set({ ...this.current, next: 'failed' });
    }
  }

  /** Changes the items loaded (an item edited, removed, or a page read again laid over them). */
  readonly update = (change: (items: readonly T[]) => readonly T[]): void => {
    this.set({ ...this.current, items: change(this.current.items) });
  };

  /**
   * Lays an answer asked beside the paging (a push's page read again) over the items, unless the
   * list was started again meanwhile; a failed one changes nothing. A list whose first page had not
   * come is shown from then on, paging on from what was laid.
   */
  async apply<R>(answer: Promise<R>, lay: (items: readonly T[], answer: R) => readonly T[]): Promise<void> {
    const asked = this.generation;
    try {
      const got = await answer;
      if (asked !== this.generation) return;
      const s = this.current;
      const shown = s.status === 'ready' ? s : { ...s, status: 'ready' as const, pages: 1, more: true };
      this.set({ ...shown, items: lay(s.items, got) });
    } catch {
      // What is shown stays; reading the list again brings it up to date.
    }
  }

  private async readFirst(): Promise<boolean> {
    const asked = this.generation;
    try {
      const page = await this.io.read({ items: [], pages: 0 });
      if (asked !== this.generation) return false;
      this.set(this.settled([...page.items], 1, page, null));
      return true;
    } catch {
      if (asked === this.generation && this.current.status !== 'ready') this.set({ ...this.current, status: 'failed' });
      return false;
    }
  }

  private settled(items: readonly T[], pages: number, page: ListPage<T>, total: number | null): PagedListState<T> {
    const known = page.total ?? total;
    const more = page.more ?? (known !== null && items.length < known);
    return { status: 'ready', items, pages, more, total: known, next: 'idle' };
  }

  private set(next: PagedListState<T>): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
