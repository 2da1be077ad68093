import type { Duplex } from 'node:stream';
import type { PushFrame } from '@sparrow/protocol';
import type { FastifyBaseLogger } from 'fastify';
import * as wsModule from 'ws';
import type { WebSocket } from 'ws';
import { kindOf, present, type PushExtras, type ShownFrame, type SocketKind } from './present';

/**
 * How long a frame for everyone may wait for others: a burst of them (a thousand users signing in,
 * each announced to everyone) then costs each socket one write per batch, not one per frame.
 */
export const BROADCAST_BATCH_MS = 100;

/**
 * Bytes a socket may have waiting to be written (`ws.bufferedAmount`, beyond what the kernel holds)
 * before it is cut off as a slow consumer: a client that stopped reading would otherwise hold server
 * memory without bound. It reconnects and catches up with `sync`, as after any drop.
 */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * How long a slow consumer has to read up to its close frame before its connection is destroyed.
 * `ws` starts its own close timer only once the close frame is written, which a client that does not
 * read never lets happen.
 */
export const SLOW_CLOSE_GRACE_MS = 2_000;

/** Close code for a slow consumer: try again later (RFC 6455 registry), then `sync`. */
export const SLOW_CONSUMER_CLOSE = 1013;

/**
 * What a push skips to mean the sockets a session joined over HTTP bindUid rather than one socket
 * (client ids are UUIDs, so it is never one of them).
 */
export function sessionSockets(sessionId: number): string {
  return `session:${sessionId}`;
}

/** True when a push that skips `except` (a client id, or `sessionSockets`) skips this socket. */
function skipped(conn: Connection, except: string | undefined): boolean {
  if (except === undefined) return false;
  if (conn.clientId === except) return true;
  return conn.boundOverHttp === true && conn.sessionId !== null && sessionSockets(conn.sessionId) === except;
}

/** A frame for everyone waiting for its batch; `seq`: its number among all such frames given here. */
interface Pending {
  text: Encoded;
  exceptUserId: number | undefined;
  seq: number;
}

/** One open socket on this node. */
export interface Connection {
  clientId: string;
  ws: WebSocket;
  /** The connection under `ws` (the one it writes to): a batch of frames for everyone is written straight to it. */
  socket: Duplex;
  userId: number | null;
  sessionId: number | null;
  isMobile: boolean;
  /**
   * Joined by HTTP bindUid, as Raingad clients join theirs: such a client names no socket on its
   * calls, so a call of its session without `clientId` comes from this socket; and it reads pushes
   * as those clients do (`present.ts`).
   */
  boundOverHttp?: boolean;
  /**
   * The number of the last frame for everyone this socket was written or is not to get (those given
   * before it was bound): it gets the ones after.
   */
  flushed: number;
  /** When the socket opened, and when it last sent a frame (ms): the gateway's time-outs read them. */
  openedAt: number;
  seenAt: number;
}

/** The sockets this node holds: by client id, and by user once bound. */
export class Hub {
  private readonly byClient = new Map<string, Connection>();
  private readonly byUser = new Map<number, Set<Connection>>();
  /** How many frames for everyone were given here. */
  private given = 0;
  /** Frames for everyone, waiting for their batch, in order of `seq`. */
  private pending: Pending[] = [];
  /** The waiting frames as each kind of socket reads them, framed once they are first written. */
  private framed = new Map<SocketKind, FramedBatch>();
  private batchTimer: NodeJS.Timeout | undefined;

  constructor(private readonly log?: Pick<FastifyBaseLogger, 'warn'>) {}

  add(conn: Connection): void {
    this.byClient.set(conn.clientId, conn);
  }

  get(clientId: string): Connection | undefined {
    return this.byClient.get(clientId);
  }

  /** Joins a connection to a user; true when it is the user's first socket on this node. */
  bind(conn: Connection, userId: number, sessionId: number, isMobile: boolean): boolean {
    if (conn.userId !== null) this.unbind(conn);
    conn.userId = userId;
    conn.sessionId = sessionId;
    conn.isMobile = isMobile;
    conn.flushed = this.given;
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(conn);
    return set.size === 1;
  }

  /** Removes a connection; true when it was the user's last socket on this node. */
  remove(conn: Connection): boolean {
    this.byClient.delete(conn.clientId);
    return this.unbind(conn);
  }

