import { useRef, useState, type PointerEvent } from 'react';
import { MediaView } from './MediaView';

const MARGIN = 12;

/**
 * My own picture, small in a corner; a finger (or the mouse) moves it anywhere on the screen,
 * and it stays whole on screen.
 */
export function DraggableVideo({
  stream,
  label,
  hidden,
}: {
  stream: MediaStream | null;
  label: string;
  hidden: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const [pos, setPos] = useState<{ x: number; y: number } | null>(null);

  const clamp = (x: number, y: number) => {
    const el = box.current;
    const parent = el?.offsetParent as HTMLElement | null;
    if (!el || !parent) return { x, y };
    const maxX = parent.clientWidth - el.offsetWidth - MARGIN;
    const maxY = parent.clientHeight - el.offsetHeight - MARGIN;
    return { x: Math.min(Math.max(MARGIN, x), maxX), y: Math.min(Math.max(MARGIN, y), maxY) };
  };

  const handleDown = (e: PointerEvent<HTMLDivElement>) => {
    const el = box.current;
    if (!el) return;
    el.setPointerCapture(e.pointerId);
    drag.current = { dx: e.clientX - el.offsetLeft, dy: e.clientY - el.offsetTop };
  };
  const handleMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setPos(clamp(e.clientX - drag.current.dx, e.clientY - drag.current.dy));
  };
  const handleUp = () => {
    drag.current = null;
  };

  return (
    <div
      ref={box}
      className="call-local"
      style={pos ? { left: pos.x, top: pos.y, right: 'auto' } : undefined}
      onPointerDown={handleDown}
      onPointerMove={handleMove}
      onPointerUp={handleUp}
      onPointerCancel={handleUp}
      hidden={hidden}
    >
      <MediaView kind="video" stream={stream} label={label} muted mirrored />
    </div>
  );
}
