import { Codes, messagePreview, TOAST_SERVER_MS, type Message, type UploadResult } from '@sparrow/protocol';
import { ApiError, api, isUnreachable, request } from '../api';
import { feedback, preloadFeedback } from '../components/feedback';
import { translate } from '../i18n';
import { contactIdOf, isGroupKey, SELF_KEY, type ContactKey } from '../lib/conversation-list';
import { randomUuid } from '../lib/ids';
import { readUserItem, storage } from '../lib/storage';
import { contacts } from '../stores/contacts';
import { outgoing } from '../stores/outgoing';
import { sessionStore } from '../stores/session';
import { ConversationEngine, type FailureKind, type PageQuery, type SendBody, type Transfer } from './engine';
import { localStore } from './local-store';
import type { OutboxRecord } from './outbox';

/** Conversations kept in memory after they were closed, so reopening one is instant. */
const KEEP = 8;

const engines = new Map<ContactKey, ConversationEngine>();
let openKey: ContactKey | null = null;
let engineUser: number | null = null;

/** `is_group` of a conversation key, as the server wants it with the id. */
export function isGroupOf(key: ContactKey): 0 | 1 | 3 {
  if (isGroupKey(key)) return 1;
  if (key === SELF_KEY) return 3;
  return 0;
}

/** sendMessage, or uploadFile with the message in its `message` field when a file goes with it. */
async function sendOne(body: SendBody, { attachment, signal, onProgress }: Transfer): Promise<Message> {
  if (!attachment) return api.sendMessage(body, { silent: true, signal });
  const form = new FormData();
  // The server reads the message field before the file's bytes, to refuse early.
  form.append('message', JSON.stringify(body));
  form.append('file', attachment.file, attachment.name);
  return (await api.uploadFile(form, {
    silent: true,
    signal,
    ...(onProgress && { onUploadProgress: onProgress }),
  })) as Message;
}

async function uploadAlone(file: Blob, name: string, signal: AbortSignal): Promise<string> {
  const form = new FormData();
  form.append('file', file, name);
  return ((await api.uploadFile(form, { silent: true, signal })) as UploadResult).src;
}

/**
 * sendOne, saying when a message could not leave because the connection is down: its bubble
 * turns to "resend", the toast says why.
 */
async function sendOrSay(body: SendBody, transfer: Transfer): Promise<Message> {
  try {
    return await sendOne(body, transfer);
  } catch (error) {
    if (error instanceof ApiError && (error.kind === 'network' || error.kind === 'offline'))
      feedback.toast(translate('chat.sendOffline'));
    throw error;
  }
}

/**
 * A refusal for a rule is for good (muted, not a member, the group gone, too long…): any envelope
 * code but "too many" and the server's own failures. The rest (no network, a time-out, a server
 * restarting, an ended session) may pass later.
 */
export function classifySendError(error: unknown): FailureKind {
  if (!(error instanceof ApiError) || error.kind !== 'server' || error.code === undefined) return 'retry';
  return error.code === Codes.TooMany || error.code >= 500 ? 'retry' : 'refused';
}

/** The device's outbox: messages sent and not yet stored by the server, per user. */
const outbox = localStore.outbox;

function quietly(write: Promise<void>): void {
  write.catch(() => {
    // IndexedDB can be unavailable (private mode) or full: what it would keep stays in memory.
  });
}

const signedIn = () => sessionStore.getState().user?.user_id ?? null;

/**
 * Messages as they arrive (pushes, `sync` pages, my sends stored) kept in the local store, so that
 * the app shows them without a network.
 */
export function keepMessages(messages: readonly Message[]): void {
  const user = signedIn();
  if (user !== null && messages.length) quietly(localStore.saveMessages(user, messages));
}

/** A change the server made to a message (withdrawn, edited, a reaction): the stored copy follows. */
export function keepChange(key: ContactKey, msgId: number, change: (m: Message) => Message): void {
  const user = signedIn();
  if (user !== null) quietly(localStore.change(user, key, msgId, change));
}

/** A message deleted for everyone, or a group's history cleared (`msgId` null): the store forgets it. */
export function forgetStored(key: ContactKey, msgId: number | null): void {
  const user = signedIn();
  if (user === null) return;
  quietly(msgId === null ? localStore.dropUpTo(user, key, Infinity) : localStore.remove(user, key, msgId));
}

