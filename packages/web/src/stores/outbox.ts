import type { ContactId, Message, UploadResult } from '@sparrow/protocol';
import { TOAST_SERVER_MS } from '@sparrow/protocol';
import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createStore } from 'zustand/vanilla';
import { ApiError, api } from '../api';
import { feedback } from '../app/feedback';
import { classifySendError, deliver, isGroupOf, openConversation } from '../chat/registry';
import { contactIdOf, type ContactKey } from '../lib/conversation-list';
import { randomUuid } from '../lib/ids';
import { contacts } from './contacts';

/** Message types the "+" panel sends: a file with the message, or a message alone. */
export type UploadType = 'image' | 'file' | 'voice' | 'video';
export type PlainType = 'location' | 'contact' | 'emoji';

/** What a pending item shows until the server has it. */
export interface OutboxPreview {
  /** A local object URL of the picture or video poster. */
  url?: string;
  name?: string;
  size?: number;
  durationS?: number;
  width?: number;
  height?: number;
  /** One line for location and contact cards. */
  label?: string;
}

export interface OutboxItem {
  /** The message's client-made id: a retry reuses it, so the server stores it once. */
  id: string;
  chatKey: ContactKey;
  type: UploadType | PlainType;
  state: 'sending' | 'failed';
  /** Share of the bytes sent, 0–1, for uploads; null for messages without a file. */
  progress: number | null;
  preview: OutboxPreview;
}

interface UploadJob {
  kind: 'upload';
  file: Blob;
  name: string;
  /** Uploaded first, without a message: the video's poster. */
  poster?: Blob;
  extends: Record<string, unknown>;
}

interface PlainJob {
  kind: 'plain';
  content: string;
  extends: Record<string, unknown>;
}

interface Job {
  item: OutboxItem;
  work: UploadJob | PlainJob;
  controller: AbortController | null;
  /** The poster's URL once uploaded, so a retry does not upload it again. */
  posterSrc?: string;
}

interface OutboxState {
  items: OutboxItem[];
}

export const outboxStore = createStore<OutboxState>()(() => ({ items: [] }));
const jobs = new Map<string, Job>();

function update(id: string, patch: Partial<OutboxItem>): void {
  const job = jobs.get(id);
  if (!job) return;
  job.item = { ...job.item, ...patch };
  outboxStore.setState((s) => ({ items: s.items.map((i) => (i.id === id ? job.item : i)) }));
}

function drop(id: string): void {
  const job = jobs.get(id);
  if (!job) return;
  jobs.delete(id);
  if (job.item.preview.url?.startsWith('blob:')) URL.revokeObjectURL(job.item.preview.url);
  outboxStore.setState((s) => ({ items: s.items.filter((i) => i.id !== id) }));
}

function target(key: ContactKey): { toContactId: ContactId; is_group: number } {
  return { toContactId: contactIdOf(key), is_group: isGroupOf(key) };
}

const storedListeners = new Set<(chatKey: ContactKey) => void>();

/** The stored message joins the conversation on screen and the conversation list. */
function arrived(chatKey: ContactKey, message: Message): void {
  deliver([message]);
  contacts.applyMessage(message, { openKey: openConversation() });
  for (const l of storedListeners) l(chatKey);
}

/** Progress to show: bytes of the poster and the file together, capped below 1 until the answer. */
function share(loaded: number, total: number): number {
  return total > 0 ? Math.min(0.99, loaded / total) : 0;
}

