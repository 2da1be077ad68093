import type {
  ChainState,
  ContactId,
  FromUser,
  Message,
  MessageFacts,
  PushPayload,
  Reaction,
  RouteInput,
} from '@sparrow/protocol';
import { conversationKeyOf, type ContactKey } from '../lib/conversation-list';
import { withChain, withEdit, withReaction, withReactions } from './message-updates';

/** Where an open conversation is: nothing yet, first page on its way, shown, or the first page failed. */
export type EngineStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * A message of mine is `sending` until the server stores it, `failed` when it could not reach it
 * (sent again by itself once the connection returns) or the server refused it (`refusal`).
 */
export type DeliveryState = 'sent' | 'sending' | 'failed' | 'held' | 'rejected';

export interface ChatRow {
  /** Stable from the optimistic row to the stored one, so the list does not redraw it. */
  key: string;
  message: Message;
  state: DeliveryState;
  mine: boolean;
  /** Share of a file's bytes sent, 0–1, while it uploads; null otherwise. */
  progress: number | null;
  /** What a message of mine with a file or a card shows until the server has it. */
  preview: PendingPreview | null;
  /** Why the server refused a failed message of mine (its own words); null when it never reached it. */
  refusal: string | null;
}

/** What a message on its way shows until the server has it: a local picture, a file's name… */
export interface PendingPreview {
  /** A local object URL of the picture or video poster, or a sticker's or avatar's address. */
  url?: string;
  name?: string;
  size?: number;
  durationS?: number;
  width?: number;
  height?: number;
  /** One line for location cards. */
  label?: string;
}

/** A file that travels with its message in one call (docs/protocol.md uploadFile with `message`). */
export interface Attachment {
  file: Blob;
  name: string;
  /** Uploaded first, on its own: the video's poster; a retry does not upload it again. */
  poster?: Blob;
}

/** The message a chat was opened at; `seq` counts the openings, so opening it again shows it again. */
export interface ChatFocus {
  msgId: number;
  seq: number;
}

export interface EngineSnapshot {
  status: EngineStatus;
  /** Stored messages by msg_id, then my pending ones in the order I sent them. */
  rows: readonly ChatRow[];
  hasOlder: boolean;
  loadingOlder: boolean;
  /** Opened at an older message: newer pages remain between the rows shown and the newest. */
  hasNewer: boolean;
  loadingNewer: boolean;
  /** The message to show and mark when the list appears (a search hit, a day of the history). */
  focus: ChatFocus | null;
  /** For the virtual list: goes down by the number of rows put in front of the first one. */
  firstItemIndex: number;
  /** The newest msg_id of mine the peer has read (private chats). */
  peerReadTo: number;
  /** My newest message not yet stored by the server, for the conversation list. */
  outgoing: ChatRow | null;
}

/**
 * What the device keeps of a message of mine until the server has it (chat/outbox.ts stores it
 * in IndexedDB), so that a reload or the next start sends it again with the same id.
 */
export interface Outgoing {
  id: string;
  body: SendBody;
  sendTime: number;
  /** Orders a conversation's messages on their way: the order I sent them in. */
  order: number;
  attachment?: Attachment;
  /** The video poster's address once uploaded. */
  posterSrc?: string;
  /** The preview without a local object URL, which does not outlive the page. */
  preview?: PendingPreview;
  /** Which of the attachment's files the preview picture is made from again after a reload. */
  previewOf?: 'file' | 'poster';
  /** The server refused it for a rule (muted, not a friend…): it waits for me, not for the connection. */
  refusal?: string;
}

/** Kinds of message a client may send (protocol's SendableType). */
export type SendableType = Exclude<Message['type'], 'event' | 'webrtc' | 'record' | 'poll' | 'chain'>;

/**
 * What the composer hands over, for every kind of message; the engine adds the id, the target
 * and the optimistic row.
 */
export interface OutgoingMessage {
  type: SendableType;
  /** Text, or what a message of another type carries (a sticker's address…); empty for files. */
  content?: string;
  at?: number[];
  /** Quoted msg_id. */
  pid?: number;
  extends?: Record<string, unknown>;
  attachment?: Attachment;
  preview?: PendingPreview;
}

/** sendMessage's body; with an attachment, the `message` field of uploadFile. */
/**
 * A message as sendMessage takes it, the fields the engine fills (protocol's `SendMessageBody`); the
 * conversation is one the engine knows, a `ContactId`.
 */
export type SendBody = Pick<
  RouteInput<'sendMessage'>,
  'id' | 'is_group' | 'type' | 'content' | 'at' | 'pid' | 'extends'
