import { request } from '../api';
import { ADMIN_NOTICE_KEY, SYSTEM_KEY, contactIdOf, contactKey } from '../lib/conversation-list';
import { readUserItem, storage } from '../lib/storage';
import { contacts, contactsStore } from '../stores/contacts';
import { sessionStore } from '../stores/session';
import { deliver, isGroupOf } from './registry';
import { SyncRunner } from './sync';

/** A list loaded this recently needs no reload after a catch-up that brought nothing. */
const FRESH_MS = 10_000;

const userId = () => sessionStore.getState().user?.user_id ?? null;

/**
 * Without a cursor (first sign-in on this browser): the newest msg_id of the conversations with
 * the latest messages. msg_ids grow with time, so anything newer is found by the first `sync`.
 */
async function newestKnownMsgId(): Promise<number> {
  await contacts.load();
  const candidates = Object.values(contactsStore.getState().rows)
    .filter((c) => c.lastSendTime > 0 && c.id !== SYSTEM_KEY && c.id !== ADMIN_NOTICE_KEY)
    .sort((a, b) => b.lastSendTime - a.lastSendTime)
    .slice(0, 3);
  let newest = 0;
  for (const c of candidates) {
    const key = contactKey(c.id);
    const { data } = await request(
      'getMessageList',
      { toContactId: contactIdOf(key), is_group: isGroupOf(key), limit: 1 },
      { silent: true },
    );
    newest = Math.max(newest, ...data.map((m) => m.msg_id));
  }
  return newest;
}

/** The catch-up of the signed-in user: runs after every socket (re)bind. */
export const catchUp = new SyncRunner({
  fetch: async (afterId, limit) => {
    const { data, count } = await request('sync', { after_id: afterId, limit }, { silent: true });
    return { messages: data, remaining: count ?? 0 };
  },
  loadCursor: () => readUserItem('syncCursor', userId())?.msg_id ?? null,
  saveCursor: (msg_id) => {
    const user_id = userId();
    if (user_id !== null) storage.set('syncCursor', { user_id, msg_id });
  },
  initialCursor: newestKnownMsgId,
  onMessages: (messages) => deliver(messages),
  // Counters (unread, mentions) live on the server's conversation rows: fetch them fresh, unless
  // nothing came and the list was loaded moments ago (the first bind after opening the app).
  onCaughtUp: (received) => {
    if (received === 0 && contacts.age() < FRESH_MS) return;
    contacts.load().catch(() => {
      // Offline again: the next bind catches up.
    });
  },
});
