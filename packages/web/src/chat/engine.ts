import type { ContactId, FromUser, Message } from '@sparrow/protocol';
import { conversationKeyOf, type ContactKey } from '../lib/conversation-list';

/** Where an open conversation is: nothing yet, first page on its way, shown, or the first page failed. */
export type EngineStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A message of mine is `sending` until the server stores it, `failed` when it could not reach it. */
export type DeliveryState = 'sent' | 'sending' | 'failed';

export interface ChatRow {
  /** Stable from the optimistic row to the stored one, so the list does not redraw it. */
  key: string;
  message: Message;
  state: DeliveryState;
  mine: boolean;
}

export interface EngineSnapshot {
  status: EngineStatus;
  /** Stored messages by msg_id, then my pending ones in the order I sent them. */
  rows: readonly ChatRow[];
  hasOlder: boolean;
  loadingOlder: boolean;
  /** For the virtual list: goes down by the number of rows put in front of the first one. */
  firstItemIndex: number;
  /** The newest msg_id of mine the peer has read (private chats). */
  peerReadTo: number;
}

/** What the composer hands over; the engine adds the id, the target and the optimistic row. */
export interface OutgoingMessage {
  type: 'text' | 'emoji';
  content: string;
  at?: number[];
  /** Quoted msg_id. */
  pid?: number;
  extends?: Record<string, unknown>;
}

export interface SendBody extends OutgoingMessage {
  id: string;
  toContactId: ContactId;
  is_group: number;
}

export type FailureKind = 'refused' | 'retry';

export interface EngineDeps {
  me: { user_id: number; realname: string; avatar: string };
  target: { key: ContactKey; toContactId: ContactId; is_group: number };
  /** getMessageList of this conversation: newest `limit` older than `last_id`, oldest first. */
  fetchPage(query: { last_id?: number; limit: number }): Promise<Message[]>;
  send(body: SendBody): Promise<Message>;
  markRead(msgId: number): Promise<unknown>;
  /** Refused for good (muted, not a member…: drop the optimistic row) or worth a retry (network). */
  classify(error: unknown): FailureKind;
  onRefused?(error: unknown): void;
  newId(): string;
  now(): number;
  /** Messages up to this msg_id were cleared on this device and stay hidden. */
  clearedTo?: number;
  pageSize?: number;
}

export const PAGE_SIZE = 30;
/** Far from zero, so that thousands of older rows can be put in front. */
export const FIRST_INDEX = 1_000_000_000;

interface Pending {
  body: SendBody;
  message: Message;
  state: 'sending' | 'failed';
}