> & {
  toContactId: ContactId;
};

/** How one attempt travels: the file with it, a way to stop it, and the bytes sent so far. */
export interface Transfer {
  attachment?: { file: Blob; name: string };
  signal: AbortSignal;
  onProgress?(loaded: number, total: number): void;
}

export type FailureKind = 'refused' | 'retry';

/** Which page of a conversation to fetch (docs/protocol.md getMessageList); at most one of the ids. */
export interface PageQuery {
  limit: number;
  last_id?: number;
  after_id?: number;
  around_id?: number;
}

export interface EngineDeps {
  me: { user_id: number; realname: string; avatar: string };
  target: { key: ContactKey; toContactId: ContactId; is_group: number };
  /**
   * getMessageList of this conversation, oldest first: the newest `limit` (older than `last_id`),
   * the oldest `limit` newer than `after_id`, or `limit` centred on `around_id`.
   */
  fetchPage(query: PageQuery): Promise<Message[]>;
  /**
   * The device's copy of a page (chat/local-store.ts), asked when fetchPage failed with `error`:
   * null when that error is not one the device stands in for (the server refused, say).
   */
  readStored?(query: PageQuery, error: unknown): Promise<Message[] | null>;
  /** sendMessage, or uploadFile with the message when a file goes with it. */
  send(body: SendBody, transfer: Transfer): Promise<Message>;
  /** Uploads a file on its own (a video's poster) and answers its address. */
  upload?(file: Blob, name: string, signal: AbortSignal): Promise<string>;
  /** The server stored a message of mine: the conversation list moves it to the top. */
  onStored?(message: Message): void;
  /** A message left the chat (deleted for everyone, or for me): the device's copy goes too. */
  onRemoved?(msgId: number): void;
  markRead(msgId: number): Promise<unknown>;
  /** Refused for good (muted, not a member…: drop the optimistic row) or worth a retry (network). */
  classify(error: unknown): FailureKind;
  onRefused?(error: unknown): void;
  /** The server's words for a refusal, shown under the message. */
  reasonOf?(error: unknown): string;
  /** Keeps a message of mine on the device until the server has it (written again as it changes). */
  keep?(outgoing: Outgoing): void;
  /** The server has it, or I gave it up: the device forgets it. */
  drop?(id: string): void;
  newId(): string;
  now(): number;
  /** Messages up to this msg_id were cleared on this device and stay hidden. */
  clearedTo?: number;
  pageSize?: number;
}

/**
 * The type and facts of a message of mine on its way: what the composer gave, and what only the
 * server knows (a stored file, a picture's size, a card's name) as unknown, 0 or '', until the
 * stored message takes the row's place. A row on its way with a file or a card shows its preview.
 */
function pendingFacts(type: SendableType, sent: Record<string, unknown>): MessageFacts {
  const number = (key: string) => {
    const v = sent[key];
    return typeof v === 'number' ? v : 0;
  };
  const text = (key: string) => {
    const v = sent[key];
    return typeof v === 'string' ? v : '';
  };
  switch (type) {
    case 'text':
      return { type, extends: {} };
    case 'emoji':
      return { type, extends: typeof sent.file_id === 'number' ? { file_id: sent.file_id } : {} };
    case 'image':
      return { type, extends: { width: 0, height: 0, thumb: '', file_id: 0 } };
    case 'voice':
      return { type, extends: { duration: number('duration'), file_id: 0 } };
    case 'video':
      return {
        type,
        extends: {
          duration: number('duration'),
          width: number('width'),
          height: number('height'),
          poster: '',
          file_id: 0,
        },
      };
    case 'file':
      return { type, extends: { ext: '', name: '', size: 0, file_id: 0 } };
    case 'location':
      return {
        type,
        extends: {
          name: text('name'),
          address: text('address'),
          latitude: number('latitude'),
          longitude: number('longitude'),
        },
      };
    case 'contact':
      return { type, extends: { id: number('id'), displayName: '', avatar: '' } };
  }
}

export const PAGE_SIZE = 30;
/** Far from zero, so that thousands of older rows can be put in front. */
export const FIRST_INDEX = 1_000_000_000;

interface Pending {
  body: SendBody;
  message: Message;
  order: number;
  /** `held`: stored by the server for review (审核中); `rejected`: an operator turned it down. */
  state: 'sending' | 'failed' | 'held' | 'rejected';
  /** The server refused it: not sent again until I ask. */
  refusal: string | null;
  attachment: Attachment | null;
  preview: PendingPreview | null;
  progress: number | null;
  /** Stops the attempt on its way. */
  controller: AbortController | null;
  /** The poster's address once uploaded, so a retry does not upload it again. */
  posterSrc?: string;
}

