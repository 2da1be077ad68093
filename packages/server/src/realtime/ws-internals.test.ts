/**
 * The hub writes a batch of frames for many sockets straight to each connection (`sendBatch` in
 * hub.ts), framed once by `ws`'s `Sender.frame`: a static its types leave out, and which the hub
 * may only use while it frames as `ws.send` does. `ws` is pinned to an exact version in
 * packages/server/package.json; an upgrade that changes what the hub relies on fails here first.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as wsModule from 'ws';

type FrameOptions = { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean };
const { Sender } = wsModule as unknown as { Sender: { frame?: (data: Buffer, options: FrameOptions) => Buffer[] } };

const TEXT: FrameOptions = { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false };

/** A server-to-client text frame as RFC 6455 §5.2 lays it out: FIN + opcode 1, no mask, the length. */
function expectedHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 65536) return Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  const header = Buffer.alloc(10);
  header[0] = 0x81;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

describe("ws's Sender, as the hub uses it", () => {
  it('is the exact version package.json pins', () => {
    const require = createRequire(import.meta.url);
    const installed = (require('ws/package.json') as { version: string }).version;
    const pinned = (require('../../package.json') as { dependencies: Record<string, string> }).dependencies.ws;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  it('offers a static frame(data, options) that answers the header and the payload', () => {
    expect(typeof Sender.frame).toBe('function');
    const parts = Sender.frame!(Buffer.from('hi'), TEXT);
    expect(Array.isArray(parts)).toBe(true);
    expect(Buffer.concat(parts)).toEqual(Buffer.concat([expectedHeader(2), Buffer.from('hi')]));
  });

  it.each([0, 1, 125, 126, 65535, 65536, 70000])('frames %i bytes of text as RFC 6455 lays them out', (length) => {
    const payload = Buffer.alloc(length, 0x61);
    const bytes = Buffer.concat(Sender.frame!(payload, TEXT));
    const header = expectedHeader(length);
    expect(bytes.subarray(0, header.length)).toEqual(header);
    expect(bytes.length).toBe(header.length + length);
    expect(bytes.subarray(header.length).equals(payload)).toBe(true);
  });

  it('leaves the payload as it was given (readOnly false, no mask)', () => {
    const payload = Buffer.from('{"type":"ping"}');
    const copy = Buffer.from(payload);
    Buffer.concat(Sender.frame!(payload, TEXT));
    expect(payload.equals(copy)).toBe(true);
  });
});
