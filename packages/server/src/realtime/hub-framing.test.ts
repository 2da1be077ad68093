/**
 * The hub's framing, through what hub.ts exports: `Hub` frames a batch of frames for everyone by hand
 * (`frameBatch`, once per kind of socket) and writes each socket its stretch of it (`sendBatch`,
 * `firstFrameFor`), and encodes a push once per kind (`encoded`). Those helpers are module-private,
 * so they are reached through `broadcast`, `flushBroadcasts`, `flushTo`, `deliver` and `send`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { PushFrame } from '@sparrow/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import {
  BROADCAST_BATCH_MS,
  Hub,
  MAX_BUFFERED_BYTES,
  SLOW_CLOSE_GRACE_MS,
  SLOW_CONSUMER_CLOSE,
  sessionSockets,
  type Connection,
} from './hub';

/** Seconds, as push frames carry it. */
const TIME = 1_700_000_000;

/** A push whose JSON is exactly `length` bytes (ASCII), told apart from others by its group. */
function pushOfLength(length: number, group = 'group-1'): PushFrame {
  const bare: PushFrame = { type: 'setNotice', time: TIME, data: { group_id: group, notice: '' } };
  const least = Buffer.byteLength(JSON.stringify(bare));
  if (length < least) throw new Error(`no setNotice push is shorter than ${least} bytes`);
  return { type: 'setNotice', time: TIME, data: { group_id: group, notice: 'x'.repeat(length - least) } };
}

const online = (id: number): PushFrame => ({ type: 'isOnline', time: TIME, data: { id, is_online: 1 } });
const disband: PushFrame = { type: 'disbandGroup', time: TIME, data: { group_id: 'group-5' } };
const readAll: PushFrame = { type: 'readAll', time: TIME, data: { toContactId: 1, msg_id: 41, is_group: 0 } };

const bytesOf = (frame: unknown): Buffer => Buffer.from(JSON.stringify(frame));

/** A frame from server to client as RFC 6455 §5.2 lays it out: FIN, text, no mask, the length. */
function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  let header: Buffer;
  if (length < 126) header = Buffer.from([0x81, length]);
  else if (length < 65536) header = Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  else {
    header = Buffer.alloc(10);
    header[0] = 0x81;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([header, payload]);
}

/** Reads back the frames written to a socket; throws when the bytes do not end on a frame. */
function readFrames(bytes: Buffer): Array<{ fin: boolean; opcode: number; masked: boolean; payload: unknown }> {
  const frames = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new Error(`a frame header cut short at byte ${at}`);
    const first = bytes[at]!;
    const second = bytes[at + 1]!;
    let length = second & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    if (start + length > bytes.length) throw new Error(`a frame of ${length} bytes cut short at byte ${at}`);
    frames.push({
      fin: (first & 0x80) !== 0,
      opcode: first & 0x0f,
      masked: (second & 0x80) !== 0,
      payload: JSON.parse(bytes.subarray(start, start + length).toString('utf8')) as unknown,
    });
    at = start + length;
  }
  return frames;
}

/** What a socket was given: bytes written straight to its connection, and frames sent through `ws`. */
type Wire = Array<{ via: 'write'; bytes: Buffer } | { via: 'send'; bytes: Buffer; binary: boolean | undefined }>;

interface FakeOptions {
  raingad?: boolean;
  extensions?: string;
  bufferedAmount?: number;
  readyState?: number;
}

/** A connection whose `ws` and socket record what the hub gives them (only what the hub touches). */
function fake(clientId: string, options: FakeOptions = {}) {
  const wire: Wire = [];
  const corks = { cork: 0, uncork: 0 };
  const closed: Array<{ code: number; reason: string }> = [];
  let terminated = 0;
  const ws = {
    OPEN: 1,
    readyState: options.readyState ?? 1,
    extensions: options.extensions ?? '',
    bufferedAmount: options.bufferedAmount ?? 0,
    send(data: Buffer | string, opts: { binary?: boolean }) {
      wire.push({ via: 'send', bytes: Buffer.from(data), binary: opts.binary });
    },
    close(code: number, reason: string) {
      closed.push({ code, reason });
      ws.readyState = 2;
    },
    terminate() {
      terminated++;
      ws.readyState = 3;
    },
  };
  const socket = {
    cork: () => void corks.cork++,
    uncork: () => void corks.uncork++,
    write(chunk: Buffer) {
      wire.push({ via: 'write', bytes: Buffer.from(chunk) });
      return true;
    },
  };
  const conn: Connection = {
    clientId,
    ws: ws as unknown as WebSocket,
    socket: socket as unknown as Duplex,
    userId: null,
    sessionId: null,
    isMobile: false,
    boundOverHttp: options.raingad,
    flushed: 0,
    openedAt: 0,
    seenAt: 0,
  };
  return {
    conn,
    ws,
    wire,
    corks,
    closed,
    terminated: () => terminated,
    /** All the bytes written straight to the connection, in order. */
    written: () => Buffer.concat(wire.flatMap((w) => (w.via === 'write' ? [w.bytes] : []))),
    /** The frames sent through `ws`, parsed. */
    sent: () => wire.flatMap((w) => (w.via === 'send' ? [JSON.parse(w.bytes.toString('utf8')) as unknown] : [])),
  };
}