/** A message the server held for review, or an operator rejected: not sent again. */
const decided = (p: Pending) => p.state === 'held' || p.state === 'rejected';

/** How one attempt to send a message ended. */
type Outcome = 'sent' | 'refused' | 'retry' | 'gone';

let lastOrder = 0;
/** Increasing numbers by the clock, so that messages stay in the order sent across reloads. */
function nextOrder(now: number): number {
  lastOrder = Math.max(lastOrder + 1, now * 1000);
  return lastOrder;
}

/** Progress to show: capped below 1 until the server has answered with the stored message. */
function share(loaded: number, total: number): number {
  return total > 0 ? Math.min(0.99, loaded / total) : 0;
}

/**
 * One open conversation as a state machine (docs/style.md habit 9): stored messages `confirmed` by
 * msg_id, my unsent ones `pending` by their client-made id — every kind, text as well as files
 * with their upload progress, places, cards and stickers. Pushes, pages and `sync` pages all
 * merge by msg_id, so a message seen twice is kept once; a retry reuses the id, so the server
 * stores it once. React reads it through subscribe/getSnapshot.
 */
export class ConversationEngine {
  private status: EngineStatus = 'idle';
  /** Sorted by msg_id ascending. */
  private confirmed: Message[] = [];
  private byMsgId = new Map<number, Message>();
  private pending = new Map<string, Pending>();
  private hasOlder = true;
  private loadingOlder = false;
  private hasNewer = false;
  private loadingNewer = false;
  /** Some rows came from the device's copy: the server is asked for the newest page once it is reached. */
  private stale = false;
  private focus: ChatFocus | null = null;
  /** Pushed messages newer than the rows shown while newer pages remain, for when the pages catch up. */
  private held = new Map<number, Message>();
  /** Goes up whenever the window starts over, so that an answer for the old window is dropped. */
  private epoch = 0;
  private firstItemIndex = FIRST_INDEX;
  private peerReadTo = 0;
  private readTo = 0;
  private clearedTo: number;
  private listeners = new Set<() => void>();
  private ownListeners = new Set<() => void>();
  /** The rows of stored messages, reused while their message is the same object. */
  private rowCache = new WeakMap<Message, ChatRow>();
  private snapshot: EngineSnapshot;
  private loading: Promise<void> | null = null;
  /** Messages waiting for the connection are being sent again, one at a time. */
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private readonly pageSize: number;

  constructor(private readonly deps: EngineDeps) {
    this.clearedTo = deps.clearedTo ?? 0;
    this.pageSize = deps.pageSize ?? PAGE_SIZE;
    this.snapshot = this.build();
  }

  get key(): ContactKey {
    return this.deps.target.key;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): EngineSnapshot => this.snapshot;

  /** Runs `listener` when I send a message and when the server has stored one of mine (to show the newest). */
  onOwnMessage(listener: () => void): () => void {
    this.ownListeners.add(listener);
    return () => this.ownListeners.delete(listener);
  }

  /** Whether messages of mine are still on their way or failed: the engine must stay in memory. */
  hasPending(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Loads the first page: the newest, or the one around the message the chat was opened at; again
   * after an error. Does nothing while loading or once loaded.
   */
  start(): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    if (this.loading) return this.loading;
    const loading = this.loadFirst().finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    return loading;
  }

  /** Opens the chat at its newest messages, leaving an older place it was opened at. */
  openLatest(): Promise<void> {
    const moved = this.focus !== null;
    this.focus = null;
    if (this.hasNewer) return this.startOver();
    if (moved) this.emit();
    return this.start();
  }

  /**
   * Opens the chat at one message, shown and marked, with history loading both ways from it; the
   * rows already loaded serve when they hold it.
   */
  openAt(msgId: number): Promise<void> {
    this.focus = { msgId, seq: (this.focus?.seq ?? 0) + 1 };
    if (this.status === 'ready' && this.byMsgId.has(msgId)) {
      this.emit();
      return Promise.resolve();
    }
    return this.startOver();
  }

  /** Drops the rows loaded and loads the first page again. */
  private startOver(): Promise<void> {
    this.epoch++;
    this.loading = null;
    this.confirmed = [];
    this.byMsgId.clear();
    this.held.clear();
    this.hasOlder = true;
    this.hasNewer = false;
    this.loadingOlder = false;
    this.loadingNewer = false;
    this.firstItemIndex = FIRST_INDEX;
    this.stale = false;
    this.status = 'idle';
    return this.start();
  }

