/** What the browser can tell about a video before it is sent (docs/protocol.md: the client sends these). */
export interface VideoInfo {
  /** Seconds; null when the browser cannot read the file. */
  durationS: number | null;
  width: number;
  height: number;
  /** The first frame as a JPEG, uploaded as the poster; null when none could be drawn. */
  poster: Blob | null;
}

const PROBE_TIMEOUT_MS = 10_000;
const POSTER_EDGE = 720;

function once(target: EventTarget, events: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const handlers: Array<[string, () => void]> = [];
    const finish = (what: string) => {
      clearTimeout(timer);
      for (const [e, h] of handlers) target.removeEventListener(e, h);
      resolve(what);
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    for (const e of events) {
      const h = () => finish(e);
      handlers.push([e, h]);
      target.addEventListener(e, h);
    }
  });
}

function drawPoster(video: HTMLVideoElement): Promise<Blob | null> {
  const w = video.videoWidth;
  const h = video.videoHeight;
  if (!w || !h) return Promise.resolve(null);
  const scale = Math.min(1, POSTER_EDGE / Math.max(w, h));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * scale);
  canvas.height = Math.round(h * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.resolve(null);
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob((b) => resolve(b), 'image/jpeg', 0.82));
}

/**
 * Reads a video's length, size and first frame. Recordings from MediaRecorder carry no length in
 * their header (the browser reports Infinity): seeking far past the end makes it find the real one.
 */
export async function probeVideo(file: Blob): Promise<VideoInfo> {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.src = url;
  try {
    const loaded = await once(video, ['loadedmetadata', 'error'], PROBE_TIMEOUT_MS);
    if (loaded !== 'loadedmetadata') return { durationS: null, width: 0, height: 0, poster: null };
    let duration = video.duration;
    if (!Number.isFinite(duration)) {
      video.currentTime = Number.MAX_SAFE_INTEGER;
      await once(video, ['durationchange', 'seeked', 'timeupdate'], PROBE_TIMEOUT_MS);
      duration = Number.isFinite(video.duration) ? video.duration : video.currentTime;
    }
    video.currentTime = Math.min(0.1, Number.isFinite(duration) ? duration / 2 : 0);
    await once(video, ['seeked', 'error'], PROBE_TIMEOUT_MS);
    const poster = await drawPoster(video).catch(() => null);
    return {
      durationS: Number.isFinite(duration) && duration > 0 ? duration : null,
      width: video.videoWidth,
      height: video.videoHeight,
      poster,
    };
  } finally {
    video.removeAttribute('src');
    video.load();
    URL.revokeObjectURL(url);
  }
}

/** An image's pixel size, read locally (for the placeholder while it uploads). */
export async function probeImage(file: Blob): Promise<{ width: number; height: number } | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}
