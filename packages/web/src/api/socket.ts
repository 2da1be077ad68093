import {
  HEARTBEAT_MS,
  RECONNECT_FIRST_WAIT_MS,
  RECONNECT_MAX_CLOSES,
  RECONNECT_MAX_OPEN_FAILURES,
  RECONNECT_WAIT_MS,
  SOCKET_PATH,
  SocketCloseCodes,
  SocketCodes,
  parseServerFrame,
  type ClientFrame,
  type PushEvent,
} from '@sparrow/protocol';

/**
 * Connection states (docs/product.md §4): `idle` before start, `connecting`, `open`, `waiting` for a
 * scheduled retry, `error` after the retry limits (waits for the network to return), `stopped`
 * after stop() (signed out).
 */
export type SocketState = 'idle' | 'connecting' | 'open' | 'waiting' | 'error' | 'stopped';

/** A socket-level failure: 10002 send while not open, 600009 connect failed (docs/product.md §8). */
export class SocketError extends Error {
  override readonly name = 'SocketError';
  constructor(
    readonly code: (typeof SocketCodes)[keyof typeof SocketCodes],
    message: string,
  ) {
    super(message);
  }
}

/** The part of the browser WebSocket the client uses, so tests can pass a fake. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

interface ListenerTarget {
  addEventListener(type: string, fn: () => void): void;
  removeEventListener(type: string, fn: () => void): void;
}

export interface SocketDeps {
  /** Full ws:// or wss:// URL of the socket. */
  url: string;
  createSocket?: (url: string) => WebSocketLike;
  timers?: Timers;
  /** Who to bind the socket to once the server sends `init`; null while signed out. */
  getAuth(): { user_id: number; token: string } | null;
  /** Where `online` fires (window). */
  network?: ListenerTarget;
  /** Where `visibilitychange` fires, and whether the page is visible (document). */
  page?: ListenerTarget & { readonly visibilityState: string };
  /** Receives every parsed push event and the socket's own events; the domain layer routes them. */
  dispatch(event: SocketEvent): void;
  warn?: (...args: unknown[]) => void;
  /** A number in [0, 1) for the retry's jitter; Math.random unless a test fixes it. */
  random?: () => number;
}

/**
 * What the socket hands on: each push event as protocol's union parsed it, and the socket's own
 * events (bound with a client id, a pong with the multiport flag, a state change, a failure).
 */
export type SocketEvent =
  | PushEvent
  | { type: 'init'; data: { client_id: string } }
  | { type: 'pong'; data: { multiport: boolean } }
  | { type: 'state'; data: SocketState }
  | { type: 'error'; data: SocketError }
  /** The server closed the socket because the session has ended (bad or revoked token). */
  | { type: 'sessionEnded'; data: null };

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