  private async loadFirst(): Promise<void> {
    const epoch = this.epoch;
    this.status = 'loading';
    this.emit();
    try {
      const { page, stored } = await this.firstPage();
      if (epoch !== this.epoch) return;
      for (const m of page) this.put(m);
      if (this.focus === null) {
        // Where the device's copy ends the server's history need not: scrolling up asks again.
        this.hasOlder = stored || page.length >= this.pageSize;
      } else {
        // Whether the ends of a centred page are the ends of the history is learnt by asking past them.
        this.hasOlder = true;
        this.hasNewer = true;
      }
      this.status = 'ready';
    } catch {
      if (epoch !== this.epoch) return;
      this.status = 'error';
    }
    this.emit();
  }

  /**
   * The page around the focused message, or the newest page: also when that message is not one
   * I may see (withdrawn or deleted since, say), which the server refuses like a missing one.
   */
  private async firstPage(): Promise<{ page: Message[]; stored: boolean }> {
    const around = this.focus?.msgId;
    if (around !== undefined) {
      try {
        const { page, stored } = await this.readPage({ around_id: around, limit: this.pageSize });
        if (page.some((m) => m.msg_id === around)) return { page, stored };
      } catch (error) {
        // Refused (not a message I may see), or out of reach and not kept here: the newest instead.
        if (this.deps.classify(error) !== 'refused' && !this.deps.readStored) throw error;
      }
      this.focus = null;
    }
    return this.readPage({ limit: this.pageSize });
  }

  /**
   * A page from the server, or, when it cannot be reached, the device's copy of it (`stored`); an
   * empty copy stands for nothing, and the server's error stays.
   */
  private async readPage(query: PageQuery): Promise<{ page: Message[]; stored: boolean }> {
    try {
      return { page: await this.deps.fetchPage(query), stored: false };
    } catch (error) {
      const page = await this.deps.readStored?.(query, error).catch(() => null);
      if (!page?.length) throw error;
      this.stale = true;
      return { page, stored: true };
    }
  }

  /** The page before the oldest row; the list calls it when the top comes into view. */
  async loadOlder(): Promise<void> {
    if (this.status !== 'ready' || !this.hasOlder || this.loadingOlder) return;
    const oldest = this.confirmed[0]?.msg_id;
    const epoch = this.epoch;
    this.loadingOlder = true;
    this.emit();
    try {
      const { page, stored } = await this.readPage(
        oldest ? { last_id: oldest, limit: this.pageSize } : { limit: this.pageSize },
      );
      if (epoch !== this.epoch) return;
      this.hasOlder = stored || page.length >= this.pageSize;
      const before = this.confirmed.length;
      for (const m of page) this.put(m);
      this.firstItemIndex -= this.confirmed.length - before;
    } catch {
      // The top of the list stays where it is; scrolling up again retries.
    } finally {
      if (epoch === this.epoch) {
        this.loadingOlder = false;
        this.emit();
      }
    }
  }

  /**
   * The page after the newest row, while the chat shows older history; the list calls it when the
   * bottom comes into view. Once the newest is reached, pushed messages append as usual.
   */
  async loadNewer(): Promise<void> {
    if (this.status !== 'ready' || !this.hasNewer || this.loadingNewer) return;
    const newest = this.confirmed[this.confirmed.length - 1]?.msg_id ?? 0;
    const epoch = this.epoch;
    this.loadingNewer = true;
    this.emit();
    try {
      const { page, stored } = await this.readPage({ after_id: newest, limit: this.pageSize });
      if (epoch !== this.epoch) return;
      for (const m of page) this.put(m);
      if (page.length < this.pageSize && !stored) {
        this.hasNewer = false;
        for (const m of this.held.values()) this.put(m);
        this.held.clear();
      }
    } catch {
      // The bottom of the list stays where it is; scrolling down again retries.
    } finally {
      if (epoch === this.epoch) {
        this.loadingNewer = false;
        this.emit();
      }
    }
  }

  /**
   * Sends a new message of any kind: shown at once as sending, kept on the device, confirmed by the
   * server's answer. Behind messages still waiting for the connection it waits its turn.
   */
  send(input: OutgoingMessage): string {
    const id = this.deps.newId();
    const body: SendBody = {
      id,
      toContactId: this.deps.target.toContactId,
      is_group: this.deps.target.is_group,
      type: input.type,
      content: input.content ?? '',
      at: input.at ?? [],
      pid: input.pid ?? 0,
      extends: input.extends ?? {},
    };
    const now = this.deps.now();
    const waiting = this.waiting();
    const p: Pending = {
      body,
      message: this.pendingMessage(body, now),
      order: nextOrder(now),
      state: 'sending',
      refusal: null,
      attachment: input.attachment ?? null,
      preview: input.preview ?? null,
      progress: input.attachment ? 0 : null,
      controller: null,
    };
    this.pending.set(id, p);
    this.keep(p);
    // What I send goes below the newest message, so a chat showing older history moves there.
    if (this.hasNewer) void this.openLatest();
    else this.emit();
    if (waiting) void this.flush();
    else void this.deliver(id);
    this.tellOwn();
    return id;
  }

