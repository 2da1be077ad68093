import {
  HEARTBEAT_MS,
  RECONNECT_FIRST_WAIT_MS,
  RECONNECT_MAX_CLOSES,
  RECONNECT_MAX_OPEN_FAILURES,
  RECONNECT_WAIT_MS,
  SocketCloseCodes,
  SocketCodes,
} from '@sparrow/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SocketClient,
  SocketError,
  reconnectDelay,
  socketUrl,
  type SocketEvent,
  type SocketState,
  type WebSocketLike,
} from './socket';

/** A WebSocket stand-in the test drives by hand: open, receive, close. */
class FakeSocket implements WebSocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('InvalidStateError');
    this.sent.push(JSON.parse(data));
  }
  close(code?: number): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  /** The server accepted the connection. */
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  /** The connection failed before opening, as a browser reports it: error, then close. */
  fail(): void {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code: 1006 });
  }
  /** The server closed an open connection. */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  receive(frame: unknown): void {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
}

class FakePage extends EventTarget {
  visibilityState = 'visible';
}

/** The first retry of these tests waits half of the first window: the jitter's draw is fixed at 0.5. */
const HALF_WAIT_MS = RECONNECT_FIRST_WAIT_MS / 2;

function setup(
  auth: { user_id: number; token: string } | null = { user_id: 7, token: 'bearer abc' },
  random = () => 0.5,
) {
  const sockets: FakeSocket[] = [];
  const network = new EventTarget();
  const page = new FakePage();
  const warn = vi.fn();
  const events: SocketEvent[] = [];
  const states: SocketState[] = [];
  const errors: SocketError[] = [];
  const client = new SocketClient({
    url: 'ws://example.test/wss',
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    },
    getAuth: () => auth,
    random,
    network,
    page,
    dispatch: (event) => {
      events.push(event);
      if (event.type === 'state') states.push(event.data);
      if (event.type === 'error') errors.push(event.data);
    },
    warn,
  });
  const last = () => sockets[sockets.length - 1]!;
  /** The payloads of the events of one type handed to dispatch, in order. */
  const dispatched = <T extends SocketEvent['type']>(type: T) =>
    events.filter((e) => e.type === type).map((e) => e.data as Extract<SocketEvent, { type: T }>['data']);
  return { client, sockets, last, network, page, states, errors, warn, dispatched };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SocketClient', () => {
  it('builds the URL on the page origin, wss on https', () => {
    expect(socketUrl({ protocol: 'http:', host: 'a.test:8000' })).toBe('ws://a.test:8000/wss');
    expect(socketUrl({ protocol: 'https:', host: 'a.test' })).toBe('wss://a.test/wss');
  });

  it('pings on open and every 25 s', () => {
    const { client, last } = setup();
    client.start();
    last().open();
    expect(last().sent).toEqual([{ type: 'ping' }]);
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    expect(last().sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(last().sent).toEqual([{ type: 'ping' }, { type: 'ping' }]);
    vi.advanceTimersByTime(HEARTBEAT_MS * 2);
    expect(last().sent).toHaveLength(4);
  });

  it('a refused bind ends the session: no retry, one sessionEnded for the layer above', () => {
    const { client, sockets, last, states, dispatched } = setup();
    client.start();
    last().open();
    last().receive({ type: 'init', client_id: 'c-1' });
    last().drop(SocketCloseCodes.Unauthorized);
    expect(dispatched('sessionEnded')).toEqual([null]);
    expect(client.state).toBe('stopped');
    vi.advanceTimersByTime(RECONNECT_WAIT_MS * 10);
    expect(sockets).toHaveLength(1);
    expect(states.at(-1)).toBe('stopped');
    client.start();
    expect(sockets).toHaveLength(2);
  });

  it('stores the client id on init and binds the user with the token', () => {
    const { client, last, dispatched } = setup();
    client.start();
    last().open();
    last().receive({ type: 'init', client_id: 'c-1' });
    expect(client.clientId).toBe('c-1');
    expect(dispatched('init').map(({ client_id }) => client_id)).toEqual(['c-1']);
    expect(last().sent).toContainEqual({ type: 'bindUid', user_id: 7, token: 'bearer abc' });
  });

  it('answers a server ping with pong and records the multiport flag of a pong', () => {
    const { client, last } = setup();
    client.start();
    last().open();
    last().receive({ type: 'ping' });
    expect(last().sent).toContainEqual({ type: 'pong' });
    last().receive({ type: 'pong', multiport: true });
    expect(client.multiport).toBe(true);
  });

  it('dispatches typed push events and drops frames that do not parse', () => {
    const { client, last, warn, dispatched } = setup();
    client.start();
    last().open();
    last().receive({ type: 'isOnline', time: 1, data: { id: 3, is_online: 1 } });
    last().receive({ type: 'offline', time: 1, data: { id: 7, client_id: 'c-1', isMobile: true } });
    last().receive('not json');
    last().receive({ type: 'isOnline', time: 1, data: { id: 'x' } });
    last().receive({ type: 'nonsense' });
    expect(dispatched('isOnline')).toEqual([{ id: 3, is_online: 1 }]);
    expect(dispatched('offline')).toEqual([{ id: 7, client_id: 'c-1', isMobile: true }]);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('fails a send while not open with code 10002', () => {
    const { client, last } = setup();
    expect(() => client.send({ type: 'ping' })).toThrow(SocketError);
    client.start();
    try {
      client.send({ type: 'ping' });
      expect.unreachable();
    } catch (e) {
      expect((e as SocketError).code).toBe(SocketCodes.SendWhileClosed);
      expect((e as SocketError).code).toBe(10002);
    }
    last().open();
    expect(() => client.send({ type: 'ping' })).not.toThrow();
  });

  it('reports 600009 when a connection cannot be opened, and retries after the drawn wait', () => {
    const { client, sockets, last, errors, states } = setup();
    client.start();
    last().fail();
    expect(errors.map((e) => e.code)).toEqual([600009]);
    expect(errors[0]!.code).toBe(SocketCodes.ConnectFailed);
    expect(client.state).toBe('waiting');
    vi.advanceTimersByTime(HALF_WAIT_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    expect(states).toEqual(['connecting', 'waiting', 'connecting']);
  });

  it('draws each wait anew from a window that starts at 1 s and doubles up to 15 s, so that clients dropped together come back spread out', () => {
    expect(reconnectDelay(1, () => 0)).toBe(0);
    expect(reconnectDelay(1, () => 0.999999)).toBe(RECONNECT_FIRST_WAIT_MS - 1);
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => reconnectDelay(n, () => 0.999999) + 1)).toEqual([
      1_000,
      2_000,
      4_000,
      8_000,
      RECONNECT_WAIT_MS,
      RECONNECT_WAIT_MS,
      RECONNECT_WAIT_MS,
    ]);
    for (const attempt of [1, 5]) {
      const span = Math.min(RECONNECT_WAIT_MS, RECONNECT_FIRST_WAIT_MS * 2 ** (attempt - 1));
      const draws = Array.from({ length: 5000 }, () => reconnectDelay(attempt));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...draws)).toBeLessThan(span);
      // Spread over the whole window: each of ten equal slices gets about a tenth of 5 000 clients.
      const slices = Array.from({ length: 10 }, () => 0);
      for (const d of draws) slices[Math.floor((d / span) * 10)]! += 1;
      for (const n of slices) expect(n).toBeGreaterThan(350);
    }

    // The first retry is drawn from 1 s, the second, after it failed too, from 2 s.
    const waits = [0.1, 0.7];
    const { client, sockets, last } = setup(undefined, () => waits.shift() ?? 0.5);
    client.start();
    last().fail();
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    last().fail();
    vi.advanceTimersByTime(1_399);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    // A connection that opens starts the count afresh: its loss is retried from the first window.
    last().open();
    last().drop();
    vi.advanceTimersByTime(HALF_WAIT_MS);
    expect(sockets).toHaveLength(4);
  });

  it('treats a socket that cannot even be constructed as a failed connect', () => {
    const errors: number[] = [];
    const client = new SocketClient({
      url: 'ws://bad',
      createSocket: () => {
        throw new SyntaxError('bad url');
      },
      getAuth: () => null,
      dispatch: (event) => {
        if (event.type === 'error') errors.push(event.data.code);
      },
    });
    client.start();
    expect(errors).toEqual([600009]);
    expect(client.state).toBe('waiting');
    client.stop();
  });

  it('retries at most 10 times on open failures, then waits for the network', () => {
    const { client, sockets, last, errors, network } = setup();
    client.start();
    for (let i = 0; i <= RECONNECT_MAX_OPEN_FAILURES; i++) {
      last().fail();
      vi.advanceTimersByTime(RECONNECT_WAIT_MS);
    }
    expect(sockets).toHaveLength(1 + RECONNECT_MAX_OPEN_FAILURES);
    expect(errors).toHaveLength(1 + RECONNECT_MAX_OPEN_FAILURES);
    expect(client.state).toBe('error');
    vi.advanceTimersByTime(RECONNECT_WAIT_MS * 10);
    expect(sockets).toHaveLength(11);

    network.dispatchEvent(new Event('online'));
    expect(sockets).toHaveLength(12);
    expect(client.state).toBe('connecting');
    last().open();
    expect(client.state).toBe('open');
  });

  it('retries at most 5 times after an open socket closes', () => {
    const { client, sockets, last } = setup();
    client.start();
    for (let i = 0; i <= RECONNECT_MAX_CLOSES; i++) {
      last().open();
      last().drop();
      vi.advanceTimersByTime(RECONNECT_WAIT_MS);
    }
    expect(sockets).toHaveLength(1 + RECONNECT_MAX_CLOSES);
    expect(client.state).toBe('error');
  });

  it('starts the close count afresh after a connection stayed up a whole heartbeat', () => {
    const { client, last } = setup();
    const quickClose = () => {
      last().open();
      last().drop();
      vi.advanceTimersByTime(RECONNECT_WAIT_MS);
    };
    client.start();
    for (let i = 0; i < RECONNECT_MAX_CLOSES; i++) quickClose();
    expect(client.state).toBe('connecting');

    last().open();
    vi.advanceTimersByTime(HEARTBEAT_MS);
    last().drop();
    vi.advanceTimersByTime(RECONNECT_WAIT_MS);
    for (let i = 1; i < RECONNECT_MAX_CLOSES; i++) quickClose();
    expect(client.state).toBe('connecting');

    quickClose();
    expect(client.state).toBe('error');
  });

  it('reconnects at once when the page is shown and it is not connected', () => {
    const { client, sockets, last, page } = setup();
    client.start();
    last().open();
    page.dispatchEvent(new Event('visibilitychange'));
    expect(sockets).toHaveLength(1);

    last().drop();
    expect(client.state).toBe('waiting');
    page.visibilityState = 'hidden';
    page.dispatchEvent(new Event('visibilitychange'));
    expect(sockets).toHaveLength(1);
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    expect(sockets).toHaveLength(2);
    expect(client.state).toBe('connecting');
    vi.advanceTimersByTime(RECONNECT_WAIT_MS);
    expect(sockets).toHaveLength(2);
  });

  it('reconnects on page show after giving up too', () => {
    const { client, sockets, last, page } = setup();
    client.start();
    for (let i = 0; i <= RECONNECT_MAX_OPEN_FAILURES; i++) {
      last().fail();
      vi.advanceTimersByTime(RECONNECT_WAIT_MS);
    }
    expect(client.state).toBe('error');
    page.dispatchEvent(new Event('visibilitychange'));
    expect(sockets).toHaveLength(RECONNECT_MAX_OPEN_FAILURES + 2);
  });

  it('stops for good: says close, ends the heartbeat, no retry, ignores online and show', () => {
    const { client, sockets, last, network, page } = setup();
    client.start();
    const ws = last();
    ws.open();
    client.stop();
    expect(ws.sent).toContainEqual({ type: 'close' });
    expect(ws.closedWith).toBe(1000);
    expect(client.state).toBe('stopped');
    vi.advanceTimersByTime(HEARTBEAT_MS * 4 + RECONNECT_WAIT_MS * 4);
    network.dispatchEvent(new Event('online'));
    page.dispatchEvent(new Event('visibilitychange'));
    expect(sockets).toHaveLength(1);
    expect(ws.sent.filter((f) => (f as { type: string }).type === 'ping')).toHaveLength(1);
  });

  it('binds nobody while signed out', () => {
    const { client, last } = setup(null);
    client.start();
    last().open();
    last().receive({ type: 'init', client_id: 'c-2' });
    expect(last().sent).toEqual([{ type: 'ping' }]);
  });
});
