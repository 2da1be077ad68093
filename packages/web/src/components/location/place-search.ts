import { LOCATION } from '@sparrow/protocol';
import { boundingBox, distanceM, isLatLng, type LatLng } from './geo';

/** A place the picker can send (docs/product.md §3 "Location result"). */
export interface Place extends LatLng {
  /** The search service's id; '' for a pin placed by hand. */
  id: string;
  name: string;
  address: string;
  /** From the map's centre, when known. */
  distanceM?: number;
}

/** `nearby`: within LOCATION.nearbyRadiusM of the centre; `wide`: anywhere. */
export type SearchScope = 'nearby' | 'wide';

export interface PageQuery {
  query: string;
  center: LatLng | null;
  scope: SearchScope;
  /** Places already shown, so the service answers the next ones (Nominatim pages this way). */
  exclude: readonly string[];
  limit: number;
  language: string;
  radiusM: number;
}

/** The URL of one page of a Nominatim-compatible search. */
export function searchPageUrl(base: string, q: PageQuery): string {
  const url = new URL(base, globalThis.location?.href ?? 'http://localhost/');
  url.searchParams.set('q', q.query);
  url.searchParams.set('format', 'jsonv2');
  url.searchParams.set('addressdetails', '1');
  url.searchParams.set('limit', String(q.limit));
  if (q.language) url.searchParams.set('accept-language', q.language);
  if (q.exclude.length) url.searchParams.set('exclude_place_ids', q.exclude.join(','));
  if (q.center && q.scope === 'nearby') {
    url.searchParams.set('viewbox', boundingBox(q.center, q.radiusM).join(','));
    url.searchParams.set('bounded', '1');
  }
  return url.href;
}

/** The reverse-geocoding URL next to a search URL (`…/search` → `…/reverse`). */
export function reverseUrl(base: string, point: LatLng, language: string): string | null {
  const url = new URL(base, globalThis.location?.href ?? 'http://localhost/');
  if (!/\/search\/?$/.test(url.pathname)) return null;
  url.pathname = url.pathname.replace(/\/search\/?$/, '/reverse');
  url.search = '';
  url.searchParams.set('lat', String(point.latitude));
  url.searchParams.set('lon', String(point.longitude));
  url.searchParams.set('format', 'jsonv2');
  if (language) url.searchParams.set('accept-language', language);
  return url.href;
}

interface RawPlace {
  place_id?: unknown;
  osm_id?: unknown;
  lat?: unknown;
  lon?: unknown;
  name?: unknown;
  display_name?: unknown;
}

/** One answer of the service as a Place; null when it lacks a position. */
export function parsePlace(raw: unknown, center: LatLng | null): Place | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as RawPlace;
  const point = { latitude: Number(r.lat), longitude: Number(r.lon) };
  if (!isLatLng(point)) return null;
  const display = typeof r.display_name === 'string' ? r.display_name.trim() : '';
  const parts = display
    .split(/,\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  const name = (typeof r.name === 'string' && r.name.trim()) || parts[0] || display;
  if (!name) return null;
  const rest = parts[0] === name ? parts.slice(1) : parts;
  const id = r.place_id ?? r.osm_id;
  return {
    id: typeof id === 'number' || typeof id === 'string' ? String(id) : '',
    name: name.slice(0, 100),
    address: rest.join(', ').slice(0, 200),
    ...point,
    ...(center && { distanceM: distanceM(center, point) }),
  };
}

export function parsePlaces(body: unknown, center: LatLng | null): Place[] {
  const list = Array.isArray(body) ? body : [];
  return list.map((raw) => parsePlace(raw, center)).filter((p): p is Place => p !== null);
}

export interface SearchState {
  query: string;
  /** `waiting`: typed, inside the debounce; `error`: the service could not be reached. */
  status: 'idle' | 'waiting' | 'loading' | 'done' | 'error';
  places: Place[];
  hasMore: boolean;
  loadingMore: boolean;
}

