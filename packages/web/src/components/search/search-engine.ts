import type { RouteInput, SearchHit } from '@sparrow/protocol';
import { isUnreachable } from '../../api';
import { isGroupOf } from '../../chat/registry';
import { contactIdOf } from '../../lib/conversation-list';
import { groupHits, type ChatHits } from './hits';

/** Hits asked at once (a page of searchMessage), newest first, grouped by conversation. */
export const HITS_PAGE = 100;
/**
 * Pages of hits one "more" may read while looking for the next conversations: a conversation whose
 * hits are all older than thousands of another's is reached by pressing "more" again.
 */
export const PAGES_PER_MORE = 10;
/** How many conversations' counts are asked at the same time. */
export const PARALLEL = 4;

/** The messages stored on this device that match, newest first: the search while the server cannot be reached. */
export type ReadStoredHits = (words: string) => Promise<SearchHit[]>;

/** How the engine asks the server: searchMessage, answering its page of hits and how many there are. */
export type ReadHits = (
  body: Pick<RouteInput<'searchMessage'>, 'keywords' | 'limit'> &
    Partial<Pick<RouteInput<'searchMessage'>, 'page' | 'toContactId' | 'is_group'>>,
) => Promise<{ data: SearchHit[]; count?: number }>;

/**
 * The hits read so far, newest first, page after page of searchMessage; `total` is how many there
 * are, so the conversations of the hits not yet read are reached by reading on ("more").
 */
export type HitsState =
  | { words: string; status: 'idle' | 'loading' | 'failed' }
  | {
      words: string;
      status: 'ready';
      hits: readonly SearchHit[];
      total: number;
      /** Pages read (searchMessage `page`, from 1). */
      pages: number;
      /** Reading the next page: `failed` waits for a retry. */
      more: 'idle' | 'loading' | 'failed';
      /** Each conversation's number of hits, asked of the server while not all hits are read. */
      counts: Readonly<Record<string, number>>;
      /** The server could not be reached: the hits are those of the messages stored on this device. */
      local: boolean;
    };

type Ready = Extract<HitsState, { status: 'ready' }>;

/** A page of hits added to those read: the same message twice (the list moved on meanwhile) only once. */
function appendHits(read: readonly SearchHit[], page: readonly SearchHit[]): SearchHit[] {
  const seen = new Set(read.map((h) => h.msg_id));
  return [...read, ...page.filter((h) => !seen.has(h.msg_id))];
}

/** Whether every hit there is has been read. */
export const readAll = (s: HitsState): boolean => s.status === 'ready' && s.hits.length >= s.total;

/** The conversations of the hits read, newest first, with the counts known, as user `me` sees them. */
export function conversations(s: HitsState, me: number): ChatHits[] {
  if (s.status !== 'ready') return [];
  return groupHits(s.hits, me, readAll(s)).map((c) => {
    const n = s.counts[c.key];
    return c.count === null && n !== undefined ? { ...c, count: n } : c;
  });
}

/**
 * The search across every conversation (the search page's history section), without React: the hits
 * of the words, grouped by conversation; reading on until enough conversations are found; and the
 * counts of conversations whose hits are not all read. Answers to a search that is no longer the
 * current one are dropped. Its I/O is given, so it is tested without a server.
 */
export class HitSearch {
  private current: HitsState = { words: '', status: 'idle' };
  private readonly listeners = new Set<() => void>();
  /** Counts the searches begun. */
  private run = 0;
  /** Conversations whose count has been asked in this search. */
  private asked = new Set<string>();

  constructor(
    private readonly read: ReadHits,
    private readonly me: number,
    private readonly readStored?: ReadStoredHits,
  ) {}

  readonly getState = (): HitsState => this.current;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Searches for the words (nothing for none), dropping what an earlier search is still reading. */
  async search(words: string): Promise<void> {
    const mine = ++this.run;
    this.asked = new Set();
    if (!words) return this.set({ words: '', status: 'idle' });
    this.set({ words, status: 'loading' });
    try {
      const { data, count } = await this.read({ keywords: words, limit: HITS_PAGE });
      if (mine !== this.run) return;
      const total = Math.max(count ?? data.length, data.length);
      this.set({ words, status: 'ready', hits: data, total, pages: 1, more: 'idle', counts: {}, local: false });
    } catch (error) {
      if (mine !== this.run) return;
      const hits = this.readStored && isUnreachable(error) ? await this.readStored(words).catch(() => null) : null;
      if (mine !== this.run) return;
      if (hits) {
        // Every stored hit is read at once: the conversations' counts are known and nothing is read on.
        this.set({ words, status: 'ready', hits, total: hits.length, pages: 1, more: 'idle', counts: {}, local: true });
      } else this.set({ words, status: 'failed' });
    }
  }

  /**
   * "More": reads pages of older hits until there are `wanted` conversations, every hit is read, or
   * PAGES_PER_MORE pages are spent; a failed page stops it until it is asked again.
   */
  async readUntil(wanted: number): Promise<void> {
    const mine = this.run;
    for (let budget = PAGES_PER_MORE; budget > 0; budget--) {
      const s = this.current;
      if (mine !== this.run || s.status !== 'ready' || s.more === 'loading') return;
      if (readAll(s) || conversations(s, this.me).length >= wanted) {
        if (s.more === 'failed') this.set({ ...s, more: 'idle' });
        return;
      }
      this.set({ ...s, more: 'loading' });
      try {
        const { data, count } = await this.read({ keywords: s.words, limit: HITS_PAGE, page: s.pages + 1 });
        const now = this.ready(mine);
        if (!now) return;
        const hits = appendHits(now.hits, data);
        // A short page is the last one, whatever the count said before.
        const total = data.length < HITS_PAGE ? hits.length : Math.max(count ?? now.total, hits.length);
        this.set({ ...now, hits, total, pages: s.pages + 1, more: 'idle' });
      } catch {
        const now = this.ready(mine);
        if (now) this.set({ ...now, more: 'failed' });
        return;
      }
    }
  }

  /**
   * Asks the number of hits of each conversation shown whose hits are not all read, PARALLEL at a
   * time; a conversation is asked once a search, and one that cannot be asked keeps the "at least"
   * count of its hits read.
   */
  async count(chats: readonly ChatHits[]): Promise<void> {
    const s = this.current;
    if (s.status !== 'ready' || readAll(s)) return;
    const mine = this.run;
    const todo = chats.filter((c) => c.count === null && !this.asked.has(c.key));
    for (const c of todo) this.asked.add(c.key);
    for (let i = 0; i < todo.length; i += PARALLEL) {
      const counts: Record<string, number> = {};
      await Promise.all(
        todo.slice(i, i + PARALLEL).map(async (chat) => {
          try {
            const { count } = await this.read({
              keywords: s.words,
              toContactId: contactIdOf(chat.key),
              is_group: isGroupOf(chat.key),
              limit: 1,
            });
            counts[chat.key] = count ?? chat.loaded;
          } catch {
            counts[chat.key] = chat.loaded;
          }
        }),
      );
      const now = this.ready(mine);
      if (!now) return;
      this.set({ ...now, counts: { ...counts, ...now.counts } });
    }
  }

  /** The state, when it is still this search's and ready. */
  private ready(mine: number): Ready | null {
    const s = this.current;
    return mine === this.run && s.status === 'ready' ? s : null;
  }

  private set(next: HitsState): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
