/**
 * Reading QR codes: the browser's BarcodeDetector where it reads them (Android, macOS, ChromeOS),
 * else the `jsqr` package, loaded on first use.
 */

interface Detected {
  rawValue: string;
}
interface Detector {
  detect(source: CanvasImageSource): Promise<Detected[]>;
}
interface DetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
}

let native: Promise<Detector | null> | undefined;

function nativeDetector(): Promise<Detector | null> {
  native ??= (async () => {
    const Class = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
    if (!Class) return null;
    try {
      return (await Class.getSupportedFormats()).includes('qr_code') ? new Class({ formats: ['qr_code'] }) : null;
    } catch {
      return null;
    }
  })();
  return native;
}

const loadJsQr = () => import('jsqr').then((m) => m.default);

/** Starts fetching the decoder, so that the first frame is read without waiting for it. */
export function preloadDecoder(): void {
  void nativeDetector().then((d) => (d ? undefined : loadJsQr().catch(() => undefined)));
}

/**
 * The text of a QR code drawn on `canvas`, or null. `thorough` (a picked picture, read once) also
 * tries light-on-dark codes; camera frames are read many times a second and skip that.
 */
export async function decodeCanvas(canvas: HTMLCanvasElement, thorough = false): Promise<string | null> {
  const detector = await nativeDetector();
  if (detector) {
    try {
      const [hit] = await detector.detect(canvas);
      if (hit?.rawValue) return hit.rawValue;
      if (!thorough) return null;
    } catch {
      // A detector that fails on this frame: jsqr reads it.
    }
  }
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx || canvas.width === 0 || canvas.height === 0) return null;
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const jsQR = await loadJsQr();
  const found = jsQR(image.data, image.width, image.height, {
    inversionAttempts: thorough ? 'attemptBoth' : 'dontInvert',
  });
  return found?.data || null;
}

/** Draws `source` (w×h) scaled to at most `max` px on its longer side onto `canvas`, on white. */
export function drawScaled(
  canvas: HTMLCanvasElement,
  source: CanvasImageSource,
  width: number,
  height: number,
  max: number,
): void {
  const scale = Math.min(1, max / Math.max(width, height));
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
}

/** The text of a QR code in a picked picture, or null; large pictures are tried at two sizes. */
export async function decodeFile(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    const canvas = document.createElement('canvas');
    for (const max of [1280, 640]) {
      drawScaled(canvas, bitmap, bitmap.width, bitmap.height, max);
      const text = await decodeCanvas(canvas, true);
      if (text) return text;
      if (Math.max(bitmap.width, bitmap.height) <= max) break;
    }
    return null;
  } finally {
    bitmap.close();
  }
}