  private pendingMessage(body: SendBody, sendTime: number): Message {
    const { me } = this.deps;
    const from: FromUser = {
      id: me.user_id,
      user_id: me.user_id,
      realname: me.realname,
      displayName: me.realname,
      avatar: me.avatar,
    };
    return {
      ...pendingFacts(body.type, body.extends),
      id: body.id,
      msg_id: 0,
      content: body.content,
      sendTime,
      toContactId: body.toContactId,
      toUser: body.toContactId,
      is_group: body.is_group as Message['is_group'],
      status: 'succeed',
      is_read: 0,
      at: body.at,
      pid: body.pid,
      fromUser: from,
    };
  }

  /** Whether messages of mine wait for the connection, or are being sent again in order. */
  private waiting(): boolean {
    if (this.draining) return true;
    for (const p of this.pending.values()) if (p.state === 'failed' && p.refusal === null) return true;
    return false;
  }

  /**
   * Messages of mine the device kept from before (a reload, the next start), in the order sent:
   * shown as failed until the connection sends them again (`flush`), before any sent since.
   */
  restore(kept: readonly Outgoing[]): void {
    const restored = new Map<string, Pending>();
    for (const o of [...kept].sort((a, b) => a.order - b.order)) {
      if (this.pending.has(o.id) || o.body.toContactId !== this.deps.target.toContactId) continue;
      lastOrder = Math.max(lastOrder, o.order);
      const attachment = o.attachment ?? null;
      const picture = o.previewOf === 'poster' ? attachment?.poster : o.previewOf === 'file' ? attachment?.file : null;
      const preview = o.preview ? { ...o.preview, ...(picture && { url: URL.createObjectURL(picture) }) } : null;
      restored.set(o.id, {
        body: o.body,
        message: this.pendingMessage(o.body, o.sendTime),
        order: o.order,
        state: 'failed',
        refusal: o.refusal ?? null,
        attachment,
        preview,
        progress: null,
        controller: null,
        ...(o.posterSrc !== undefined && { posterSrc: o.posterSrc }),
      });
    }
    if (restored.size === 0) return;
    this.pending = new Map([...restored, ...this.pending]);
    this.emit();
  }

  /**
   * Sends the messages of mine that wait for the connection again, oldest first and one at a time,
   * so that they arrive in the order sent; stops at the first that cannot reach the server. Runs
   * when the socket is bound again and after a start; refused ones wait for me.
   */
  flush(): Promise<void> {
    if (this.draining) return this.drained;
    this.draining = true;
    this.drained = this.drain();
    return this.drained;
  }

  private async drain(): Promise<void> {
    const tried = new Set<string>();
    const next = () =>
      [...this.pending.values()].find(
        (p) => p.refusal === null && p.controller === null && !decided(p) && !tried.has(p.message.id),
      );
    let waiting = 0;
    for (const p of this.pending.values()) {
      if (p.refusal !== null || p.controller !== null || decided(p)) continue;
      p.state = 'sending';
      waiting++;
    }
    if (waiting > 0) this.emit();
    for (let p = next(); p; p = next()) {
      tried.add(p.message.id);
      if ((await this.deliver(p.message.id)) === 'retry') {
        for (const q of this.pending.values()) {
          if (q.refusal === null && q.controller === null) {
            q.state = 'failed';
            q.progress = null;
          }
        }
        this.emit();
        break;
      }
    }
    // Cleared in the same turn as the last look for a next message, so a message sent meanwhile is
    // either found by that look or finds no drain running and starts one.
    this.draining = false;
  }

  /** Sends a failed message again with the same id, in its turn: the server stores it at most once. */
  retry(id: string): void {
    const p = this.pending.get(id);
    if (!p || p.state !== 'failed') return;
    if (p.refusal !== null) {
      p.refusal = null;
      this.keep(p);
    }
    void this.flush();
    this.emit();
  }

