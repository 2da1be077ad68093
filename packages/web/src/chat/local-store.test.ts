import 'fake-indexeddb/auto';
import type { Message } from '@sparrow/protocol';
import { deleteDB, openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { contactRow } from '../test/fixtures';
import {
  CHATS_KEPT,
  idbLocalStore,
  LOCAL_HITS_MAX,
  saveConversationRows,
  matchesWords,
  MESSAGES_PER_CHAT,
  searchableText,
  type LocalStore,
} from './local-store';
import { withEdit } from './message-updates';
import type { OutboxRecord } from './outbox';
import { msg, withdrawn } from './test-messages';

let n = 0;
function fresh(): { store: LocalStore; legacy: string } {
  n++;
  return { store: idbLocalStore(`local-test-${n}`, `legacy-outbox-${n}`), legacy: `legacy-outbox-${n}` };
}

const ids = (messages: readonly Message[]) => messages.map((m) => m.msg_id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function outboxRecord(user_id: number, id: string): OutboxRecord {
  return {
    user_id,
    key: '2',
    id,
    order: 1,
    sendTime: 1,
    body: { id, toContactId: 2, is_group: 0, type: 'text', content: id, at: [], pid: 0, extends: {} },
  };
}

describe('the local store', () => {
  it('keeps the newest messages of each conversation, up to MESSAGES_PER_CHAT, and reads pages of them', async () => {
    const { store } = fresh();
    const total = MESSAGES_PER_CHAT + 30;
    await store.saveMessages(
      1,
      range(1, total).map((id) => msg(id)),
    );
    const newest = await store.page(1, '2', { limit: 30 });
    expect(ids(newest)).toEqual(range(total - 29, total));
    const older = await store.page(1, '2', { limit: 30, last_id: total - 29 });
    expect(ids(older)).toEqual(range(total - 59, total - 30));
    // The oldest 30 went: the window holds MESSAGES_PER_CHAT.
    expect(ids(await store.page(1, '2', { limit: 1000 }))).toEqual(range(31, total));
    expect(ids(await store.page(1, '2', { limit: 4, after_id: 100 }))).toEqual([101, 102, 103, 104]);
    expect(ids(await store.page(1, '2', { limit: 4, around_id: 100 }))).toEqual([98, 99, 100, 101]);
    expect(await store.page(1, '2', { limit: 4, around_id: 5 })).toEqual([]);
  });

  it('keeps the messages of the CHATS_KEPT conversations opened or written to last', async () => {
    const { store } = fresh();
    for (let peer = 2; peer < CHATS_KEPT + 2; peer++) await store.saveMessages(1, [msg(peer, { from: peer })]);
    // Opening the oldest keeps it among the last; two more conversations push out the next oldest.
    await store.touch(1, '2');
    await store.saveMessages(1, [msg(1000, { from: 999 }), msg(1001, { from: 998 })]);
    expect(ids(await store.page(1, '2', { limit: 5 }))).toEqual([2]);
    expect(await store.page(1, '3', { limit: 5 })).toEqual([]);
    expect(await store.page(1, '4', { limit: 5 })).toEqual([]);
    expect(ids(await store.page(1, '999', { limit: 5 }))).toEqual([1000]);
  });

  it('drops stored messages a full newest page does not join, so no gap is shown', async () => {
    const { store } = fresh();
    await store.saveMessages(1, [msg(1), msg(2)]);
    await store.saveMessages(1, [msg(50), msg(51)], { key: '2', full: true });
    expect(ids(await store.page(1, '2', { limit: 30 }))).toEqual([50, 51]);
    // A page that overlaps what is stored joins it, and is what the server holds in its span: 51 was deleted.
    await store.saveMessages(1, [msg(49), msg(50), msg(52)], { key: '2', full: true });
    expect(ids(await store.page(1, '2', { limit: 30 }))).toEqual([49, 50, 52]);
  });

  it('shows only the unbroken stretch up to the newest: older pages join it, others never show', async () => {
    const { store } = fresh();
    await store.saveMessages(
      1,
      range(50, 79).map((id) => msg(id)),
      { key: '2', full: true },
    );
    // A push, then an older page that reaches the stretch: it grows down.
    await store.saveMessages(1, [msg(80)]);
    await store.saveMessages(
      1,
      range(20, 49).map((id) => msg(id)),
      { key: '2', full: true, last_id: 50 },
    );
    expect(ids(await store.page(1, '2', { limit: 1000 }))).toEqual(range(20, 80));
    // A page older than where the stretch begins does not join it: it is not kept.
    await store.saveMessages(
      1,
      range(1, 9).map((id) => msg(id)),
      { key: '2', full: true, last_id: 10 },
    );
    expect(await store.page(1, '2', { limit: 5, last_id: 20 })).toEqual([]);
    expect(await store.page(1, '2', { limit: 5, around_id: 5 })).toEqual([]);
    // A newest page beyond the stored newest: the stored stretch is no longer known to join it.
    await store.saveMessages(
      1,
      range(200, 229).map((id) => msg(id)),
      { key: '2', full: true },
    );
    expect(ids(await store.page(1, '2', { limit: 1000 }))).toEqual(range(200, 229));
    expect(await store.page(1, '2', { limit: 5, last_id: 200 })).toEqual([]);
  });

  it('reconciles with a newest page: deleted messages go, withdrawn and edited ones change', async () => {
    const { store } = fresh();
    await store.saveMessages(
      1,
      range(1, 10).map((id) => msg(id)),
      { key: '2', full: false },
    );
    const back = range(1, 10)
      .filter((id) => id !== 4)
      .map((id) => (id === 7 ? withdrawn(7) : id === 8 ? msg(8, { content: 'edited' }) : msg(id)));
    await store.saveMessages(1, back, { key: '2', full: false });
    const page = await store.page(1, '2', { limit: 30 });
    expect(ids(page)).toEqual([1, 2, 3, 5, 6, 7, 8, 9, 10]);
    expect(page.find((m) => m.msg_id === 7)?.type).toBe('event');
    expect(page.find((m) => m.msg_id === 8)?.content).toBe('edited');
    // An older page joined to the stretch reconciles its own span.
    await store.saveMessages(1, [msg(1), msg(3)], { key: '2', full: false, last_id: 5 });
    expect(ids(await store.page(1, '2', { limit: 30 }))).toEqual([1, 3, 5, 6, 7, 8, 9, 10]);
    // An empty history on the server: nothing stays.
    await store.saveMessages(1, [], { key: '2', full: false });
    expect(await store.page(1, '2', { limit: 30 })).toEqual([]);
  });

  it('forgets every message of a user when asked (no catch-up cursor), and keeps the list', async () => {
    const { store } = fresh();
    await store.saveConversations(1, [contactRow(2)], []);
    await store.saveMessages(1, [msg(1), msg(2)]);
    await store.dropMessages(1);
    expect(await store.page(1, '2', { limit: 30 })).toEqual([]);
    expect(await store.conversations(1)).toHaveLength(1);
    // Pushes after that begin a stretch of their own.
    await store.saveMessages(1, [msg(90)]);
    expect(ids(await store.page(1, '2', { limit: 30 }))).toEqual([90]);
  });

  it('shows what the server took back: a withdrawal, an edit, a deletion, a cleared history', async () => {
    const { store } = fresh();
    await store.saveMessages(1, [msg(1), msg(2), msg(3), msg(4, { group: true, from: 5 })]);
    await store.change(1, '2', 1, () => withdrawn(1));
    await store.change(1, '2', 2, (m) =>
      withEdit(m, { msg_id: 2, toContactId: 2, content: 'edited', edited: 1, sendTime: m.sendTime } as never),
    );
    await store.remove(1, '2', 3);
    // A message not stored stays not stored.
    await store.change(1, '2', 77, () => msg(77));
    const page = await store.page(1, '2', { limit: 30 });
    expect(page.map((m) => [m.msg_id, m.type, m.content])).toEqual([
      [1, 'event', 'user 2 withdrew a message'],
      [2, 'text', 'edited'],
    ]);
    await store.dropUpTo(1, 'group-1', Infinity);
    expect(await store.page(1, 'group-1', { limit: 30 })).toEqual([]);
  });

  it('keeps the chats opened last before those only written to, evicting the least recent', async () => {
    const { store } = fresh();
    await store.saveMessages(1, [msg(1, { from: 2 })]);
    await store.saveMessages(1, [msg(2, { from: 3 })]);
    await store.touch(1, '2');
    await store.touch(1, '3');
    // Many chats written to later (pushes): those opened stay, the written-to earliest go.
    for (let peer = 10; peer < CHATS_KEPT + 12; peer++) await store.saveMessages(1, [msg(peer, { from: peer })]);
    expect(ids(await store.page(1, '2', { limit: 5 }))).toEqual([1]);
    expect(ids(await store.page(1, '3', { limit: 5 }))).toEqual([2]);
    expect(await store.page(1, '10', { limit: 5 })).toEqual([]);
    expect(await store.page(1, '13', { limit: 5 })).toEqual([]);
    expect(ids(await store.page(1, '14', { limit: 5 }))).toEqual([14]);
    // Writing to an opened chat does not make a chat opened later go first.
    await store.saveMessages(1, [msg(500, { from: 2 })]);
    await store.touch(1, '61');
    await store.saveMessages(1, [msg(620, { from: 62 })]);
    expect(ids(await store.page(1, '3', { limit: 5 }))).toEqual([2]);
    expect(ids(await store.page(1, '61', { limit: 5 }))).toEqual([61]);
    expect(await store.page(1, '14', { limit: 5 })).toEqual([]);
  });

  it('refuses the writes of a user once cleared, here and in another tab, until they sign in again', async () => {
    const { store } = fresh();
    const other = idbLocalStore(`local-test-${n}`, `legacy-outbox-${n}`);
    await other.saveConversations(1, [contactRow(2)], []);
    await store.clear(1);
    // A write begun before the sign-out and made after it re-adds nothing, nor one from the other tab.
    await store.saveConversations(1, [contactRow(3)], []);
    await store.saveMessages(1, [msg(1)]);
    await store.outbox.put(outboxRecord(1, 'late'));
    await vi.waitFor(async () => {
      await other.saveConversations(1, [contactRow(4)], []);
      expect(await store.conversations(1)).toEqual([]);
    });
    expect(await store.page(1, '2', { limit: 5 })).toEqual([]);
    expect(await store.outbox.list(1)).toEqual([]);
    // Another user's writes go on.
    await other.saveConversations(7, [contactRow(5)], []);
    expect(await store.conversations(7)).toHaveLength(1);
    store.resume(1);
    await store.saveConversations(1, [contactRow(3)], []);
    expect((await store.conversations(1)).map((c) => c.id)).toEqual([3]);
    await other.close();
  });

  it('writes a long list in batches, and none after the user is cleared between them', async () => {
    const { store } = fresh();
    const rows = Object.fromEntries(range(1000, 2199).map((id) => [String(id), contactRow(id)]));
    let batches = 0;
    const clearing: LocalStore = {
      ...store,
      async saveConversations(userId, changed, gone) {
        await store.saveConversations(userId, changed, gone);
        if (++batches === 1) await store.clear(1);
      },
    };
    await saveConversationRows(1, {}, rows, clearing);
    expect(batches).toBe(3);
    expect(await store.conversations(1)).toEqual([]);
  });

  it('keeps the outbox of a user whose session merely ended, when asked', async () => {
    const { store } = fresh();
    await store.outbox.put(outboxRecord(1, 'queued'));
    await store.saveMessages(1, [msg(1)]);
    await store.clear(1, { keepOutbox: true });
    expect((await store.outbox.list(1)).map((r) => r.id)).toEqual(['queued']);
    expect(await store.page(1, '2', { limit: 5 })).toEqual([]);
  });

  it('gives way to a newer version opened in another tab instead of blocking it', async () => {
    const { store } = fresh();
    await store.saveConversations(1, [contactRow(2)], []);
    const newer = await openDB(`local-test-${n}`, 2);
    expect(newer.version).toBe(2);
    newer.close();
  });

  it('gives up opening after a while when another tab holds the database, and opens once it lets go', async () => {
    n++;
    const held = await openDB(`local-test-${n}`, 1);
    // A deletion waits for that tab, and every open after it waits behind the deletion.
    const deleting = deleteDB(`local-test-${n}`);
    const store = idbLocalStore(`local-test-${n}`, `legacy-outbox-${n}`, 50);
    await expect(store.outbox.list(1)).rejects.toThrow('timed out');
    held.close();
    await deleting;
    expect(await store.outbox.list(1)).toEqual([]);
  });

  it('keeps each user apart, clears one user, and keeps only the one signed in', async () => {
    const { store } = fresh();
    await store.saveConversations(1, [contactRow(2, { lastContent: 'for one' })], []);
    await store.saveConversations(7, [contactRow(3, { lastContent: 'for seven' })], []);
    await store.saveMessages(1, [msg(1, { content: '只给一号' })]);
    await store.saveMessages(7, [msg(2, { to: 7, content: '只给七号' })]);
    await store.outbox.put(outboxRecord(1, 'a'));
    await store.outbox.put(outboxRecord(7, 'b'));
    expect((await store.conversations(1)).map((c) => c.lastContent)).toEqual(['for one']);
    expect((await store.conversations(7)).map((c) => c.lastContent)).toEqual(['for seven']);
    expect(await store.search(7, '一号')).toEqual([]);
    expect(await store.page(7, '2', { limit: 5 })).toMatchObject([{ content: '只给七号' }]);

    await store.clear(1);
    expect(await store.conversations(1)).toEqual([]);
    expect(await store.page(1, '2', { limit: 5 })).toEqual([]);
    expect(await store.outbox.list(1)).toEqual([]);
    expect(await store.conversations(7)).toHaveLength(1);

    await store.saveConversations(3, [contactRow(4)], []);
    await store.saveConversations(12, [contactRow(5)], []);
    await store.keepOnly(7);
    expect(await store.conversations(3)).toEqual([]);
    expect(await store.conversations(12)).toEqual([]);
    expect(await store.conversations(7)).toHaveLength(1);
    expect(await store.page(7, '2', { limit: 5 })).toHaveLength(1);
    // The outbox of another account waits for it (signed out without a sign-out: a session that ended).
    expect((await store.outbox.list(7)).map((r) => r.id)).toEqual(['b']);
  });

  it('reads the rows the Messages tab lists apart from the other contacts', async () => {
    const { store } = fresh();
    await store.saveConversations(
      1,
      [
        contactRow(2, { lastSendTime: 10 }),
        contactRow(3, { lastSendTime: 0 }),
        contactRow(4, { lastSendTime: 0, is_top: 1 }),
      ],
      [],
    );
    await store.saveConversations(7, [contactRow(5, { lastSendTime: 10 })], []);
    expect((await store.conversations(1, 'listed')).map((c) => c.id)).toEqual([2, 4]);
    expect((await store.conversations(1, 'others')).map((c) => c.id)).toEqual([3]);
    // Thousands of other contacts are read in batches, every one once.
    const many = Array.from({ length: 1234 }, (_, i) => contactRow(1000 + i, { lastSendTime: 0 }));
    await store.saveConversations(1, many, []);
    const others = await store.conversations(1, 'others');
    expect(others).toHaveLength(1235);
    expect(new Set(others.map((c) => c.id)).size).toBe(1235);
    await store.saveConversations(
      1,
      [],
      many.map((c) => String(c.id)),
    );
    // A contact written to moves to the listed part.
    await store.saveConversations(1, [contactRow(3, { lastSendTime: 20 })], []);
    expect((await store.conversations(1, 'listed')).map((c) => c.id)).toEqual([2, 3, 4]);
    expect(await store.conversations(1, 'others')).toEqual([]);
  });

  it('writes conversation rows again in place and removes those gone', async () => {
    const { store } = fresh();
    await store.saveConversations(1, [contactRow(2), contactRow('group-1')], []);
    await store.saveMessages(1, [msg(1, { group: true, from: 5 }), msg(2)]);
    await store.saveConversations(1, [contactRow(2, { unread: 4 })], ['group-1']);
    expect(await store.conversations(1)).toMatchObject([{ id: 2, unread: 4 }]);
    // The group left: its messages went with its row.
    expect(await store.page(1, 'group-1', { limit: 5 })).toEqual([]);
    expect(await store.search(1, 'message')).toMatchObject([{ msg_id: 2 }]);
  });

  it('searches thousands of stored messages in batches, and folds compatibility forms as the server does', async () => {
    const { store } = fresh();
    for (let peer = 2; peer < 12; peer++)
      await store.saveMessages(
        1,
        range(peer * 1000, peer * 1000 + 149).map((id) => msg(id, { from: peer, content: `第${id}条 ｆｕｌｌ` })),
      );
    const hits = await store.search(1, 'FULL');
    expect(hits).toHaveLength(LOCAL_HITS_MAX);
    expect(hits[0]?.msg_id).toBe(11_149);
    expect(ids(await store.search(1, '第2005条'))).toEqual([2005]);
    expect(matchesWords('ｈｅｌｌｏ', 'Hello')).toBe(true);
  });

  it('finds stored messages by Chinese inside words, Latin in any case, file names, newest first', async () => {
    const { store } = fresh();
    const file: Message = {
      ...msg(3),
      type: 'file',
      content: '',
      extends: { name: '季度报告.PDF', ext: 'pdf', size: 10, file_id: 1, src: '' },
    } as Message;
    await store.saveMessages(1, [
      msg(1, { content: '明天下午开会讨论预算' }),
      msg(2, { content: 'Hello World' }),
      file,
    ]);
    expect(ids(await store.search(1, '午开'))).toEqual([1]);
    expect(ids(await store.search(1, 'world'))).toEqual([2]);
    expect(ids(await store.search(1, 'HELLO wor'))).toEqual([2]);
    expect(ids(await store.search(1, '报告.pdf'))).toEqual([3]);
    expect(ids(await store.search(1, '明天 预算'))).toEqual([1]);
    expect(await store.search(1, '后天')).toEqual([]);
    expect(matchesWords('abc', '  ')).toBe(false);
    expect(searchableText(withdrawn(1))).toBe('');
  });
});

describe('moving the old outbox', () => {
  it('moves the messages queued in the old database into the store on first open, then deletes it', async () => {
    const { store, legacy } = fresh();
    const old = await openDB(legacy, 1, {
      upgrade(db) {
        db.createObjectStore('messages', { keyPath: ['user_id', 'id'] }).createIndex('user', 'user_id');
      },
    });
    await old.put('messages', outboxRecord(1, 'queued-1'));
    await old.put('messages', { ...outboxRecord(1, 'queued-2'), order: 2 });
    await old.put('messages', outboxRecord(9, 'someone-else'));
    old.close();

    expect((await store.outbox.list(1)).map((r) => r.id)).toEqual(['queued-1', 'queued-2']);
    expect((await store.outbox.list(9)).map((r) => r.id)).toEqual(['someone-else']);
    await vi.waitFor(async () => expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(legacy));

    // Moved once: reopened, the store does not bring back what was sent since.
    await store.outbox.remove(1, 'queued-1');
    await store.close();
    const again = idbLocalStore(`local-test-${n}`, legacy);
    expect((await again.outbox.list(1)).map((r) => r.id)).toEqual(['queued-2']);
  });

  it('copies again what a tab of the client of before queues while it keeps the old database open', async () => {
    const { store, legacy } = fresh();
    const old = await openDB(legacy, 1, {
      upgrade(db) {
        db.createObjectStore('messages', { keyPath: ['user_id', 'id'] }).createIndex('user', 'user_id');
      },
    });
    await old.put('messages', outboxRecord(1, 'queued-1'));
    expect((await store.outbox.list(1)).map((r) => r.id)).toEqual(['queued-1']);
    // Sent from here; the old tab, still open, queues another and still holds the first.
    await store.outbox.remove(1, 'queued-1');
    await old.put('messages', { ...outboxRecord(1, 'queued-2'), order: 2 });
    expect((await indexedDB.databases()).map((d) => d.name)).toContain(legacy);
    old.close();
    await vi.waitFor(async () => expect((await store.outbox.list(1)).map((r) => r.id)).toEqual(['queued-2']));
    await vi.waitFor(async () => expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(legacy));
  });

  it('never creates the old database where the databases cannot be listed', async () => {
    const { store, legacy } = fresh();
    // As in a browser without indexedDB.databases(): the instance's own property hides the prototype's.
    Object.defineProperty(indexedDB, 'databases', { value: undefined, configurable: true });
    try {
      expect(await store.outbox.list(1)).toEqual([]);
    } finally {
      Reflect.deleteProperty(indexedDB, 'databases');
    }
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(legacy);
  });

  it('opens without an old database, and leaves none behind', async () => {
    const { store, legacy } = fresh();
    expect(await store.outbox.list(1)).toEqual([]);
    await vi.waitFor(async () => expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(legacy));
  });
});
