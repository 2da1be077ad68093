import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localStore } from '../chat/local-store';
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
    items,
  };
  vi.stubGlobal('window', page.window);
  vi.stubGlobal('document', page.document);
  vi.stubGlobal('localStorage', page.localStorage);
  return page;
}

/** Signs `user_id` in as a start finds it, and loads the stores afresh, getContacts never answering. */
async function start(page: ReturnType<typeof fakePage>, user_id: number) {
  page.localStorage.setItem('authToken', 'bearer t');
  page.localStorage.setItem('userInfo', JSON.stringify({ user_id, id: user_id, account: 'me', realname: 'Me' }));
  vi.resetModules();
  const asked: string[] = [];
  vi.doMock('../api', () => ({
    request: (name: string) => {
      asked.push(name);
      return new Promise(() => {});
    },
  }));
  const { contacts, contactsStore } = await import('./contacts');
  return { contacts, contactsStore, asked };
}

afterEach(() => {
  vi.doUnmock('../api');
  vi.unstubAllGlobals();
});

describe('keeping the contact rows in the local store', () => {
  it('writes the rows that changed moments after a change, and removes those gone', async () => {
    const page = fakePage();
    const { contacts, contactsStore } = await start(page, 41);
    await contacts.restored();
    contactsStore.setState({ rows: { '2': contactRow(2), '3': contactRow(3) } });
    await vi.waitFor(async () => expect((await localStore.conversations(41)).map((c) => c.id)).toEqual([2, 3]));
    contacts.patch('2', { lastContent: '新的' });
    contacts.remove('3');
    await vi.waitFor(async () =>
      expect(await localStore.conversations(41)).toMatchObject([{ id: 2, lastContent: '新的' }]),
    );
  });

  it('writes them at once when the page is hidden', async () => {
    const page = fakePage();
    const { contacts, contactsStore } = await start(page, 42);
    await contacts.restored();
    contactsStore.setState({ rows: { '5': contactRow(5) } });
    page.document.visibilityState = 'hidden';
    page.document.dispatchEvent(new Event('visibilitychange'));
    // Sooner than the wait after a change.
    await vi.waitFor(async () => expect(await localStore.conversations(42)).toHaveLength(1), { timeout: 200 });
  });
});

describe('the first paint from the stored rows', () => {
  it('the Messages and Contacts lists show the rows kept last time while getContacts is still on its way', async () => {
    const rows = [
      contactRow(2, { displayName: 'Bea', index: 'B', lastContent: '明天见', lastSendTime: 200 }),
      contactRow(3, { displayName: 'Ann', index: 'A', lastSendTime: 0 }),
      contactRow('group-1', { displayName: '读书会', lastContent: '好', lastSendTime: 300, is_top: 1 }),
      contactRow('system', { unread: 2 }),
    ];
    await localStore.saveConversations(7, rows, []);
    const page = fakePage();
    // The list's earlier home, in localStorage, goes.
    page.localStorage.setItem('allContacts', JSON.stringify({ user_id: 7, rows, pending: 2 }));
    const { contacts, contactsStore, asked } = await start(page, 7);
    void contacts.load();
    expect(asked).toEqual(['getContacts']);
    await contacts.restored();
    expect(page.items.has('allContacts')).toBe(false);

    const state = contactsStore.getState();
    expect(state.loaded).toBe(false);
    expect(state.pending).toBe(2);
    // Messages: the conversations, pinned first, then the newest; a contact never written to is not one.
    expect(
      conversationList(Object.values(state.rows), {})
        .filter((c) => c.id !== 'system')
        .map((c) => c.displayName),
    ).toEqual(['读书会', 'Bea']);
    // Contacts: the people A–Z.
    const people = groupContacts(Object.values(state.rows).filter((c) => c.id !== 'system'));
    expect(people.letters).toEqual(['A', 'B']);
    expect(people.items.map((c) => c.displayName)).toEqual(['Ann', 'Bea']);
  });

  it('a row kept and gone from the list the server answered first is removed, not shown again offline', async () => {
    await localStore.saveConversations(8, [contactRow(2), contactRow(3)], []);
    const page = fakePage();
    const { contacts, contactsStore } = await start(page, 8);
    // getContacts answers before the kept rows are read: contact 3 was deleted meanwhile.
    contactsStore.setState({ rows: { '2': contactRow(2) }, loaded: true });
    await contacts.restored();
    expect(Object.keys(contactsStore.getState().rows)).toEqual(['2']);
    await vi.waitFor(async () => expect((await localStore.conversations(8)).map((c) => c.id)).toEqual([2]));
  });

  it('starts where site data is blocked and reading localStorage throws', async () => {
    fakePage();
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    vi.resetModules();
    vi.doMock('../api', () => ({ request: () => new Promise(() => {}) }));
    const { contacts } = await import('./contacts');
    await expect(contacts.restored()).resolves.toBeUndefined();
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  it('another account signed in on the device starts from nothing of the last one', async () => {
    await localStore.saveConversations(9, [contactRow(2)], []);
    const page = fakePage();
    const { contacts, contactsStore } = await start(page, 10);
    await contacts.restored();
    expect(contactsStore.getState()).toMatchObject({ rows: {}, pending: 0 });
  });
});
