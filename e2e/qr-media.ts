import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';

/*
 * Pictures for the QR scenarios, made in the test: a code drawn as a PNG (as someone's saved
 * picture would be), a PNG read back to its code, and a camera frame (Y4M) that Chromium's fake
 * camera plays in a loop.
 */

/** `text` as a QR code in a PNG, `size` px square. */
export function codePng(text: string, size = 480): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', width: size, margin: 2, errorCorrectionLevel: 'M' });
}

/** The text of the QR code in a PNG, read by jsQR, or null. */
export function readPng(bytes: Buffer): string | null {
  const { width, height, data } = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width, height)?.data ?? null;
}

/**
 * One frame of a `width`×`height` camera picture showing the PNG, scaled to fit and centred on
 * white, as a Y4M file (a text header, then the frame's Y, U and V planes, 4:2:0). Chromium's
 * `--use-file-for-fake-video-capture` plays it in a loop as the camera.
 */
export function y4mFrame(pngBytes: Buffer, width = 640, height = 480): Buffer {
  const src = PNG.sync.read(pngBytes);
  const scale = Math.min(width / src.width, height / src.height) * 0.9;
  const w = Math.round(src.width * scale);
  const h = Math.round(src.height * scale);
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);

  // RGB of the frame: white, with the picture drawn in (nearest neighbour, over white where transparent).
  const rgb = new Uint8Array(width * height * 3).fill(255);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(src.height - 1, Math.floor(y / scale));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(src.width - 1, Math.floor(x / scale));
      const s = (sy * src.width + sx) * 4;
      const a = src.data[s + 3]! / 255;
      const d = ((top + y) * width + left + x) * 3;
      for (let c = 0; c < 3; c++) rgb[d + c] = Math.round(src.data[s + c]! * a + 255 * (1 - a));
    }
  }

  // BT.601 studio-swing YCbCr, chroma averaged over 2×2 blocks.
  const yPlane = Buffer.alloc(width * height);
  const cw = width / 2;
  const ch = height / 2;
  const uPlane = Buffer.alloc(cw * ch);
  const vPlane = Buffer.alloc(cw * ch);
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!];
    yPlane[i] = clamp(16 + 0.257 * r + 0.504 * g + 0.098 * b);
  }
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = ((2 * y + dy) * width + 2 * x + dx) * 3;
        r += rgb[p]!;
        g += rgb[p + 1]!;
        b += rgb[p + 2]!;
      }
      [r, g, b] = [r / 4, g / 4, b / 4];
      uPlane[y * cw + x] = clamp(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      vPlane[y * cw + x] = clamp(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  }
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\nFRAME\n`, 'ascii');
  return Buffer.concat([header, yPlane, uPlane, vPlane]);
}
