import { useEffect, useRef } from 'react';

type SinkElement = HTMLMediaElement & { setSinkId?: (id: string) => Promise<void> };

interface Props {
  kind: 'video' | 'audio';
  stream: MediaStream | null;
  label: string;
  /** My own picture: no sound (no echo), shown as in a mirror. */
  muted?: boolean;
  mirrored?: boolean;
  /** The sound output to play through (speaker or earpiece); null keeps the default. */
  sinkId?: string | null;
  className?: string;
}

/** A stream in a <video> or <audio> element, played as soon as it has tracks. */
export function MediaView({ kind, stream, label, muted = false, mirrored = false, sinkId = null, className }: Props) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || el.srcObject === stream) return;
    el.srcObject = stream;
    if (stream)
      el.play().catch(() => {
        // Played on the next tap: browsers may hold media back until the page has been used.
      });
  }, [stream]);

  useEffect(() => {
    const el = ref.current as SinkElement | null;
    if (!el || sinkId === null || typeof el.setSinkId !== 'function') return;
    el.setSinkId(sinkId).catch(() => {
      // The output went away (a headset unplugged): the default plays on.
    });
  }, [sinkId]);

  const cls = `call-media${mirrored ? ' call-media-mirrored' : ''}${className ? ` ${className}` : ''}`;
  if (kind === 'audio') return <audio ref={ref} className={cls} autoPlay aria-label={label} />;
  return <video ref={ref} className={cls} autoPlay playsInline muted={muted} aria-label={label} />;
}
