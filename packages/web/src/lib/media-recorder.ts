import { VIDEO_MAX_S } from '@sparrow/protocol';
import { judgeRecording, VOICE_MAX_S, type LengthVerdict } from './media-rules';

export type CaptureKind = 'voice' | 'video';

/** The part of MediaRecorder a capture uses. */
export interface RecorderLike {
  readonly mimeType: string;
  readonly state: 'inactive' | 'recording' | 'paused';
  start(timesliceMs?: number): void;
  stop(): void;
  ondataavailable: ((e: { data: Blob }) => void) | null;
  onstop: (() => void) | null;
}

/** What a capture needs from the browser; tests hand in fakes. */
export interface CaptureDeps {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  createRecorder(stream: MediaStream, mimeType: string | undefined): RecorderLike;
  isTypeSupported(mimeType: string): boolean;
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CaptureResult {
  blob: Blob;
  durationMs: number;
  mimeType: string;
  /** A file name with the extension of what was recorded (the server checks the bytes). */
  fileName: string;
  verdict: LengthVerdict;
}

/** Containers in the order we prefer them; the first the browser records is used. */
const PREFERRED: Record<CaptureKind, readonly string[]> = {
  voice: ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'],
  video: ['video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'],
};

const CONSTRAINTS: Record<CaptureKind, MediaStreamConstraints> = {
  voice: { audio: { echoCancellation: true, noiseSuppression: true }, video: false },
  video: { audio: true, video: { facingMode: 'environment', width: { ideal: 720 }, height: { ideal: 1280 } } },
};

/** The longest recording of each kind, s. */
export const CAPTURE_MAX_S: Record<CaptureKind, number> = { voice: VOICE_MAX_S, video: VIDEO_MAX_S };

function extensionFor(kind: CaptureKind, mimeType: string): string {
  if (mimeType.includes('ogg')) return 'ogg';
  if (mimeType.includes('mp4')) return kind === 'voice' ? 'm4a' : 'mp4';
  return 'webm';
}

export function browserCaptureDeps(): CaptureDeps {
  return {
    getUserMedia: (c) => navigator.mediaDevices.getUserMedia(c),
    createRecorder: (stream, mimeType) =>
      new MediaRecorder(stream, mimeType ? { mimeType } : undefined) as unknown as RecorderLike,
    isTypeSupported: (t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t),
    now: () => performance.now(),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
  };
}

/** Whether this browser can record at all (a camera or microphone API and MediaRecorder). */
export function canCapture(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices?.getUserMedia === 'function' &&
    typeof MediaRecorder !== 'undefined'
  );
}

/**
 * One voice or video recording: the device is opened first (the camera preview shows before the
 * shutter), recording stops by itself at the kind's limit, and the result says whether it may be
 * sent (too short, too long). Closing always releases the microphone and camera.
 */
export class MediaCapture {
  private recorder: RecorderLike | null = null;
  private chunks: Blob[] = [];
  private startedAt = 0;
  private stoppedAt = 0;
  private limitTimer: unknown = null;
  private finished: Promise<CaptureResult> | null = null;
  private closed = false;

  private constructor(
    readonly kind: CaptureKind,
    readonly stream: MediaStream,
    private readonly deps: CaptureDeps,
  ) {}

  /** Asks for the microphone (voice) or camera and microphone (video). Rejects when refused. */
  static async open(kind: CaptureKind, deps: CaptureDeps = browserCaptureDeps()): Promise<MediaCapture> {
    const stream = await deps.getUserMedia(CONSTRAINTS[kind]);
    return new MediaCapture(kind, stream, deps);
  }

  get recording(): boolean {
    return this.recorder !== null && this.finished === null;
  }

  /** Milliseconds recorded so far (or in all, once stopped). */
  get elapsedMs(): number {
    if (!this.recorder) return 0;
    return (this.finished ? this.stoppedAt : this.deps.now()) - this.startedAt;
  }

  get maxMs(): number {
    return CAPTURE_MAX_S[this.kind] * 1000;
  }

  /** Starts recording; at the limit it stops by itself and hands the result to `onLimit`. */
  start(onLimit?: (result: Promise<CaptureResult>) => void): void {
    if (this.recorder || this.closed) return;
    const mimeType = PREFERRED[this.kind].find((t) => this.deps.isTypeSupported(t));
    const recorder = this.deps.createRecorder(this.stream, mimeType);
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) this.chunks.push(e.data);
    };
    this.recorder = recorder;
    this.startedAt = this.deps.now();
    // Chunks every second, so that what was recorded survives a recorder that fails to stop cleanly.
    recorder.start(1000);
    this.limitTimer = this.deps.setTimeout(() => {
      const result = this.stop();
      onLimit?.(result);
    }, this.maxMs);
  }

  /** Stops recording and releases the devices; answers the recording and its verdict. */
  stop(): Promise<CaptureResult> {
    if (this.finished) return this.finished;
    const recorder = this.recorder;
    if (!recorder) return Promise.reject(new Error('not recording'));
    this.deps.clearTimeout(this.limitTimer);
    this.stoppedAt = this.deps.now();
    this.finished = new Promise<CaptureResult>((resolve) => {
      const done = () => {
        const mimeType = (recorder.mimeType || PREFERRED[this.kind][0]!).split(';')[0]!;
        const durationMs = this.stoppedAt - this.startedAt;
        this.close();
        resolve({
          blob: new Blob(this.chunks, { type: mimeType }),
          durationMs,
          mimeType,
          fileName: `${this.kind}-${Date.now()}.${extensionFor(this.kind, mimeType)}`,
          verdict: judgeRecording(durationMs, CAPTURE_MAX_S[this.kind]),
        });
      };
      if (recorder.state === 'inactive') {
        done();
      } else {
        recorder.onstop = done;
        recorder.stop();
      }
    });
    return this.finished;
  }

  /** Throws the recording away (slide to cancel, closing the camera). */
  cancel(): void {
    this.deps.clearTimeout(this.limitTimer);
    const recorder = this.recorder;
    if (recorder && recorder.state !== 'inactive' && !this.finished) {
      recorder.onstop = null;
      recorder.ondataavailable = null;
      recorder.stop();
    }
    this.finished ??= Promise.reject(new Error('cancelled'));
    this.finished.catch(() => {});
    this.chunks = [];
    this.close();
  }

  /** Releases the microphone and camera. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const track of this.stream.getTracks()) track.stop();
  }
}
