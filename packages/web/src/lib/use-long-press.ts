import { useEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { LongPress } from './long-press';

/**
 * Pointer handlers for a long press (touch or mouse held), plus the keyboard and right-click
 * ways to the same menu: the ContextMenu key, Shift+F10 and a secondary click.
 */
export function useLongPress(onLongPress: (x: number, y: number) => void) {
  const callback = useRef(onLongPress);
  useEffect(() => {
    callback.current = onLongPress;
  });
  const detector = useMemo(() => new LongPress({ onLongPress: (x, y) => callback.current(x, y) }), []);
  const swallowClick = useRef(false);
  useEffect(() => () => detector.cancel(), [detector]);

  return {
    onPointerDown: (e: PointerEvent) => {
      if (e.button !== 0) return;
      swallowClick.current = false;
      detector.down(e.clientX, e.clientY);
    },
    onPointerMove: (e: PointerEvent) => detector.move(e.clientX, e.clientY),
    onPointerUp: () => {
      swallowClick.current = detector.up();
    },
    onPointerCancel: () => detector.cancel(),
    onPointerLeave: () => detector.cancel(),
    onClickCapture: (e: MouseEvent) => {
      if (swallowClick.current) {
        swallowClick.current = false;
        e.preventDefault();
        e.stopPropagation();
      }
    },
    onContextMenu: (e: MouseEvent) => {
      e.preventDefault();
      detector.cancel();
      callback.current(e.clientX, e.clientY);
    },
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
        e.preventDefault();
        const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
        callback.current(r.left + r.width / 2, r.top);
      }
    },
  };
}