  private unbind(conn: Connection): boolean {
    if (conn.userId === null) return false;
    const set = this.byUser.get(conn.userId);
    if (!set?.delete(conn)) return false;
    if (set.size === 0) this.byUser.delete(conn.userId);
    return set.size === 0;
  }

  userConnections(userId: number): Connection[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /** Every connection, without copying them into an array. */
  connections(): IterableIterator<Connection> {
    return this.byClient.values();
  }

  all(): Connection[] {
    return [...this.byClient.values()];
  }

  get size(): number {
    return this.byClient.size;
  }

  /**
   * Writes a frame to every socket of the given users on this node, as each kind of socket reads it;
   * encoded only when one is here (most pushes to a sender's other devices find none). The frames
   * for everyone given before it go first to those sockets; the rest wait for their batch.
   */
  deliver(userIds: number[], frame: PushFrame, exceptClientId?: string, extras?: PushExtras): void {
    const text = encoded(frame, extras);
    for (const userId of userIds) {
      for (const conn of this.byUser.get(userId) ?? []) {
        if (skipped(conn, exceptClientId)) continue;
        const bytes = text(conn);
        if (!bytes) continue;
        this.flushTo(conn);
        this.send(conn, bytes);
      }
    }
  }

  /**
   * Writes a frame to every socket bound on this node now (but those of `exceptUserId`), within
   * BROADCAST_BATCH_MS, or before the next frame delivered to that socket: the frames of this node
   * reach each socket in the order they were given in.
   */
  broadcast(frame: PushFrame, exceptUserId?: number): void {
    this.pending.push({ text: encoded(frame), exceptUserId, seq: ++this.given });
    this.framed.clear();
    this.batchTimer ??= setTimeout(() => this.flushBroadcasts(), BROADCAST_BATCH_MS).unref();
  }

  /**
   * Writes the frames for everyone that are waiting, to each socket in one write: the batch is
   * framed once per kind of socket, and each socket is written the stretch of it that is its own (its
   * frames are a suffix, in order of `seq`, less its own user's), without a `ws.send` per frame.
   */
  flushBroadcasts(): void {
    if (this.pending.length === 0) return;
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    for (const set of this.byUser.values()) {
      for (const conn of set) this.flushTo(conn);
    }
    this.pending = [];
    this.framed.clear();
  }

  /** Writes one socket the frames for everyone that wait for it (a socket about to be told more, or closed). */
  flushTo(conn: Connection): void {
    const { userId } = conn;
    if (conn.flushed >= this.given || userId === null) return;
    const kind = kindOf(conn);
    let frames = this.framed.get(kind);
    if (!frames) this.framed.set(kind, (frames = frameBatch(this.pending, conn)));
    this.sendBatch(conn, userId, frames);
    conn.flushed = this.given;
  }

  /** Writes a socket its frames of a batch: those given once it was bound and not yet written, but its own user's. */
  private sendBatch(conn: Connection, userId: number, frames: FramedBatch): void {
    const { ws } = conn;
    if (ws.readyState !== ws.OPEN) return;
    const first = firstFrameFor(frames, conn.flushed);
    if (first === frames.ends.length) return;
    const pieces: Buffer[] = [];
    let total = 0;
    let from = frames.starts[first]!;
    const cut = (to: number) => {
      if (to > from) {
        pieces.push(frames.bytes.subarray(from, to));
        total += to - from;
      }
    };
    for (const i of frames.byExcepted.get(userId) ?? []) {
      if (i < first) continue;
      cut(frames.starts[i]!);
      from = frames.ends[i]!;
    }
    cut(frames.bytes.length);
    if (pieces.length === 0) return;
    // Under `ws`: safe only while its Sender writes each frame at once, which it does with no
    // extension (perMessageDeflate is off, and the hub sends no Blob); otherwise, and when the
    // batch would pass the slow-consumer limit, frame by frame as before.
    if (ws.extensions !== '' || ws.bufferedAmount + total > MAX_BUFFERED_BYTES) {
      for (let i = first; i < frames.ends.length; i++) {
        if (frames.excepted[i] === userId) continue;
        const payload = frames.payloads[i];
        if (payload) this.send(conn, payload);
      }
      return;
    }
    conn.socket.cork();
    try {
      for (const piece of pieces) conn.socket.write(piece);
    } finally {
      conn.socket.uncork();
    }
  }

  /**
   * Writes a text frame to an open socket; a closing one is skipped (sync repairs what it misses).
   * A socket whose unwritten bytes would pass MAX_BUFFERED_BYTES is cut off instead.
   */
  send(conn: Connection, text: string | Buffer): void {
    const { ws } = conn;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount + Buffer.byteLength(text) > MAX_BUFFERED_BYTES) {
      this.cutOff(conn);
      return;
    }
    ws.send(text, { binary: false });
  }