/**
 * How long to wait before the `attempt`th connection attempt in a row (1 for the first after a
 * loss): exponential back-off with "full jitter", a uniform draw between 0 and a window that starts
 * at RECONNECT_FIRST_WAIT_MS and doubles with each failed attempt, up to RECONNECT_WAIT_MS. When a
 * server restarts, every client loses its socket at the same moment; a fixed wait would bring them
 * all back in the same instant, a draw spreads them over the window, and the growing window keeps
 * clients that find the server still down from knocking ever faster.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const span = Math.min(RECONNECT_WAIT_MS, RECONNECT_FIRST_WAIT_MS * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * span);
}

/** The socket URL on the page's own origin: wss on https pages, ws otherwise. */
export function socketUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${SOCKET_PATH}`;
}

/**
 * The push channel (docs/product.md §4, docs/protocol.md §4). Pings on open and every HEARTBEAT_MS, answers server
 * pings, binds the user when the server says `init`, and reconnects after reconnectDelay():
 * up to RECONNECT_MAX_OPEN_FAILURES retries when a connection cannot be opened and
 * RECONNECT_MAX_CLOSES when an open one closes; past either limit it enters `error` and waits
 * for the browser's `online` event. Showing the page reconnects at once when not connected.
 * Each frame is parsed with protocol's schemas and handed to `dispatch`, which belongs to the
 * layer above: the socket knows nothing of the stores or the conversations.
 */
export class SocketClient {
  private ws: WebSocketLike | null = null;
  private status: SocketState = 'idle';
  private openFailures = 0;
  private closes = 0;
  private retryTimer: unknown = null;
  private heartbeat: unknown = null;
  private readonly timers: Timers;
  private readonly createSocket: (url: string) => WebSocketLike;
  private listening = false;

  clientId: string | null = null;
  multiport = false;

  constructor(private readonly deps: SocketDeps) {
    this.timers = deps.timers ?? defaultTimers;
    this.createSocket = deps.createSocket ?? ((url) => new WebSocket(url) as unknown as WebSocketLike);
  }

  get state(): SocketState {
    return this.status;
  }

  /** Starts connecting (signed in). Calling it again while running does nothing. */
  start(): void {
    this.listen();
    if (this.status === 'idle' || this.status === 'stopped') {
      this.resetCounters();
      this.connect();
    }
  }

  /** Closes for good (signed out, forced offline): no retry until start() again. */
  stop(): void {
    this.unlisten();
    this.clearRetry();
    this.stopHeartbeat();
    const ws = this.ws;
    this.ws = null;
    this.clientId = null;
    this.multiport = false;
    if (ws) {
      this.detach(ws);
      if (ws.readyState === OPEN) ws.send(JSON.stringify({ type: 'close' } satisfies ClientFrame));
      ws.close(1000);
    }
    this.setState('stopped');
  }

  /** Sends a frame; throws SocketError 10002 when the socket is not open. */
  send(frame: ClientFrame): void {
    const ws = this.ws;
    if (!ws || this.status !== 'open' || ws.readyState !== OPEN) {
      throw new SocketError(SocketCodes.SendWhileClosed, 'socket is not open');
    }
    ws.send(JSON.stringify(frame));
  }

  /** Binds the open socket to the signed-in user again (after a new login). */
  bind(): void {
    const auth = this.deps.getAuth();
    if (!auth || !this.clientId || this.status !== 'open') return;
    this.send({ type: 'bindUid', user_id: auth.user_id, token: auth.token });
  }

  /** Reconnect now if not connected: on page show, on `online`, or from a "reconnect" button. */
  reconnectNow(): void {
    if (this.status === 'waiting' || this.status === 'error') {
      this.clearRetry();
      this.resetCounters();
      this.connect();
    }
  }

  private readonly onOnline = (): void => this.reconnectNow();
  private readonly onVisibility = (): void => {
    if (this.deps.page?.visibilityState === 'visible') this.reconnectNow();
  };

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.deps.network?.addEventListener('online', this.onOnline);
    this.deps.page?.addEventListener('visibilitychange', this.onVisibility);
  }

  private unlisten(): void {
    if (!this.listening) return;
    this.listening = false;
    this.deps.network?.removeEventListener('online', this.onOnline);
    this.deps.page?.removeEventListener('visibilitychange', this.onVisibility);
  }

  private emit(event: SocketEvent): void {
    try {
      this.deps.dispatch(event);
    } catch (e) {
      (this.deps.warn ?? console.warn)('socket event handler failed', event.type, e);
    }
  }

  private setState(next: SocketState): void {
    if (this.status === next) return;
    this.status = next;
    this.emit({ type: 'state', data: next });
  }

  private resetCounters(): void {
    this.openFailures = 0;
    this.closes = 0;
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== null) this.timers.clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private detach(ws: WebSocketLike): void {
    ws.onopen = ws.onclose = ws.onerror = ws.onmessage = null;
  }

  private connect(): void {
    this.setState('connecting');
    let ws: WebSocketLike;
    try {
      ws = this.createSocket(this.deps.url);
    } catch {
      this.onDown(false);
      return;
    }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.openFailures = 0;
      this.setState('open');
      this.ping();
      this.heartbeat = this.timers.setInterval(() => {
        // A connection that lived a whole heartbeat is healthy: its later close starts a fresh count.
        this.closes = 0;
        this.ping();
      }, HEARTBEAT_MS);
    };
    ws.onmessage = (ev) => this.onFrame(ev.data);
    ws.onerror = () => {
      // The browser always follows an error with close; the retry is decided there.
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.detach(ws);
      this.ws = null;
      this.clientId = null;
      this.stopHeartbeat();
      const code = (ev as { code?: number } | null)?.code;
      if (code === SocketCloseCodes.Unauthorized) {
        // The bind was refused: another connection would be too. No retry until a sign-in starts one.
        this.unlisten();
        this.setState('stopped');
        this.emit({ type: 'sessionEnded', data: null });
        return;
      }
      this.onDown(opened);
    };
  }

  private onDown(wasOpen: boolean): void {
    let retry: boolean;
    if (wasOpen) {
      this.closes += 1;
      retry = this.closes <= RECONNECT_MAX_CLOSES;
    } else {
      this.openFailures += 1;
      this.emit({ type: 'error', data: new SocketError(SocketCodes.ConnectFailed, 'socket connect failed') });
      retry = this.openFailures <= RECONNECT_MAX_OPEN_FAILURES;
    }
    if (!retry) {
      this.setState('error');
      return;
    }
    this.setState('waiting');
    this.retryTimer = this.timers.setTimeout(
      () => {
        this.retryTimer = null;
        this.connect();
      },
      reconnectDelay(this.openFailures + this.closes, this.deps.random),
    );
  }

  private ping(): void {
    if (this.status === 'open') this.send({ type: 'ping' });
  }

  private onFrame(data: unknown): void {
    let raw: unknown;
    try {
      raw = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      raw = null;
    }
    const frame = raw === null ? null : parseServerFrame(raw);
    if (!frame) {
      (this.deps.warn ?? console.warn)('socket: dropped a frame that does not parse', data);
      return;
    }
    if (frame.type === 'init') {
      this.clientId = frame.client_id;
      this.emit({ type: 'init', data: { client_id: frame.client_id } });
      this.bind();
    } else if (frame.type === 'ping') {
      this.send({ type: 'pong' });
    } else if (frame.type === 'pong') {
      this.multiport = frame.multiport ?? false;
      this.emit({ type: 'pong', data: { multiport: this.multiport } });
    } else {
      this.emit(frame);
    }
  }
}
