import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationList, groupContacts } from '../lib/conversation-list';
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

describe('the first paint from the stored rows (docs/product.md §3 allContacts / mainContacts)', () => {
  afterEach(() => {
    vi.doUnmock('../api');
    vi.unstubAllGlobals();
  });

  it('the Messages and Contacts lists show the rows kept last time while getContacts is still on its way', async () => {
    const page = fakePage();
    const rows = [
      contactRow(2, { displayName: 'Bea', index: 'B', lastContent: '明天见', lastSendTime: 200 }),
      contactRow(3, { displayName: 'Ann', index: 'A', lastSendTime: 0 }),
      contactRow('group-1', { displayName: '读书会', lastContent: '好', lastSendTime: 300, is_top: 1 }),
    ];
    page.localStorage.setItem('authToken', 'bearer t');
    page.localStorage.setItem('userInfo', JSON.stringify({ user_id: 7, id: 7, account: 'me', realname: 'Me' }));
    page.localStorage.setItem('allContacts', JSON.stringify({ user_id: 7, rows, pending: 2 }));
    vi.resetModules();
    const asked: string[] = [];
    // The network never answers: what shows is what was kept.
    vi.doMock('../api', () => ({
      request: (name: string) => {
        asked.push(name);
        return new Promise(() => {});
      },
    }));
    const { contacts, contactsStore } = await import('./contacts');
    void contacts.load();
    expect(asked).toEqual(['getContacts']);

    const state = contactsStore.getState();
    expect(state.loaded).toBe(false);
    expect(state.pending).toBe(2);
    // Messages: the conversations, pinned first, then the newest; a contact never written to is not one.
    expect(conversationList(Object.values(state.rows), {}).map((c) => c.displayName)).toEqual(['读书会', 'Bea']);
    // Contacts: the people A–Z.
    const people = groupContacts(Object.values(state.rows));
    expect(people.letters).toEqual(['A', 'B']);
    expect(people.items.map((c) => c.displayName)).toEqual(['Ann', 'Bea']);
  });

  it('another account signed in on the device starts from nothing of the last one', async () => {
    const page = fakePage();
    page.localStorage.setItem('authToken', 'bearer t');
    page.localStorage.setItem('userInfo', JSON.stringify({ user_id: 8, id: 8, account: 'other', realname: 'O' }));
    page.localStorage.setItem('allContacts', JSON.stringify({ user_id: 7, rows: [contactRow(2)], pending: 1 }));
    vi.resetModules();
    const { contactsStore } = await import('./contacts');
    expect(contactsStore.getState()).toMatchObject({ rows: {}, pending: 0 });
  });
});