  /** Writes a message on its way to the device's outbox. */
  private keep(p: Pending): void {
    if (!this.deps.keep) return;
    const local = p.preview?.url?.startsWith('blob:') ?? false;
    const preview = p.preview ? { ...p.preview } : null;
    if (preview && local) delete preview.url;
    this.deps.keep({
      id: p.body.id,
      body: p.body,
      sendTime: p.message.sendTime,
      order: p.order,
      ...(p.attachment && { attachment: p.attachment }),
      ...(p.posterSrc !== undefined && { posterSrc: p.posterSrc }),
      ...(preview && { preview }),
      ...(local && { previewOf: p.attachment?.poster ? ('poster' as const) : ('file' as const) }),
      ...(p.refusal !== null && { refusal: p.refusal }),
    });
  }

  /** Gives up on a failed message: it leaves the list without reaching the server. */
  discard(id: string): void {
    const p = this.pending.get(id);
    if (!p || (p.state !== 'failed' && p.state !== 'rejected')) return;
    this.forget(id);
    this.emit();
  }

  /** Stops a file on its way, or gives up on a failed message; either leaves the list. */
  cancel(id: string): void {
    const p = this.pending.get(id);
    if (!p) return;
    if (p.state === 'sending' && !p.attachment) return;
    p.controller?.abort();
    this.forget(id);
    this.emit();
  }