/** A fake connection added to the hub and bound to a user. */
function joined(hub: Hub, clientId: string, userId: number, options: FakeOptions & { sessionId?: number } = {}) {
  const socket = fake(clientId, options);
  hub.add(socket.conn);
  hub.bind(socket.conn, userId, options.sessionId ?? userId * 10, false);
  return socket;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('sessionSockets', () => {
  it('names the sockets a session joined over HTTP bindUid, in a form no client id (a UUID) takes', () => {
    expect(sessionSockets(42)).toBe('session:42');
    expect(sessionSockets(42)).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    expect(sessionSockets(1)).not.toBe(sessionSockets(11));
  });
});

describe('a batch of frames for everyone, framed by hand', () => {
  it.each([
    [125, [0x81, 125]],
    [126, [0x81, 126, 0x00, 0x7e]],
    [65535, [0x81, 126, 0xff, 0xff]],
    [65536, [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]],
  ])('writes a push of %i bytes behind the header RFC 6455 gives that length', (length, header) => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    const push = pushOfLength(length);
    expect(bytesOf(push).length).toBe(length);

    hub.broadcast(push);
    hub.flushBroadcasts();

    const bytes = ann.written();
    expect([...bytes.subarray(0, header.length)]).toEqual(header);
    expect(bytes.length).toBe(header.length + length);
    expect(bytes.subarray(header.length).equals(bytesOf(push))).toBe(true);
    expect(ann.sent()).toEqual([]);
  });

  it('writes a push shorter than 126 bytes with its length in the second byte', () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    const push = online(3);
    const payload = bytesOf(push);
    expect(payload.length).toBeLessThan(126);

    hub.broadcast(push);
    hub.flushBroadcasts();

    expect(ann.written()).toEqual(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
  });

  it('writes the waiting frames back to back, in the order given, in one corked write', () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    const pushes = [pushOfLength(125, 'a'), pushOfLength(126, 'b'), pushOfLength(65536, 'c'), online(3)];

    for (const push of pushes) hub.broadcast(push);
    hub.flushBroadcasts();

    expect(ann.written()).toEqual(Buffer.concat(pushes.map((push) => textFrame(bytesOf(push)))));
    expect(ann.wire).toHaveLength(1);
    expect(ann.corks).toEqual({ cork: 1, uncork: 1 });
    expect(readFrames(ann.written()).map((f) => [f.fin, f.opcode, f.masked])).toEqual(
      pushes.map(() => [true, 1, false]),
    );
  });

  it('frames the batch once per kind of socket, however many sockets of that kind it is written to', () => {
    const { Sender } = wsModule as unknown as { Sender: { frame: (...args: unknown[]) => Buffer[] } };
    const frame = vi.spyOn(Sender, 'frame');
    const hub = new Hub();
    const sparrows = [joined(hub, 's1', 1), joined(hub, 's2', 2), joined(hub, 's3', 3)];
    const raingads = [joined(hub, 'r1', 1, { raingad: true }), joined(hub, 'r2', 4, { raingad: true })];

    hub.broadcast(disband);
    hub.broadcast(online(9));
    hub.flushBroadcasts();

    // Two frames for Sparrow's sockets, two for Raingad's (removeGroup in place of disbandGroup).
    expect(frame).toHaveBeenCalledTimes(4);
    for (const s of sparrows) expect(readFrames(s.written()).map((f) => f.payload)).toEqual([disband, online(9)]);
    for (const r of raingads) {
      expect(readFrames(r.written()).map((f) => f.payload)).toEqual([
        { type: 'removeGroup', time: TIME, data: { group_id: 'group-5' } },
        online(9),
      ]);
    }
  });

  it('writes no frame at all, not an empty one, for a push a Raingad socket is not told of', () => {
    const hub = new Hub();
    const sparrow = joined(hub, 's', 1);
    const raingad = joined(hub, 'r', 2, { raingad: true });

    hub.broadcast(readAll);
    hub.flushBroadcasts();
    expect(raingad.wire).toEqual([]);
    expect(raingad.corks).toEqual({ cork: 0, uncork: 0 });
    expect(readFrames(sparrow.written()).map((f) => f.payload)).toEqual([readAll]);

    hub.broadcast(online(3));
    hub.broadcast(readAll);
    hub.broadcast(online(4));
    hub.flushBroadcasts();
    expect(raingad.written()).toEqual(Buffer.concat([textFrame(bytesOf(online(3))), textFrame(bytesOf(online(4)))]));
  });

  it("skips the frames for everyone but the socket's own user, writing the stretches around them", () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    const bob = joined(hub, 'bob', 2);
    const [a, b, c, d] = [online(1), pushOfLength(200, 'b'), online(11), pushOfLength(70_000, 'd')];

    hub.broadcast(a!, 1);
    hub.broadcast(b!);
    hub.broadcast(c!, 1);
    hub.broadcast(d!);
    hub.flushBroadcasts();

    expect(ann.written()).toEqual(Buffer.concat([textFrame(bytesOf(b)), textFrame(bytesOf(d))]));
    expect(ann.wire.map((w) => w.via)).toEqual(['write', 'write']);
    expect(ann.corks).toEqual({ cork: 1, uncork: 1 });
    expect(readFrames(bob.written()).map((f) => f.payload)).toEqual([a, b, c, d]);
  });

  it('writes a socket bound between two frames only the frames given after it was bound', () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    hub.broadcast(online(7));
    const bob = joined(hub, 'bob', 2);
    hub.broadcast(online(8));
    hub.broadcast(pushOfLength(126));
    hub.flushBroadcasts();

    expect(readFrames(ann.written()).map((f) => f.payload)).toEqual([online(7), online(8), pushOfLength(126)]);
    expect(bob.written()).toEqual(
      Buffer.concat([textFrame(bytesOf(online(8))), textFrame(bytesOf(pushOfLength(126)))]),
    );
  });

  it('writes a socket each frame once: flushing it alone first, or flushing again, repeats nothing', () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    const bob = joined(hub, 'bob', 2);
    hub.broadcast(online(7));

    hub.flushTo(ann.conn);
    expect(readFrames(ann.written()).map((f) => f.payload)).toEqual([online(7)]);
    expect(bob.wire).toEqual([]);

    hub.flushBroadcasts();
    hub.flushBroadcasts();
    hub.flushTo(ann.conn);
    hub.flushTo(bob.conn);
    expect(readFrames(ann.written()).map((f) => f.payload)).toEqual([online(7)]);
    expect(readFrames(bob.written()).map((f) => f.payload)).toEqual([online(7)]);
  });

  it('writes nothing to a socket not yet bound, nor to one that is not open', () => {
    const hub = new Hub();
    const unbound = fake('unbound');
    hub.add(unbound.conn);
    const closing = joined(hub, 'closing', 1, { readyState: 2 });

    hub.broadcast(online(3));
    hub.flushBroadcasts();
    hub.flushTo(unbound.conn);

    expect(unbound.wire).toEqual([]);
    expect(closing.wire).toEqual([]);
  });

  it('flushes the batch by itself BROADCAST_BATCH_MS after its first frame', () => {
    vi.useFakeTimers();
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);

    hub.broadcast(online(3));
    vi.advanceTimersByTime(BROADCAST_BATCH_MS / 2);
    hub.broadcast(online(4));
    vi.advanceTimersByTime(BROADCAST_BATCH_MS / 2 - 1);
    expect(ann.wire).toEqual([]);
    vi.advanceTimersByTime(1);

    expect(readFrames(ann.written()).map((f) => f.payload)).toEqual([online(3), online(4)]);
  });

  it('sends the batch frame by frame through ws, skipping its own user’s, when the socket has an extension', () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1, { extensions: 'permessage-deflate' });

    hub.broadcast(online(3));
    hub.broadcast(online(4), 1);
    hub.broadcast(pushOfLength(65536));
    hub.flushBroadcasts();

    expect(ann.wire.map((w) => w.via)).toEqual(['send', 'send']);
    expect(ann.wire.every((w) => w.via === 'send' && w.binary === false)).toBe(true);
    expect(ann.sent()).toEqual([online(3), pushOfLength(65536)]);
    expect(ann.corks).toEqual({ cork: 0, uncork: 0 });
  });

  it('still writes a batch that brings the socket to MAX_BUFFERED_BYTES exactly', () => {
    const hub = new Hub();
    const push = online(3);
    const ann = joined(hub, 'ann', 1, { bufferedAmount: MAX_BUFFERED_BYTES - textFrame(bytesOf(push)).length });

    hub.broadcast(push);
    hub.flushBroadcasts();

    expect(ann.written()).toEqual(textFrame(bytesOf(push)));
    expect(ann.closed).toEqual([]);
  });

  it('sends frame by frame through ws a batch that only its headers take past MAX_BUFFERED_BYTES', () => {
    const hub = new Hub();
    const push = online(3);
    // Room for the payload (which `send` weighs) but not for its header (which the batch weighs).
    const ann = joined(hub, 'ann', 1, { bufferedAmount: MAX_BUFFERED_BYTES - bytesOf(push).length });

    hub.broadcast(push);
    hub.flushBroadcasts();

    expect(ann.wire).toEqual([{ via: 'send', bytes: bytesOf(push), binary: false }]);
    expect(ann.closed).toEqual([]);
  });

  it('cuts off, writing none of it, a socket that a batch would take past MAX_BUFFERED_BYTES', () => {
    vi.useFakeTimers();
    const warn = vi.fn();
    const hub = new Hub({ warn });
    const push = online(3);
    const ann = joined(hub, 'ann', 1, { bufferedAmount: MAX_BUFFERED_BYTES - bytesOf(push).length + 1 });

    hub.broadcast(push);
    hub.flushBroadcasts();

    expect(ann.wire).toEqual([]);
    expect(ann.closed).toEqual([{ code: SLOW_CONSUMER_CLOSE, reason: 'slow consumer: reconnect and sync' }]);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ userId: 1, clientId: 'ann' }), expect.any(String));
    vi.advanceTimersByTime(SLOW_CLOSE_GRACE_MS - 1);
    expect(ann.terminated()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ann.terminated()).toBe(1);
  });
});

