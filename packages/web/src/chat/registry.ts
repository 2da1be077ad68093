import { TOAST_SERVER_MS, type Message, type UploadResult } from '@sparrow/protocol';
import { ApiError, api, request } from '../api';
import { feedback, preloadFeedback } from '../app/feedback';
import { translate } from '../i18n';
import { contactIdOf, isGroupKey, SELF_KEY, type ContactKey } from '../lib/conversation-list';
import { randomUuid } from '../lib/ids';
import { readUserItem, storage } from '../lib/storage';
import { contacts } from '../stores/contacts';
import { sessionStore } from '../stores/session';
import { ConversationEngine, type FailureKind, type SendBody, type Transfer } from './engine';

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

/** A refusal is for good (muted, not a member, too long…); anything else may pass later. */
function classifySendError(error: unknown): FailureKind {
  if (error instanceof ApiError && error.kind === 'server' && [400, 401, 403, 404].includes(error.code ?? 0))
    return 'refused';
  return 'retry';
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
  return new ConversationEngine({
    me: { user_id: user.user_id, realname: user.realname, avatar: user.avatar },
    target: { key, toContactId, is_group },
    fetchPage: async ({ last_id, after_id, around_id, limit }) =>
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
      ).data,
    send: sendOrSay,
    upload: uploadAlone,
    // Every kind of message moves its conversation to the top of the list the same way.
    onStored: (message) => contacts.applyMessage(message, { openKey }),
    markRead: async (msg_id) => {
      contacts.markRead(key);
      return api.setMsgIsRead({ toContactId, is_group, msg_id }, { silent: true });
    },
    classify: classifySendError,
    onRefused: (error) => {
      if (error instanceof ApiError && error.message) feedback.toast(error.message, TOAST_SERVER_MS);
    },
    newId: randomUuid,
    now: () => Date.now(),
    clearedTo: clearedTo(key),
  });
}

/** The engine of a conversation, made on first use; the newest few stay after closing. */
export function engineFor(key: ContactKey): ConversationEngine {
  const user = sessionStore.getState().user?.user_id ?? null;
  if (user !== engineUser) {
    engines.clear();
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
}