/**
 * One open conversation as a state machine (style.md habit 9): stored messages `confirmed` by
 * msg_id, my unsent ones `pending` by their client-made id. Pushes, pages and `sync` pages all
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
  private firstItemIndex = FIRST_INDEX;
  private peerReadTo = 0;
  private readTo = 0;
  private clearedTo: number;
  private listeners = new Set<() => void>();
  private snapshot: EngineSnapshot;
  private loading: Promise<void> | null = null;
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

  /** Loads the newest page; again after an error. Does nothing while loading or once loaded. */
  start(): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    this.loading ??= this.loadFirst().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async loadFirst(): Promise<void> {
    this.status = 'loading';
    this.emit();
    try {
      const page = await this.deps.fetchPage({ limit: this.pageSize });
      this.hasOlder = page.length >= this.pageSize;
      for (const m of page) this.put(m);
      this.status = 'ready';
    } catch {
      this.status = 'error';
    }
    this.emit();
  }

  /** The page before the oldest row; the list calls it when the top comes into view. */
  async loadOlder(): Promise<void> {
    if (this.status !== 'ready' || !this.hasOlder || this.loadingOlder) return;
    const oldest = this.confirmed[0]?.msg_id;
    this.loadingOlder = true;
    this.emit();
    try {
      const page = await this.deps.fetchPage(
        oldest ? { last_id: oldest, limit: this.pageSize } : { limit: this.pageSize },
      );
      this.hasOlder = page.length >= this.pageSize;
      const before = this.confirmed.length;
      for (const m of page) this.put(m);
      this.firstItemIndex -= this.confirmed.length - before;
    } catch {
      // The top of the list stays where it is; scrolling up again retries.
    } finally {
      this.loadingOlder = false;
      this.emit();
    }
  }

  /** Sends a new message: shown at once as sending, confirmed by the server's answer. */
  send(input: OutgoingMessage): string {
    const id = this.deps.newId();
    const body: SendBody = {
      id,
      toContactId: this.deps.target.toContactId,
      is_group: this.deps.target.is_group,
      type: input.type,
      content: input.content,
      at: input.at ?? [],
      pid: input.pid ?? 0,
      extends: input.extends ?? {},
    };
    const { me } = this.deps;
    const from: FromUser = {
      id: me.user_id,
      user_id: me.user_id,
      realname: me.realname,
      displayName: me.realname,
      avatar: me.avatar,
    };
    const message: Message = {
      id,
      msg_id: 0,
      type: input.type,
      content: input.content,
      sendTime: this.deps.now(),
      toContactId: body.toContactId,
      toUser: body.toContactId,
      is_group: body.is_group as Message['is_group'],
      status: 'succeed',
      is_read: 0,
      at: body.at ?? [],
      pid: body.pid ?? 0,
      fromUser: from,
      extends: body.extends ?? {},
    };
    this.pending.set(id, { body, message, state: 'sending' });
    this.emit();
    void this.deliver(id);
    return id;
  }

  /** Sends a failed message again with the same id: the server stores it at most once. */
  retry(id: string): void {
    const p = this.pending.get(id);
    if (!p || p.state !== 'failed') return;
    p.state = 'sending';
    this.emit();
    void this.deliver(id);
  }

  /** Gives up on a failed message: it leaves the list without reaching the server. */
  discard(id: string): void {
    const p = this.pending.get(id);
    if (!p || p.state !== 'failed') return;
    this.pending.delete(id);
    this.emit();
  }

  private async deliver(id: string): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    try {
      const stored = await this.deps.send(p.body);
      this.receive(stored);
      // The answer may describe another chat in a malformed reply; the row must not stay pending.
      this.pending.delete(id);
      this.emit();
    } catch (error) {
      if (!this.pending.has(id)) return;
      if (this.deps.classify(error) === 'refused') {
        this.pending.delete(id);
        this.emit();
        this.deps.onRefused?.(error);
      } else {
        p.state = 'failed';
        this.emit();
      }
    }
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
    if (message.fromUser.id === this.deps.me.user_id && this.pending.delete(message.id)) changed = true;
    const oldest = this.confirmed[0]?.msg_id;
    // Older than the loaded window with more history above it: it arrives with its page instead,
    // so that the window never has a hole.
    const outside =
      this.hasOlder && oldest !== undefined && message.msg_id < oldest && !this.byMsgId.has(message.msg_id);
    if (!outside && this.put(message)) changed = true;
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

  /** Deleted for everyone, or hidden for me. */
  remove(msgId: number): void {
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

  /** Tells the server I have read everything shown; once per newer message. */
  readAll(): void {
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
    this.emit();
    return this.clearedTo;
  }

  /** Starts over from the newest page (the group's history was cleared, say). */
  async reload(): Promise<void> {
    this.confirmed = [];
    this.byMsgId.clear();
    this.hasOlder = true;
    this.firstItemIndex = FIRST_INDEX;
    this.status = 'idle';
    await this.start();
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
    const rows: ChatRow[] = this.confirmed.map((message) => ({
      key: `${String(message.fromUser.id)}:${message.id}`,
      message,
      state: 'sent',
      mine: message.fromUser.id === me,
    }));
    for (const p of this.pending.values()) {
      rows.push({ key: `${me}:${p.message.id}`, message: p.message, state: p.state, mine: true });
    }
    return {
      status: this.status,
      rows,
      hasOlder: this.hasOlder,
      loadingOlder: this.loadingOlder,
      firstItemIndex: this.firstItemIndex,
      peerReadTo: this.peerReadTo,
    };
  }

  private emit = (): void => {
    this.snapshot = this.build();
    for (const l of this.listeners) l();
  };
}
