// A WebSocket client for load generators that read few of the frames they get. In a reconnect storm
// of a runMode 1 organisation every bind is announced to every bound user: some 12 million
// `isOnline` frames reach the simulated clients, which read none of them. `ws` makes a Buffer and
// an event of each, and the load generator then spent more CPU than the servers under test on the
// same two cores. This client walks the frames of each chunk the socket reads and hands over only
// those whose first bytes `wanted` accepts, without copying the others. Text frames only, as the
// Sparrow server sends (no extensions, no fragments); it answers pings and the close handshake.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import net from 'node:net';

const OPEN = 1;
const CLOSED = 3;

export class LeanSocket extends EventEmitter {
  /**
   * Opens `url` (ws://host:port/path). `wanted(chunk, start, end)` sees a text frame's payload in
   * place and answers whether to emit it as a 'message' (a Buffer of its own).
   */
  constructor(url, wanted = () => true) {
    super();
    const u = new URL(url);
    this.wanted = wanted;
    this.readyState = 0;
    this.head = null;
    /** A frame (or response head) cut by the end of a chunk, waiting for the rest. */
    this.rest = null;
    this.socket = net.connect(Number(u.port), u.hostname);
    this.socket.setNoDelay(true);
    this.socket.on('connect', () => {
      const key = randomBytes(16).toString('base64');
      this.socket.write(
        `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    this.socket.on('data', (chunk) => this.read(chunk));
    this.socket.on('error', (err) => this.emit('error', err));
    this.socket.on('close', () => {
      const was = this.readyState;
      this.readyState = CLOSED;
      if (was !== CLOSED) this.emit('close');
    });
  }

  read(chunk) {
    if (this.rest) {
      chunk = Buffer.concat([this.rest, chunk]);
      this.rest = null;
    }
    let at = 0;
    if (this.readyState === 0) {
      const end = chunk.indexOf('\r\n\r\n');
      if (end < 0) {
        this.rest = chunk;
        return;
      }
      if (!chunk.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
        this.socket.destroy();
        return;
      }
      this.readyState = OPEN;
      this.emit('open');
      at = end + 4;
    }
    while (at < chunk.length) {
      if (chunk.length - at < 2) break;
      const opcode = chunk[at] & 0x0f;
      let length = chunk[at + 1] & 0x7f;
      let start = at + 2;
      if (length === 126) {
        if (chunk.length - at < 4) break;
        length = chunk.readUInt16BE(at + 2);
        start = at + 4;
      } else if (length === 127) {
        if (chunk.length - at < 10) break;
        length = Number(chunk.readBigUInt64BE(at + 2));
        start = at + 10;
      }
      const end = start + length;
      if (end > chunk.length) break;
      if (opcode === 0x1) {
        if (this.wanted(chunk, start, end)) this.emit('message', Buffer.from(chunk.subarray(start, end)));
      } else if (opcode === 0x9) {
        this.frame(0xa, chunk.subarray(start, end));
      } else if (opcode === 0x8) {
        if (this.readyState === OPEN) this.frame(0x8, chunk.subarray(start, Math.min(end, start + 2)));
        this.readyState = CLOSED;
        this.socket.end();
        this.emit('close');
        return;
      }
      at = end;
    }
    if (at < chunk.length) this.rest = chunk.subarray(at);
  }

  /** Writes one masked frame, as a client must. */
  frame(opcode, payload) {
    const mask = randomBytes(4);
    const length = payload.length;
    const header = Buffer.alloc(length < 126 ? 6 : length < 65536 ? 8 : 14);
    header[0] = 0x80 | opcode;
    if (length < 126) header[1] = 0x80 | length;
    else if (length < 65536) {
      header[1] = 0x80 | 126;
      header.writeUInt16BE(length, 2);
    } else {
      header[1] = 0x80 | 127;
      header.writeBigUInt64BE(BigInt(length), 2);
    }
    mask.copy(header, header.length - 4);
    const body = Buffer.from(payload);
    for (let i = 0; i < body.length; i++) body[i] ^= mask[i & 3];
    this.socket.write(Buffer.concat([header, body]));
  }

  send(text) {
    if (this.readyState === OPEN) this.frame(0x1, Buffer.from(text));
  }

  terminate() {
    this.readyState = CLOSED;
    this.socket.destroy();
  }
}

LeanSocket.OPEN = OPEN;
LeanSocket.CONNECTING = 0;