/** getMessageList, the newest page and the older ones joined to it kept in the local store. */
async function fetchAndKeep(
  user: number,
  key: ContactKey,
  query: PageQuery,
  fetch: (query: PageQuery) => Promise<Message[]>,
  reachesNewest: () => boolean,
): Promise<Message[]> {
  const page = await fetch(query);
  // Signed out (or another account in) while the page was on its way: it is not theirs to keep.
  if (signedIn() !== user) return page;
  const { last_id, after_id, around_id, limit } = query;
  const full = page.length >= limit;
  if (!last_id && after_id === undefined && around_id === undefined)
    quietly(localStore.saveMessages(user, page, { key, full }));
  else if (last_id && reachesNewest()) quietly(localStore.saveMessages(user, page, { key, full, last_id }));
  return page;
}

function clearedTo(key: ContactKey): number {
  return readUserItem('clearedHistory', sessionStore.getState().user?.user_id)?.upTo[key] ?? 0;
}

function create(key: ContactKey): ConversationEngine {
  const user = sessionStore.getState().user;
  if (!user) throw new Error('no signed-in user');
  const toContactId = contactIdOf(key);
  const is_group = isGroupOf(key);
  // A send that fails for want of a connection is told by a toast, whose code cannot load then.
  preloadFeedback();
  const fetchPage = async ({ last_id, after_id, around_id, limit }: PageQuery) =>
    (
      await request(
        'getMessageList',
        {
          toContactId,
          is_group,
          limit,
          ...(last_id ? { last_id } : {}),
          ...(after_id !== undefined && { after_id }),
          ...(around_id !== undefined && { around_id }),
        },
        { silent: true },
      )
    ).data;
  const engine: ConversationEngine = new ConversationEngine({
    me: { user_id: user.user_id, realname: user.realname, avatar: user.avatar },
    target: { key, toContactId, is_group },
    fetchPage: (query) =>
      fetchAndKeep(user.user_id, key, query, fetchPage, () => {
        const s = engine.getSnapshot();
        return !s.hasNewer && s.focus === null;
      }),
    // The server out of reach: the chat shows what this device kept of it.
    readStored: (query, error) =>
      isUnreachable(error) ? localStore.page(user.user_id, key, query) : Promise.resolve(null),
    send: (body, transfer) => {
      // Messages of one account never leave with another's session (signed out, another signed in).
      if (sessionStore.getState().user?.user_id !== user.user_id) return Promise.reject(new Error('signed out'));
      return sendOrSay(body, transfer);
    },
    upload: uploadAlone,
    // Every kind of message moves its conversation to the top of the list the same way.
    onStored: (message) => {
      keepMessages([message]);
      contacts.applyMessage(message, { openKey });
    },
    onRemoved: (msgId) => forgetStored(key, msgId),
    markRead: async (msg_id) => {
      contacts.markRead(key);
      return api.setMsgIsRead({ toContactId, is_group, msg_id }, { silent: true });
    },
    classify: classifySendError,
    onRefused: (error) => {
      if (error instanceof ApiError && error.message) feedback.toast(error.message, TOAST_SERVER_MS);
    },
    reasonOf: (error) => (error instanceof ApiError ? error.message : ''),
    keep: (o) => quietly(outbox.put({ ...o, user_id: user.user_id, key })),
    drop: (id) => quietly(outbox.remove(user.user_id, id)),
    newId: randomUuid,
    now: () => Date.now(),
    clearedTo: clearedTo(key),
  });
  engine.subscribe(() => {
    if (engineUser !== user.user_id) return;
    const row = engine.getSnapshot().outgoing;
    outgoing.set(
      key,
      row && (row.state === 'sending' || row.state === 'failed')
        ? { state: row.state, text: messagePreview(row.message, translate) }
        : null,
    );
  });
  return engine;
}

/** The engine of a conversation, made on first use; the newest few stay after closing. */
export function engineFor(key: ContactKey): ConversationEngine {
  const user = sessionStore.getState().user?.user_id ?? null;
  if (user !== engineUser) {
    engines.clear();
    outgoing.clear();
    engineUser = user;
  }
  let engine = engines.get(key);
  if (engine) {
    engines.delete(key);
  } else {
    engine = create(key);
  }
  engines.set(key, engine);
  // The oldest go first; the open one and those with messages still on their way stay.
  for (const [k, e] of engines) {
    if (engines.size <= KEEP) break;
    if (k !== openKey && k !== key && !e.hasPending()) engines.delete(k);
  }
  return engine;
}