  private cutOff(conn: Connection): void {
    const { ws } = conn;
    this.log?.warn(
      { userId: conn.userId, clientId: conn.clientId, bufferedBytes: ws.bufferedAmount },
      'slow consumer: socket cut off',
    );
    ws.close(SLOW_CONSUMER_CLOSE, 'slow consumer: reconnect and sync');
    setTimeout(() => ws.terminate(), SLOW_CLOSE_GRACE_MS).unref();
  }
}

/**
 * A batch of frames for everyone as one kind of socket reads it: `bytes` holds them framed one after
 * the other (frame `i` from `starts[i]` to `ends[i]`, empty when the kind is not told of it).
 */
interface FramedBatch {
  bytes: Buffer;
  starts: number[];
  ends: number[];
  /** Each frame's number: a socket gets those after its `flushed`. */
  seq: number[];
  excepted: Array<number | undefined>;
  /** The frames each user's sockets skip, in order. */
  byExcepted: Map<number, number[]>;
  /** Each frame's payload, for writing frame by frame. */
  payloads: Array<Buffer | null>;
}

/** What ws's Sender offers and its types leave out: a frame's header and payload, as `ws.send` writes them. */
const { Sender } = wsModule as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean },
    ): Buffer[];
  };
};

/** Frames a batch for the kind of `conn` (each push presented as for any socket of that kind). */
function frameBatch(batch: Pending[], conn: Connection): FramedBatch {
  const framed: FramedBatch = {
    bytes: Buffer.alloc(0),
    starts: [],
    ends: [],
    seq: [],
    excepted: [],
    byExcepted: new Map(),
    payloads: [],
  };
  const chunks: Buffer[] = [];
  let length = 0;
  batch.forEach(({ text, exceptUserId, seq }, i) => {
    const payload = text(conn);
    framed.starts.push(length);
    if (payload) {
      for (const chunk of Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false })) {
        chunks.push(chunk);
        length += chunk.length;
      }
    }
    framed.ends.push(length);
    framed.seq.push(seq);
    framed.excepted.push(exceptUserId);
    framed.payloads.push(payload);
    if (exceptUserId !== undefined) {
      const skipped = framed.byExcepted.get(exceptUserId);
      if (skipped) skipped.push(i);
      else framed.byExcepted.set(exceptUserId, [i]);
    }
  });
  framed.bytes = Buffer.concat(chunks, length);
  return framed;
}

/** The first frame of a batch after a socket's `flushed` (`seq` is in order). */
function firstFrameFor(frames: FramedBatch, flushed: number): number {
  let lo = 0;
  let hi = frames.seq.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames.seq[mid]! <= flushed) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A push's bytes for a socket, null when its kind is not told of it. */
type Encoded = (conn: Connection) => Buffer | null;

/**
 * A push as UTF-8 bytes, encoded once for all the sockets of each kind that it reaches (given a
 * string, `ws` would encode it again for every socket of a fan-out). Frames that name their socket
 * (`offline`) are sent by `Realtime.kick`, socket by socket, not through here.
 */
function encoded(frame: PushFrame, extras?: PushExtras): Encoded {
  const byKind = new Map<SocketKind, Buffer | null>();
  return (conn) => {
    const kind = kindOf(conn);
    let bytes = byKind.get(kind);
    if (bytes === undefined) {
      const shown: ShownFrame | null = present(kind, frame, extras, conn.clientId);
      bytes = shown && Buffer.from(JSON.stringify(shown));
      byKind.set(kind, bytes);
    }
    return bytes;
  };
}
