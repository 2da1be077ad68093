import { describe, expect, it, vi } from 'vitest';
import { MediaCapture, type CaptureDeps, type RecorderLike } from './media-recorder';

class FakeRecorder implements RecorderLike {
  state: RecorderLike['state'] = 'inactive';
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  constructor(readonly mimeType: string) {}
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['tail'], { type: this.mimeType }) });
    // Browsers fire stop asynchronously, after the last data.
    queueMicrotask(() => this.onstop?.());
  }
}

function fakes(supported: string[] = ['audio/webm;codecs=opus', 'video/webm;codecs=vp8,opus']) {
  let clock = 0;
  const timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 1;
  const tracks = [{ stop: vi.fn() }, { stop: vi.fn() }];
  const stream = { getTracks: () => tracks } as unknown as MediaStream;
  const recorders: FakeRecorder[] = [];
  const constraints: MediaStreamConstraints[] = [];
  const deps: CaptureDeps = {
    getUserMedia: async (c) => {
      constraints.push(c);
      return stream;
    },
    createRecorder: (_s, mime) => {
      const r = new FakeRecorder(mime ?? '');
      recorders.push(r);
      return r;
    },
    isTypeSupported: (t) => supported.includes(t),
    now: () => clock,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: clock + ms, fn, id });
      return id;
    },
    clearTimeout: (h) => {
      const i = timers.findIndex((t) => t.id === h);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  /** Moves the clock, firing the timers that come due. */
  const advance = (ms: number) => {
    clock += ms;
    for (const t of timers.filter((t) => t.at <= clock)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
  };
  return { deps, advance, tracks, recorders, constraints };
}

describe('MediaCapture', () => {
  it('records a voice clip: webm/opus, its duration, and releases the microphone', async () => {
    const f = fakes();
    const capture = await MediaCapture.open('voice', f.deps);
    expect(f.constraints[0]!.video).toBe(false);
    capture.start();
    f.recorders[0]!.ondataavailable?.({ data: new Blob(['head']) });
    f.advance(3000);
    expect(capture.elapsedMs).toBe(3000);
    const result = await capture.stop();
    expect(result.verdict).toBe('ok');
    expect(result.durationMs).toBe(3000);
    expect(result.mimeType).toBe('audio/webm');
    expect(result.fileName).toMatch(/^voice-\d+\.webm$/);
    expect(await result.blob.text()).toBe('headtail');
    expect(f.tracks.every((t) => t.stop.mock.calls.length === 1)).toBe(true);
  });

  it('says "too short" for a tap under a second', async () => {
    const f = fakes();
    const capture = await MediaCapture.open('voice', f.deps);
    capture.start();
    f.advance(400);
    expect((await capture.stop()).verdict).toBe('tooShort');
  });

  it('stops a video by itself at 60 s and hands over the result', async () => {
    const f = fakes();
    const capture = await MediaCapture.open('video', f.deps);
    const onLimit = vi.fn<(r: Promise<unknown>) => void>();
    capture.start(onLimit);
    f.advance(59_999);
    expect(onLimit).not.toHaveBeenCalled();
    expect(capture.recording).toBe(true);
    f.advance(1);
    expect(onLimit).toHaveBeenCalledTimes(1);
    const result = (await onLimit.mock.calls[0]![0]) as Awaited<ReturnType<MediaCapture['stop']>>;
    expect(result.durationMs).toBe(60_000);
    expect(result.verdict).toBe('ok');
    expect(result.fileName).toMatch(/^video-\d+\.webm$/);
    expect(capture.recording).toBe(false);
  });

  it('falls back to what the browser records (mp4 on Safari) and names the file after it', async () => {
    const f = fakes(['audio/mp4', 'video/mp4']);
    const voice = await MediaCapture.open('voice', f.deps);
    voice.start();
    f.advance(2000);
    expect((await voice.stop()).fileName).toMatch(/\.m4a$/);
    const video = await MediaCapture.open('video', f.deps);
    video.start();
    f.advance(2000);
    expect((await video.stop()).fileName).toMatch(/\.mp4$/);
  });

  it('cancel throws the recording away, stops the timer and releases the devices', async () => {
    const f = fakes();
    const capture = await MediaCapture.open('video', f.deps);
    const onLimit = vi.fn();
    capture.start(onLimit);
    f.advance(2000);
    capture.cancel();
    f.advance(60_000);
    expect(onLimit).not.toHaveBeenCalled();
    expect(f.tracks.every((t) => t.stop.mock.calls.length === 1)).toBe(true);
    await expect(capture.stop()).rejects.toThrow('cancelled');
  });
});