/** The conversation on screen, whose messages count as read when they arrive. */
export function setOpenConversation(key: ContactKey | null): void {
  openKey = key;
  const user = signedIn();
  if (key !== null && user !== null) quietly(localStore.touch(user, key));
}

export function openConversation(): ContactKey | null {
  return openKey;
}

/** The engine of a conversation if it is in memory (open or recently closed). */
export function liveEngine(key: ContactKey): ConversationEngine | undefined {
  return engines.get(key);
}

/** Messages from pushes and `sync` pages, to whichever engines hold their conversations. */
export function deliver(messages: readonly Message[]): void {
  keepMessages(messages);
  if (engines.size === 0) return;
  for (const engine of engines.values()) {
    const mine = messages.filter((m) => engine.owns(m));
    if (mine.length) engine.receiveMany(mine);
  }
}

export function forEachEngine(fn: (engine: ConversationEngine) => void): void {
  for (const engine of engines.values()) fn(engine);
}

/** Remembers, on this device, that a conversation's history was cleared up to a msg_id. */
export function rememberCleared(key: ContactKey, upTo: number): void {
  const user_id = sessionStore.getState().user?.user_id;
  if (user_id === undefined) return;
  const current = readUserItem('clearedHistory', user_id)?.upTo ?? {};
  storage.set('clearedHistory', { user_id, upTo: { ...current, [key]: Math.max(current[key] ?? 0, upTo) } });
  quietly(localStore.dropUpTo(user_id, key, upTo));
}

/** The outbox of the signed-in user read back into its conversations (at start, after sign-in). */
let restored: Promise<void> = Promise.resolve();

function restoreOutbox(userId: number | null): void {
  if (userId === null) return;
  restored = outbox.list(userId).then(
    (records) => {
      if (sessionStore.getState().user?.user_id !== userId) return;
      const byKey = new Map<ContactKey, OutboxRecord[]>();
      for (const r of records) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
      for (const [key, kept] of byKey) engineFor(key).restore(kept);
    },
    () => {
      // No IndexedDB here: nothing was kept either.
    },
  );
}

/** How long a bind waits for the outbox to be read back before sending what is in memory. */
const RESTORE_WAIT_MS = 3_000;

/**
 * The socket is bound again (or for the first time since the start): every conversation sends the
 * messages that wait for the connection, in the order sent, a chat whose history could not load
 * loads it now, and one shown from the device's copy reads its newest page from the server.
 */
export async function flushOutbox(): Promise<void> {
  // An outbox that cannot be read (IndexedDB blocked by another tab) holds nothing up for long.
  await Promise.race([restored, new Promise((resolve) => setTimeout(resolve, RESTORE_WAIT_MS))]);
  // Engines of the account signed in before are left alone until the next one is made.
  if (engineUser !== (sessionStore.getState().user?.user_id ?? null)) return;
  for (const engine of engines.values()) {
    if (engine.getSnapshot().status === 'error') void engine.start();
    else void engine.refreshStale();
    void engine.flush();
  }
}

/**
 * Signed out on this device: what the local store kept of the user goes, and their writes still on
 * their way are refused. The messages on their way go with it (`keepOutbox`: they wait for the
 * user's next sign-in, as the drafts do when the session merely ended).
 */
export async function clearLocal(userId: number, options: { keepOutbox?: boolean } = {}): Promise<void> {
  if (engineUser === userId) {
    // The same account signing in again in this tab must not find them in memory either.
    engines.clear();
    outgoing.clear();
    engineUser = null;
  }
  await localStore.clear(userId, options).catch(() => undefined);
}

/**
 * Someone is signed in (at the start, or another account after one): the outbox of theirs is read
 * back, and the conversations and messages kept of any other account go. Without a catch-up cursor
 * nothing tells what was missed since the user's messages were kept: they go too.
 */
function follow(user: number | null): void {
  if (user !== null) localStore.resume(user);
  restoreOutbox(user);
  if (user === null) return;
  quietly(localStore.keepOnly(user));
  if (readUserItem('syncCursor', user) === null) quietly(localStore.dropMessages(user));
}

follow(signedIn());
sessionStore.subscribe((s, prev) => {
  const user = s.user?.user_id ?? null;
  if (user !== (prev.user?.user_id ?? null)) follow(user);
});
