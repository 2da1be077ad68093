import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Where the camera is: asked for, showing, or why not. */
export type CameraState = 'starting' | 'live' | 'denied' | 'missing' | 'unsupported' | 'failed';

/** Torch capability and state of the camera's track (Chrome on Android). */
export interface Torch {
  supported: boolean;
  on: boolean;
}

function stopAll(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

function stateOf(error: unknown): CameraState {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  return 'failed';
}

/**
 * The back camera shown in `video` while `enabled`; stopped when disabled or unmounted. Browsers
 * offer cameras only to secure pages (https, localhost): elsewhere the state is 'unsupported'.
 */
export function useCamera(video: RefObject<HTMLVideoElement | null>, enabled: boolean) {
  const [state, setState] = useState<CameraState>('starting');
  const [torch, setTorch] = useState<Torch>({ supported: false, on: false });
  const track = useRef<MediaStreamTrack | null>(null);

  useEffect(() => {
    if (!enabled) return;
    if (!navigator.mediaDevices?.getUserMedia) {
      setState('unsupported');
      return;
    }
    let live = true;
    let stream: MediaStream | null = null;
    setState('starting');
    navigator.mediaDevices
      .getUserMedia({
        audio: false,
        video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
      })
      .then(
        async (s) => {
          if (!live) {
            stopAll(s);
            return;
          }
          stream = s;
          const t = s.getVideoTracks()[0] ?? null;
          track.current = t;
          const caps = (t?.getCapabilities?.() ?? {}) as { torch?: boolean };
          setTorch({ supported: caps.torch === true, on: false });
          const el = video.current;
          if (el) {
            el.srcObject = s;
            await el.play().catch(() => {
              // Autoplay of a muted stream is allowed; a refusal leaves the first frame, still read.
            });
          }
          if (live) setState('live');
        },
        (error: unknown) => {
          if (live) setState(stateOf(error));
        },
      );
    const el = video.current;
    return () => {
      live = false;
      track.current = null;
      if (stream) stopAll(stream);
      if (el) el.srcObject = null;
    };
  }, [enabled, video]);

  const toggleTorch = useCallback(async () => {
    const t = track.current;
    if (!t) return;
    const on = !torch.on;
    try {
      await t.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] });
      setTorch({ supported: true, on });
    } catch {
      setTorch({ supported: false, on: false });
    }
  }, [torch.on]);

  return { state, torch, toggleTorch };
}
