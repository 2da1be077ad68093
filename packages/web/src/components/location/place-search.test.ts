import { LOCATION } from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boundingBox, distanceM, formatDistance, tileOf } from './geo';
import { parsePlace, PlaceSearch, reverseUrl, searchPageUrl } from './place-search';

const center = { latitude: 39.9, longitude: 116.4 };

/** Places the fake service knows: `n` of them near the centre, numbered from `from`. */
function places(from: number, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    place_id: from + i,
    lat: String(center.latitude + (from + i) * 1e-4),
    lon: String(center.longitude),
    name: `Cafe ${from + i}`,
    display_name: `Cafe ${from + i}, Dongcheng, Beijing, China`,
  }));
}

function setup(answer: (url: URL) => unknown, opts: { center?: typeof center | null } = {}) {
  const urls: URL[] = [];
  const fetch = vi.fn(async (url: string, init: { signal: AbortSignal }) => {
    const u = new URL(url);
    urls.push(u);
    const body = answer(u);
    if (body instanceof Error) throw body;
    if (init.signal.aborted) throw new DOMException('aborted', 'AbortError');
    return new Response(JSON.stringify(body), { status: 200 });
  });
  const search = new PlaceSearch({
    fetch,
    searchUrl: () => 'http://places.test/search',
    center: () => (opts.center === undefined ? center : opts.center),
    language: () => 'zh-Hans',
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  });
  return { search, fetch, urls };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('place search', () => {
  it('uses the product’s constants: pages of 20, 5000 m nearby, 1000 ms debounce', () => {
    expect(LOCATION).toMatchObject({ pageSize: 20, nearbyRadiusM: 5000, searchDebounceMs: 1000 });
  });

  it('waits for typing to pause 1000 ms, then asks once with the latest text', async () => {
    const { search, fetch, urls } = setup(() => places(1, 3));
    search.setQuery('c');
    await vi.advanceTimersByTimeAsync(600);
    search.setQuery('ca');
    await vi.advanceTimersByTimeAsync(600);
    search.setQuery('cafe');
    expect(search.getState().status).toBe('waiting');
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(urls[0]!.searchParams.get('q')).toBe('cafe');
    await vi.runAllTimersAsync();
    expect(search.getState()).toMatchObject({ status: 'done', query: 'cafe' });
    expect(search.getState().places.map((p) => p.name)).toEqual(['Cafe 1', 'Cafe 2', 'Cafe 3']);
  });

  it('the search key asks at once', async () => {
    const { search, fetch } = setup(() => places(1, 1));
    search.setQuery('cafe');
    search.submit();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('asks first within 5000 m of the centre, in pages of 20, and pages on with the ids shown', async () => {
    const { search, urls } = setup((u) => (u.searchParams.get('exclude_place_ids') ? places(21, 20) : places(1, 20)));
    search.setQuery('cafe');
    await vi.runAllTimersAsync();
    const first = urls[0]!.searchParams;
    expect(first.get('limit')).toBe('20');
    expect(first.get('bounded')).toBe('1');
    expect(first.get('viewbox')).toBe(boundingBox(center, 5000).join(','));
    expect(first.get('accept-language')).toBe('zh-Hans');
    expect(search.getState()).toMatchObject({ hasMore: true });
    await search.loadMore();
    const second = urls[1]!.searchParams;
    expect(second.get('exclude_place_ids')!.split(',')).toHaveLength(20);
    expect(second.get('bounded')).toBe('1');
    expect(search.getState().places).toHaveLength(40);
  });

  it('a short nearby page goes on with places anywhere, and a short wide page ends the list', async () => {
    const { search, urls } = setup((u) => (u.searchParams.get('bounded') ? places(1, 5) : places(6, 3)));
    search.setQuery('cafe');
    await vi.runAllTimersAsync();
    expect(search.getState()).toMatchObject({ hasMore: true });
    await search.loadMore();
    expect(urls[1]!.searchParams.get('bounded')).toBeNull();
    expect(urls[1]!.searchParams.get('exclude_place_ids')).toBe('1,2,3,4,5');
    expect(search.getState()).toMatchObject({ hasMore: false });
    expect(search.getState().places).toHaveLength(8);
    await search.loadMore();
    expect(urls).toHaveLength(2);
  });

  it('nothing nearby: searches everywhere at once', async () => {
    const { search, urls } = setup((u) => (u.searchParams.get('bounded') ? [] : places(100, 2)));
    search.setQuery('Eiffel');
    await vi.runAllTimersAsync();
    expect(urls.map((u) => u.searchParams.get('bounded'))).toEqual(['1', null]);
    expect(search.getState().places.map((p) => p.id)).toEqual(['100', '101']);
  });

  it('without a known position searches everywhere', async () => {
    const { search, urls } = setup(() => places(1, 2), { center: null });
    search.setQuery('cafe');
    await vi.runAllTimersAsync();
    expect(urls[0]!.searchParams.get('viewbox')).toBeNull();
    expect(search.getState().places[0]!.distanceM).toBeUndefined();
  });

  it('an unreachable service says so; the picker then offers the manual pin', async () => {
    const { search } = setup(() => new TypeError('Failed to fetch'));
    search.setQuery('cafe');
    await vi.runAllTimersAsync();
    expect(search.getState().status).toBe('error');
  });

  it('an answer to an older query never replaces the newer one', async () => {
    let release: (() => void) | undefined;
    const gate = new Promise<void>((r) => (release = r));
    const fetch = vi.fn(async (url: string, init: { signal: AbortSignal }) => {
      const q = new URL(url).searchParams.get('q');
      if (q === 'old') await gate;
      if (init.signal.aborted) throw new DOMException('aborted', 'AbortError');
      return new Response(JSON.stringify(q === 'old' ? places(1, 1) : places(50, 1)));
    });
    const search = new PlaceSearch({
      fetch,
      searchUrl: () => 'http://places.test/search',
      center: () => null,
      language: () => 'en',
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    });
    search.setQuery('old');
    search.submit();
    search.setQuery('new');
    search.submit();
    await vi.advanceTimersByTimeAsync(0);
    release?.();
    await vi.runAllTimersAsync();
    expect(search.getState().places.map((p) => p.id)).toEqual(['50']);
  });

  it('clearing the box clears the list', async () => {
    const { search } = setup(() => places(1, 2));
    search.setQuery('cafe');
    await vi.runAllTimersAsync();
    search.setQuery('  ');
    expect(search.getState()).toMatchObject({ status: 'idle', places: [] });
  });
});

describe('place answers and map maths', () => {
  it('reads a Nominatim answer: name, the rest of the address, the distance', () => {
    const p = parsePlace(
      { place_id: 9, lat: '39.91', lon: '116.4', name: '', display_name: 'Jingshan Park, Xicheng, Beijing' },
      center,
    );
    expect(p).toMatchObject({ id: '9', name: 'Jingshan Park', address: 'Xicheng, Beijing' });
    expect(Math.round(p!.distanceM!)).toBe(1112);
    expect(parsePlace({ lat: 'x', lon: '1', display_name: 'a' }, null)).toBeNull();
    expect(parsePlace({ lat: '91', lon: '1', display_name: 'a' }, null)).toBeNull();
  });

  it('the nearby box is 5000 m each way', () => {
    const [w, s, e, n] = boundingBox(center, 5000);
    expect(Math.round(distanceM(center, { latitude: n, longitude: center.longitude }))).toBe(5000);
    expect(Math.round(distanceM(center, { latitude: center.latitude, longitude: e }))).toBe(5000);
    expect(w).toBeLessThan(center.longitude);
    expect(s).toBeLessThan(center.latitude);
  });

  it('derives the reverse URL and builds page URLs', () => {
    expect(reverseUrl('http://places.test/api/search', center, 'en')).toBe(
      'http://places.test/api/reverse?lat=39.9&lon=116.4&format=jsonv2&accept-language=en',
    );
    expect(reverseUrl('http://places.test/find', center, 'en')).toBeNull();
    const url = new URL(
      searchPageUrl('http://places.test/search', {
        query: '咖啡',
        center: null,
        scope: 'wide',
        exclude: [],
        limit: 20,
        language: '',
        radiusM: 5000,
      }),
    );
    expect(url.searchParams.get('q')).toBe('咖啡');
    expect(url.searchParams.get('format')).toBe('jsonv2');
  });

  it('formats distances and finds tiles', () => {
    expect(formatDistance(12.4)).toBe('12 m');
    expect(formatDistance(1234)).toBe('1.2 km');
    expect(formatDistance(23_456)).toBe('23 km');
    expect(tileOf({ latitude: 0, longitude: 0 }, 1)).toEqual({ x: 1, y: 1, px: 0, py: 0 });
  });
});