describe('deliver', () => {
  it('writes the frames for everyone waiting for a socket before the push it delivers', () => {
    const hub = new Hub();
    const ann = joined(hub, 'ann', 1);
    const bob = joined(hub, 'bob', 2);
    hub.broadcast(online(5));

    hub.deliver([1], disband);

    expect(ann.wire.map((w) => w.via)).toEqual(['write', 'send']);
    expect(readFrames(ann.written()).map((f) => f.payload)).toEqual([online(5)]);
    expect(ann.sent()).toEqual([disband]);
    expect(bob.wire).toEqual([]);
  });

  it('encodes a push once per kind of socket and sends it as text', () => {
    const hub = new Hub();
    const phone = joined(hub, 'phone', 1);
    const laptop = joined(hub, 'laptop', 1);
    const old = joined(hub, 'old', 1, { raingad: true });

    hub.deliver([1], disband);

    const [toPhone] = phone.wire;
    const [toLaptop] = laptop.wire;
    expect(toPhone).toEqual({ via: 'send', bytes: bytesOf(disband), binary: false });
    expect(toLaptop).toEqual(toPhone);
    expect(old.sent()).toEqual([{ type: 'removeGroup', time: TIME, data: { group_id: 'group-5' } }]);
  });

  it('hands every Sparrow socket the very same bytes, not an encoding of its own', () => {
    const sent: unknown[] = [];
    const hub = new Hub();
    for (const id of ['a', 'b']) {
      const socket = joined(hub, id, 1);
      socket.ws.send = (data) => void sent.push(data);
    }

    hub.deliver([1], online(3));

    expect(sent).toHaveLength(2);
    expect(Buffer.isBuffer(sent[0])).toBe(true);
    expect(sent[1]).toBe(sent[0]);
  });

  it('sends a Raingad socket the extras of an isRead, and nothing for a push it is not told of', () => {
    const hub = new Hub();
    const sparrow = joined(hub, 's', 1);
    const raingad = joined(hub, 'r', 1, { raingad: true });
    const isRead: PushFrame = { type: 'isRead', time: TIME, data: { toContactId: 2, msg_id: 41 } };
    const read = [
      {
        id: 'm-41',
        msg_id: 41,
        type: 'text' as const,
        content: 'hi',
        sendTime: TIME * 1000,
        toContactId: 2,
        is_group: 0 as const,
        status: 'succeed' as const,
        is_read: 1 as const,
        at: [],
        pid: 0,
        fromUser: { id: 1, user_id: 1, realname: 'Ann', displayName: 'Ann', avatar: '' },
        extends: {},
      },
    ];

    hub.deliver([1], isRead, undefined, { read });
    hub.deliver([1], readAll);

    expect(sparrow.sent()).toEqual([isRead, readAll]);
    expect(raingad.sent()).toEqual([{ type: 'isRead', time: TIME, data: read }]);
  });

  it('skips the socket named by its client id, and with sessionSockets the sockets a session joined over HTTP', () => {
    const hub = new Hub();
    const web = joined(hub, 'web', 1, { sessionId: 7 });
    const old = joined(hub, 'old', 1, { sessionId: 7, raingad: true });
    const otherOld = joined(hub, 'other-old', 1, { sessionId: 8, raingad: true });

    hub.deliver([1], online(3), sessionSockets(7));
    expect(web.sent()).toEqual([online(3)]);
    expect(old.sent()).toEqual([]);
    expect(otherOld.sent()).toEqual([online(3)]);

    hub.deliver([1], online(4), 'web');
    expect(web.sent()).toEqual([online(3)]);
    expect(old.sent()).toEqual([online(4)]);
  });

  it('cuts off rather than sends a push that would take a socket past MAX_BUFFERED_BYTES', () => {
    const hub = new Hub();
    const push = online(3);
    const full = joined(hub, 'full', 1, { bufferedAmount: MAX_BUFFERED_BYTES - bytesOf(push).length + 1 });
    const room = joined(hub, 'room', 2, { bufferedAmount: MAX_BUFFERED_BYTES - bytesOf(push).length });

    hub.deliver([1, 2], push);

    expect(full.wire).toEqual([]);
    expect(full.closed.map((c) => c.code)).toEqual([SLOW_CONSUMER_CLOSE]);
    expect(room.sent()).toEqual([push]);
    expect(room.closed).toEqual([]);
  });
});