  private forget(id: string): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.deps.drop?.(id);
    // A local picture or poster, made for the preview only.
    if (p.preview?.url?.startsWith('blob:')) URL.revokeObjectURL(p.preview.url);
  }

  private async deliver(id: string): Promise<Outcome> {
    const p = this.pending.get(id);
    if (!p) return 'gone';
    const controller = new AbortController();
    p.controller = controller;
    p.state = 'sending';
    p.refusal = null;
    p.progress = p.attachment ? 0 : null;
    /** Still on its way: not cancelled, and not already confirmed by a push of the stored message. */
    const live = () => !controller.signal.aborted && this.pending.get(id) === p;
    try {
      let body = p.body;
      const attachment = p.attachment;
      if (attachment?.poster) {
        if (!this.deps.upload) throw new Error('no upload for the poster');
        if (p.posterSrc === undefined) {
          p.posterSrc = await this.deps.upload(attachment.poster, 'poster.jpg', controller.signal);
          if (live()) this.keep(p);
        }
        body = { ...body, extends: { ...body.extends, poster: p.posterSrc } };
      }
      const stored = await this.deps.send(
        body,
        attachment
          ? {
              attachment: { file: attachment.file, name: attachment.name },
              signal: controller.signal,
              onProgress: (loaded, total) => {
                if (!live()) return;
                p.progress = share(loaded, total);
                this.emit();
              },
            }
          : { signal: controller.signal },
      );
      if (controller.signal.aborted) return 'gone';
      p.controller = null;
      if (stored.held === 1) {
        // Held for review: shown as 审核中 until decided, and kept in the device's outbox, so that after
        // a reload it is sent again with its id and the server answers how it stands (held still,
        // the stored message once approved, KeywordRefused once rejected).
        p.state = 'held';
        p.progress = null;
        this.emit();
        this.tellOwn();
        return 'sent';
      }
      this.receive(stored);
      // The answer may describe another chat in a malformed reply; the row must not stay pending.
      this.forget(id);
      this.emit();
      this.deps.onStored?.(stored);
      this.tellOwn();
      return 'sent';
    } catch (error) {
      if (!live()) return 'gone';
      p.controller = null;
      p.progress = null;
      p.state = 'failed';
      if (this.deps.classify(error) === 'refused') {
        p.refusal = this.deps.reasonOf?.(error) ?? '';
        this.keep(p);
        this.emit();
        this.deps.onRefused?.(error);
        return 'refused';
      }
      this.emit();
      return 'retry';
    }
  }

  /**
   * An operator decided a message of mine that was held for review: approved, it arrives as the
   * stored message (a push by its id), rejected, it stays here marked as not delivered.
   */
  heldDecided(id: string, decision: 'approve' | 'reject'): void {
    const p = this.pending.get(id);
    if (!p || p.state !== 'held' || decision !== 'reject') return;
    p.state = 'rejected';
    this.emit();
  }

  /** Whether a message belongs to this conversation. */
  owns(message: Message): boolean {
    return conversationKeyOf(message, this.deps.me.user_id) === this.deps.target.key;
  }

  /**
   * A message from a push, a `sync` page or a send answer: kept once by msg_id; a newer copy
   * (withdrawn, say) replaces the older. Answers whether it changed what is shown.
   */
  receive(message: Message): boolean {
    if (!this.owns(message) || message.msg_id <= 0) return false;
    let changed = false;
    if (message.fromUser.id === this.deps.me.user_id && this.pending.has(message.id)) {
      this.forget(message.id);
      changed = true;
    }
    const oldest = this.confirmed[0]?.msg_id;
    const newest = this.confirmed[this.confirmed.length - 1]?.msg_id;
    const known = this.byMsgId.has(message.msg_id);
    // Older than the loaded window with more history above it: it arrives with its page instead,
    // so that the window never has a hole. Newer than a window of older history: held until the
    // pages below reach it.
    const outside = this.hasOlder && oldest !== undefined && message.msg_id < oldest && !known;
    const later = this.hasNewer && newest !== undefined && message.msg_id > newest && !known;
    if (later) this.held.set(message.msg_id, message);
    else if (!outside && this.put(message)) changed = true;
    if (changed) this.emit();
    return changed;
  }

  /** Many messages at once (a `sync` page): one redraw. */
  receiveMany(messages: readonly Message[]): void {
    let changed = false;
    const emit = this.emit;
    this.emit = () => {
      changed = true;
    };
    try {
      for (const m of messages) this.receive(m);
    } finally {
      this.emit = emit;
    }
    if (changed) this.emit();
  }

  /** A withdrawn message, now an event line. */
  applyUndo(message: Message): void {
    if (this.byMsgId.has(message.msg_id)) this.receive(message);
  }

  /** A `reaction` delta: the message's chips change in place, nothing is fetched. */
  applyReaction(delta: PushPayload<'reaction'>): void {
    this.patch(delta.msg_id, (m) => withReaction(m, delta, this.deps.me.user_id));
  }

  /** A sign-up chain as it now is, in its message. */
  applyChain(state: ChainState): void {
    this.patch(state.msg_id, (m) => withChain(m, state));
  }

  /** A poll's counts or my own choice, changed in its message by `change`. */
  applyPoll(msgId: number, change: (message: Message) => Message): void {
    this.patch(msgId, change);
  }

  /** Whether rows shown came from the device's copy and the server has not been asked since. */
  isStale(): boolean {
    return this.stale;
  }

  /**
   * The connection is back: rows shown from the device's copy are read again from the server, the
   * newest page (refreshNewest), or the place the chat was opened at when the newest is not shown.
   */
  refreshStale(): Promise<void> {
    if (!this.stale || this.status !== 'ready') return Promise.resolve();
    return this.hasNewer ? this.startOver() : this.refreshNewest();
  }

  /**
   * Reads the newest page again, each message as the server now presents it: after the socket was
   * down, the reactions, edits, withdrawals and deletions made meanwhile were missed (a chat shown
   * from the device's copy missed them all). A row in the page's span that it lacks was deleted.
   */
  async refreshNewest(): Promise<void> {
    if (this.status !== 'ready' || this.hasNewer) return;
    const epoch = this.epoch;
    try {
      const page = await this.deps.fetchPage({ limit: this.pageSize });
      if (epoch !== this.epoch) return;
      this.stale = false;
      const low = page.length >= this.pageSize ? (page[0]?.msg_id ?? 0) : 0;
      const kept = new Set(page.map((m) => m.msg_id));
      const high = page.at(-1)?.msg_id ?? Infinity;
      const gone = this.confirmed.filter((m) => m.msg_id >= low && m.msg_id <= high && !kept.has(m.msg_id));
      for (const m of gone) this.remove(m.msg_id);
      this.receiveMany(page);
    } catch {
      // The next opening of the chat reads it again.
    }
  }

  /** A message's reactions as my own reactMessage answered them. */
  setReactions(msgId: number, reactions: readonly Reaction[]): void {
    this.patch(msgId, (m) => withReactions(m, reactions));
  }

  /** An `editMessage` delta: the message's new text in place. */
  applyEdit(delta: PushPayload<'editMessage'>): void {
    this.patch(delta.msg_id, (m) => withEdit(m, delta));
  }

  /** Replaces a message shown with `change` of it. */
  private patch(msgId: number, change: (message: Message) => Message): void {
    const message = this.byMsgId.get(msgId);
    if (!message) return;
    const next = change(message);
    if (next !== message && this.put(next)) this.emit();
  }

  /** Deleted for everyone, or hidden for me. */
  remove(msgId: number): void {
    this.deps.onRemoved?.(msgId);
    const m = this.byMsgId.get(msgId);
    if (!m) return;
    this.byMsgId.delete(msgId);
    this.confirmed = this.confirmed.filter((x) => x.msg_id !== msgId);
    this.emit();
  }

  /** The peer read my messages up to msgId (private chats). */
  markPeerRead(msgId: number): void {
    if (msgId <= this.peerReadTo) return;
    this.peerReadTo = msgId;
    this.emit();
  }

  /** Tells the server I have read everything shown; once per newer message, and only once the newest is shown. */
  readAll(): void {
    if (this.hasNewer) return;
    const newest = this.confirmed[this.confirmed.length - 1]?.msg_id ?? 0;
    if (newest <= this.readTo) return;
    this.readTo = newest;
    this.deps.markRead(newest).catch(() => {
      // Read marks are a courtesy; the next message or opening the chat marks again.
      this.readTo = 0;
    });
  }

  /** Reloads one stored message (after I withdrew it, whatever happened to the push). */
  async refresh(msgId: number): Promise<void> {
    try {
      const page = await this.deps.fetchPage({ last_id: msgId + 1, limit: 1 });
      for (const m of page) if (m.msg_id === msgId) this.receive(m);
    } catch {
      // The push usually brings the change anyway.
    }
  }

  /**
   * Hides everything up to `upTo` (default: the newest message shown) on this device, for "clear
   * chat history"; answers the msg_id it cleared up to.
   */
  clearHistory(upTo?: number): number {
    const newest = this.confirmed[this.confirmed.length - 1]?.msg_id ?? 0;
    this.clearedTo = Math.max(this.clearedTo, upTo ?? newest, newest);
    this.confirmed = this.confirmed.filter((m) => m.msg_id > this.clearedTo);
    this.byMsgId = new Map(this.confirmed.map((m) => [m.msg_id, m]));
    this.hasOlder = false;
    this.hasNewer = false;
    this.focus = null;
    for (const m of this.held.values()) this.put(m);
    this.held.clear();
    this.emit();
    return this.clearedTo;
  }

  /** Starts over from the newest page (the group's history was cleared, say). */
  async reload(): Promise<void> {
    this.focus = null;
    await this.startOver();
  }

  message(msgId: number): Message | undefined {
    return this.byMsgId.get(msgId);
  }

  /** Stores a message by msg_id; answers whether anything changed. */
  private put(message: Message): boolean {
    if (message.msg_id <= this.clearedTo) return false;
    if (message.fromUser.id === this.deps.me.user_id && message.is_read === 1) {
      this.peerReadTo = Math.max(this.peerReadTo, message.msg_id);
    }
    const existing = this.byMsgId.get(message.msg_id);
    this.byMsgId.set(message.msg_id, message);
    if (existing) {
      if (existing === message) return false;
      const i = this.indexOf(message.msg_id);
      this.confirmed = this.confirmed.slice();
      this.confirmed[i] = message;
      return true;
    }
    const list = this.confirmed.slice();
    const last = list[list.length - 1];
    if (!last || last.msg_id < message.msg_id) list.push(message);
    else list.splice(this.insertionPoint(message.msg_id), 0, message);
    this.confirmed = list;
    return true;
  }

  private insertionPoint(msgId: number): number {
    let lo = 0;
    let hi = this.confirmed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.confirmed[mid]!.msg_id < msgId) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexOf(msgId: number): number {
    const i = this.insertionPoint(msgId);
    return this.confirmed[i]?.msg_id === msgId ? i : -1;
  }

  private build(): EngineSnapshot {
    const me = this.deps.me.user_id;
    const rows: ChatRow[] = this.confirmed.map((message) => {
      let row = this.rowCache.get(message);
      if (!row) {
        row = {
          key: `${String(message.fromUser.id)}:${message.id}`,
          message,
          state: 'sent',
          mine: message.fromUser.id === me,
          progress: null,
          preview: null,
          refusal: null,
        };
        this.rowCache.set(message, row);
      }
      return row;
    });
    for (const p of this.pending.values()) {
      rows.push({
        key: `${me}:${p.message.id}`,
        message: p.message,
        state: p.state,
        mine: true,
        progress: p.progress,
        preview: p.preview,
        refusal: p.refusal,
      });
    }
    const last = rows[rows.length - 1];
    return {
      status: this.status,
      rows,
      hasOlder: this.hasOlder,
      loadingOlder: this.loadingOlder,
      hasNewer: this.hasNewer,
      loadingNewer: this.loadingNewer,
      focus: this.focus,
      firstItemIndex: this.firstItemIndex,
      peerReadTo: this.peerReadTo,
      outgoing:
        this.pending.size > 0 && (last?.state === 'sending' || last?.state === 'failed') ? (last ?? null) : null,
    };
  }

  private tellOwn(): void {
    for (const l of this.ownListeners) l();
  }

  private emit = (): void => {
    this.snapshot = this.build();
    for (const l of this.listeners) l();
  };
}