export interface PlaceSearchDeps {
  fetch: (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<Response>;
  searchUrl: () => string;
  center: () => LatLng | null;
  language: () => string;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  pageSize?: number;
  debounceMs?: number;
  radiusM?: number;
}

const IDLE: SearchState = { query: '', status: 'idle', places: [], hasMore: false, loadingMore: false };

/**
 * Keyword search of the location picker (docs/product.md §9): typing waits LOCATION.searchDebounceMs before
 * it asks; pages of LOCATION.pageSize; places within LOCATION.nearbyRadiusM of the map's centre
 * first, then anywhere. An answer to an older query never replaces a newer one.
 */
export class PlaceSearch {
  private state: SearchState = IDLE;
  private readonly listeners = new Set<() => void>();
  private timer: unknown = null;
  private controller: AbortController | null = null;
  private scope: SearchScope = 'nearby';
  private readonly pageSize: number;
  private readonly debounceMs: number;
  private readonly radiusM: number;

  constructor(private readonly deps: PlaceSearchDeps) {
    this.pageSize = deps.pageSize ?? LOCATION.pageSize;
    this.debounceMs = deps.debounceMs ?? LOCATION.searchDebounceMs;
    this.radiusM = deps.radiusM ?? LOCATION.nearbyRadiusM;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): SearchState => this.state;

  private set(patch: Partial<SearchState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** The text in the search box changed: ask once typing pauses. */
  setQuery(query: string): void {
    this.deps.clearTimeout(this.timer);
    this.controller?.abort();
    const q = query.trim();
    if (!q) {
      this.state = IDLE;
      this.set({});
      return;
    }
    this.set({ query: q, status: 'waiting', places: [], hasMore: false, loadingMore: false });
    this.timer = this.deps.setTimeout(() => void this.first(q), this.debounceMs);
  }

  /** The search key was pressed: ask now. */
  submit(): void {
    this.deps.clearTimeout(this.timer);
    if (this.state.query) void this.first(this.state.query);
  }

  /** The next page of the current query (the list reached its end). */
  async loadMore(): Promise<void> {
    const { query, hasMore, loadingMore, status } = this.state;
    if (!query || !hasMore || loadingMore || status !== 'done') return;
    this.set({ loadingMore: true });
    const shown = this.state.places;
    const page = await this.page(query, this.scope, shown);
    if (page === 'stale') return;
    if (page === 'failed') {
      this.set({ loadingMore: false });
      return;
    }
    this.settle(query, [...shown, ...page], page.length);
  }

  dispose(): void {
    this.deps.clearTimeout(this.timer);
    this.controller?.abort();
    this.listeners.clear();
  }

  private async first(query: string): Promise<void> {
    this.scope = this.deps.center() ? 'nearby' : 'wide';
    this.set({ status: 'loading', places: [], hasMore: false, loadingMore: false });
    let page = await this.page(query, this.scope, []);
    // Nothing close by: the name may be of a place elsewhere.
    if (Array.isArray(page) && page.length === 0 && this.scope === 'nearby') {
      this.scope = 'wide';
      page = await this.page(query, 'wide', []);
    }
    if (page === 'stale') return;
    if (page === 'failed') {
      this.set({ status: 'error' });
      return;
    }
    this.settle(query, page, page.length);
  }

  /** After a page: a short nearby page goes on with places anywhere, a short wide page ends. */
  private settle(query: string, places: Place[], pageLength: number): void {
    const lastPageFull = pageLength >= this.pageSize;
    let hasMore = lastPageFull;
    if (!lastPageFull && this.scope === 'nearby') {
      this.scope = 'wide';
      hasMore = true;
    }
    this.set({ query, status: 'done', places, hasMore, loadingMore: false });
  }

  private async page(
    query: string,
    scope: SearchScope,
    shown: readonly Place[],
  ): Promise<Place[] | 'failed' | 'stale'> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const center = this.deps.center();
    const exclude = shown.map((p) => p.id).filter(Boolean);
    const url = searchPageUrl(this.deps.searchUrl(), {
      query,
      center,
      scope,
      exclude,
      limit: this.pageSize,
      language: this.deps.language(),
      radiusM: this.radiusM,
    });
    try {
      const res = await this.deps.fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`search answered ${res.status}`);
      const body: unknown = await res.json();
      if (controller.signal.aborted || this.state.query !== query) return 'stale';
      const known = new Set(shown.map((p) => p.id));
      return parsePlaces(body, center).filter((p) => !p.id || !known.has(p.id));
    } catch {
      if (controller.signal.aborted || this.state.query !== query) return 'stale';
      return 'failed';
    }
  }
}