describe('a hand-framed batch on a real connection', () => {
  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true });
  const accepted: Array<(conn: Connection) => void> = [];
  let url = '';

  beforeAll(async () => {
    server.on('upgrade', (req, socket, head) => {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn: Connection = {
          clientId: `c${accepted.length}`,
          ws,
          socket,
          userId: null,
          sessionId: null,
          isMobile: false,
          flushed: 0,
          openedAt: 0,
          seenAt: 0,
        };
        accepted.shift()?.(conn);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/wss`;
  });

  afterAll(async () => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('is read by a ws client as the frames broadcast, in order, less its own user’s', async () => {
    const serverSide = new Promise<Connection>((resolve) => accepted.push(resolve));
    const client = new WebSocket(url);
    const received: Array<{ text: string; isBinary: boolean }> = [];
    client.on('message', (data, isBinary) => received.push({ text: data.toString(), isBinary }));
    const conn = await serverSide;
    await new Promise<void>((resolve) => client.once('open', () => resolve()));

    const hub = new Hub();
    hub.add(conn);
    hub.bind(conn, 1, 10, false);
    const pushes = [pushOfLength(125, 'a'), pushOfLength(126, 'b'), pushOfLength(65535, 'c'), pushOfLength(65536, 'd')];
    hub.broadcast(pushes[0]!);
    hub.broadcast(online(1), 1);
    for (const push of pushes.slice(1)) hub.broadcast(push);
    hub.flushBroadcasts();

    await vi.waitFor(() => expect(received).toHaveLength(pushes.length));
    expect(conn.ws.extensions).toBe('');
    expect(received.map((m) => m.isBinary)).toEqual(pushes.map(() => false));
    expect(received.map((m) => JSON.parse(m.text) as unknown)).toEqual(pushes);
    client.close();
  });
});
