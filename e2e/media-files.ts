import { deflateSync } from 'node:zlib';

/*
 * Files the media scenarios send, made here so the test needs no fixtures or image library:
 * a PNG of one colour, a small PDF, and a WebM that says how long it is.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A `width`×`height` PNG filled with one RGB colour. */
export function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page PDF of about `size` bytes (the padding is a comment). */
export function pdf(size: number): Buffer {
  const head = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n';
  const tail = 'trailer<</Root 1 0 R>>\n%%EOF\n';
  const pad = Math.max(0, size - head.length - tail.length - 2);
  return Buffer.from(`${head}%${'x'.repeat(pad)}\n${tail}`);
}

const EBML_SEGMENT = 0x18538067;
const EBML_INFO = 0x1549a966;
const EBML_DURATION = 0x4489;

function readId(buf: Buffer, pos: number): { id: number; length: number } {
  const first = buf[pos]!;
  const length = Math.clz32(first) - 23;
  let id = 0;
  for (let i = 0; i < length; i++) id = id * 256 + buf[pos + i]!;
  return { id, length };
}

function readSize(buf: Buffer, pos: number): { size: number; length: number; unknown: boolean } {
  const first = buf[pos]!;
  const length = Math.clz32(first) - 23;
  let size = first & (0xff >> length);
  let allOnes = size === 0xff >> length;
  for (let i = 1; i < length; i++) {
    size = size * 256 + buf[pos + i]!;
    if (buf[pos + i] !== 0xff) allOnes = false;
  }
  return { size, length, unknown: allOnes };
}

/** An EBML size written in `length` bytes. */
function sizeIn(n: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  out.writeUIntBE(n, Math.max(0, length - 6), Math.min(6, length));
  out[0] = out[0]! | (0x80 >> (length - 1));
  return out;
}

/** An 8-byte EBML size. */
function size8(n: number): Buffer {
  const out = Buffer.alloc(8);
  out[0] = 0x01;
  out.writeUIntBE(n, 2, 6);
  return out;
}

/**
 * A browser recording (MediaRecorder writes WebM without a length) given a Duration in its
 * Segment Info, so a player reports `ms` as its length: how the test makes a 61-second video
 * without recording for a minute.
 */
export function webmWithDuration(webm: Buffer, ms: number): Buffer {
  let pos = 0;
  const header = readId(webm, pos);
  const headerSize = readSize(webm, pos + header.length);
  pos += header.length + headerSize.length + headerSize.size;
  const segment = readId(webm, pos);
  if (segment.id !== EBML_SEGMENT) throw new Error('no WebM segment');
  const segSize = readSize(webm, pos + segment.length);
  let child = pos + segment.length + segSize.length;
  while (child < webm.length) {
    const id = readId(webm, child);
    const sz = readSize(webm, child + id.length);
    const dataStart = child + id.length + sz.length;
    if (id.id === EBML_INFO) {
      // Recent browsers write a Duration when the recording ends: change its value in place.
      let at = dataStart;
      while (at < dataStart + sz.size) {
        const field = readId(webm, at);
        const fieldSize = readSize(webm, at + field.length);
        const value = at + field.length + fieldSize.length;
        if (field.id === EBML_DURATION) {
          const out = Buffer.from(webm);
          // Info's TimecodeScale is 1 ms in MediaRecorder files, so Duration counts milliseconds.
          if (fieldSize.size === 8) out.writeDoubleBE(ms, value);
          else out.writeFloatBE(ms, value);
          return out;
        }
        at = value + fieldSize.size;
      }
      // Older ones write none (and no SeekHead whose offsets would move): add one.
      const duration = Buffer.alloc(11);
      duration.writeUInt16BE(EBML_DURATION, 0);
      duration[2] = 0x88; // 8 bytes follow
      duration.writeDoubleBE(ms, 3);
      const info = Buffer.concat([
        webm.subarray(child, child + id.length),
        size8(sz.size + duration.length),
        webm.subarray(dataStart, dataStart + sz.size),
        duration,
      ]);
      const before = webm.subarray(0, child);
      const after = webm.subarray(dataStart + sz.size);
      if (segSize.unknown) return Buffer.concat([before, info, after]);
      // A sized segment grows by what Info grew, its size rewritten in as many bytes as before.
      const grown = segSize.size + info.length - (dataStart + sz.size - child);
      const sizeAt = pos + segment.length;
      return Buffer.concat([
        webm.subarray(0, sizeAt),
        sizeIn(grown, segSize.length),
        webm.subarray(sizeAt + segSize.length, child),
        info,
        after,
      ]);
    }
    child = dataStart + sz.size;
  }
  throw new Error('no Segment Info in the WebM');
}
