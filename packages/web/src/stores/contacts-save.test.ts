import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contactRow } from '../test/fixtures';

/** A page as the contacts store sees it: its events, its visibility and its localStorage. */
function fakePage() {
  const items = new Map<string, string>();
  const page = {
    window: new EventTarget(),
    document: Object.assign(new EventTarget(), { visibilityState: 'visible' }),
    localStorage: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    },
    stored: () => {
      const raw = items.get('allContacts');
      return raw ? (JSON.parse(raw) as { user_id: number; rows: Array<{ id: unknown }> }) : null;
    },
  };
  vi.stubGlobal('window', page.window);
  vi.stubGlobal('document', page.document);
  vi.stubGlobal('localStorage', page.localStorage);
  return page;
}

async function freshStores() {
  vi.resetModules();
  const { contactsStore } = await import('./contacts');
  const { sessionStore } = await import('./session');
  sessionStore.setState({ token: 'bearer t', user: { user_id: 7 } as never });
  return { contactsStore };
}

describe('keeping the contact rows for the next start', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('writes them when the page is hidden, not a moment after each change', async () => {
    const page = fakePage();
    const { contactsStore } = await freshStores();
    contactsStore.setState({ rows: { '2': contactRow(2) }, pending: 1 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(page.stored()).toBeNull();

    page.document.visibilityState = 'hidden';
    page.document.dispatchEvent(new Event('visibilitychange'));
    expect(page.stored()).toMatchObject({ user_id: 7, rows: [{ id: 2 }], pending: 1 });
  });

  it('writes them when the page goes away (a reload, a closed tab), and at most every 30 s meanwhile', async () => {
    const page = fakePage();
    const { contactsStore } = await freshStores();
    contactsStore.setState({ rows: { '2': contactRow(2) } });
    page.window.dispatchEvent(new Event('pagehide'));
    expect(page.stored()?.rows.map((r) => r.id)).toEqual([2]);

    contactsStore.setState({ rows: { '2': contactRow(2), '3': contactRow(3) } });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(page.stored()?.rows).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(page.stored()?.rows.map((r) => r.id)).toEqual([2, 3]);
  });
});