async function run(id: string): Promise<void> {
  const job = jobs.get(id);
  if (!job) return;
  const controller = new AbortController();
  job.controller = controller;
  update(id, { state: 'sending', progress: job.work.kind === 'upload' ? 0 : null });
  const { item, work } = job;
  const body = { id, ...target(item.chatKey), type: item.type, content: '' };
  try {
    let message: Message;
    if (work.kind === 'upload') {
      const ext = { ...work.extends };
      if (work.poster && !job.posterSrc) {
        const form = new FormData();
        form.append('file', work.poster, 'poster.jpg');
        const poster = (await api.uploadFile(form, { silent: true, signal: controller.signal })) as UploadResult;
        job.posterSrc = poster.src;
      }
      if (job.posterSrc) ext.poster = job.posterSrc;
      const form = new FormData();
      // The server reads the message field before the file's bytes, to refuse early.
      form.append('message', JSON.stringify({ ...body, extends: ext }));
      form.append('file', work.file, work.name);
      message = (await api.uploadFile(form, {
        silent: true,
        signal: controller.signal,
        onUploadProgress: (loaded, total) => update(id, { progress: share(loaded, total) }),
      })) as Message;
    } else {
      message = await api.sendMessage(
        { ...body, content: work.content, extends: work.extends },
        { silent: true, signal: controller.signal },
      );
    }
    if (!jobs.has(id)) return;
    drop(id);
    arrived(item.chatKey, message);
  } catch (error) {
    if (!jobs.has(id)) return;
    if (error instanceof ApiError && error.kind === 'aborted') {
      drop(id);
      return;
    }
    if (classifySendError(error) === 'refused') {
      drop(id);
      if (error instanceof ApiError && error.message) feedback.toast(error.message, TOAST_SERVER_MS);
      return;
    }
    update(id, { state: 'failed', progress: null });
  } finally {
    if (job.controller === controller) job.controller = null;
  }
}

function add(item: OutboxItem, work: UploadJob | PlainJob): string {
  jobs.set(item.id, { item, work, controller: null });
  outboxStore.setState((s) => ({ items: [...s.items, item] }));
  void run(item.id);
  return item.id;
}

/**
 * Media and card messages on their way: each shows in its conversation with its progress until the
 * server answers with the stored message, which then joins the conversation like any other. A
 * refusal (too large, forbidden type, muted) is toasted and the item leaves; a network failure
 * leaves it to retry with the same id.
 */
export const outbox = {
  /** Uploads a file and sends it as a message in one call (api.md uploadFile with `message`). */
  sendFile(
    chatKey: ContactKey,
    input: {
      type: UploadType;
      file: Blob;
      name: string;
      extends?: Record<string, unknown>;
      poster?: Blob;
      preview: OutboxPreview;
    },
  ): string {
    const item: OutboxItem = {
      id: randomUuid(),
      chatKey,
      type: input.type,
      state: 'sending',
      progress: 0,
      preview: input.preview,
    };
    return add(item, {
      kind: 'upload',
      file: input.file,
      name: input.name,
      extends: input.extends ?? {},
      ...(input.poster && { poster: input.poster }),
    });
  },

  /** Sends a location, a contact card or a sticker. */
  sendMessage(
    chatKey: ContactKey,
    input: { type: PlainType; content?: string; extends: Record<string, unknown>; preview: OutboxPreview },
  ): string {
    const item: OutboxItem = {
      id: randomUuid(),
      chatKey,
      type: input.type,
      state: 'sending',
      progress: null,
      preview: input.preview,
    };
    return add(item, { kind: 'plain', content: input.content ?? '', extends: input.extends });
  },

  /** Stops an upload on its way, or gives up a failed item. */
  cancel(id: string): void {
    const job = jobs.get(id);
    if (!job) return;
    if (job.controller) job.controller.abort();
    else drop(id);
  },

  retry(id: string): void {
    const job = jobs.get(id);
    if (!job || job.item.state !== 'failed') return;
    void run(id);
  },

  /** Everything still pending, e.g. on sign-out. */
  clear(): void {
    for (const id of [...jobs.keys()]) {
      jobs.get(id)?.controller?.abort();
      drop(id);
    }
  },
};

/** The pending items of one conversation, oldest first. */
export function useOutbox(chatKey: ContactKey): OutboxItem[] {
  return useStore(
    outboxStore,
    useShallow((s) => s.items.filter((i) => i.chatKey === chatKey)),
  );
}

/** Runs `fn` each time a message of this conversation left the outbox stored (to show the newest). */
export function useOnOutboxStored(chatKey: ContactKey, fn: () => void): void {
  const callback = useRef(fn);
  useEffect(() => {
    callback.current = fn;
  });
  useEffect(() => {
    const listener = (key: ContactKey) => {
      if (key === chatKey) callback.current();
    };
    storedListeners.add(listener);
    return () => {
      storedListeners.delete(listener);
    };
  }, [chatKey]);
}
