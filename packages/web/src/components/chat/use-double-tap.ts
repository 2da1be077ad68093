import { useEffect, useMemo, useRef, type MouseEvent } from 'react';

/** How soon a second tap must follow the first to make a double tap (拍一拍 on an avatar), ms. */
export const DOUBLE_TAP_MS = 300;

/**
 * Tells a tap from a double tap: a double tap acts at once and its taps not at all; a single tap
 * acts once the window has passed without a second.
 */
export class DoubleTap {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly on: { tap(): void; doubleTap(): void }) {}

  tap(): void {
    if (this.timer) {
      this.cancel();
      this.on.doubleTap();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.on.tap();
    }, DOUBLE_TAP_MS);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A click handler telling a tap from a double tap (touch taps and mouse clicks alike, see
 * DoubleTap). Without `onDoubleTap` clicks are left alone.
 */
export function useDoubleTap(onTap: (() => void) | undefined, onDoubleTap: (() => void) | undefined) {
  const handlers = useRef({ onTap, onDoubleTap });
  useEffect(() => {
    handlers.current = { onTap, onDoubleTap };
  });
  const detector = useMemo(
    () =>
      new DoubleTap({
        tap: () => handlers.current.onTap?.(),
        doubleTap: () => handlers.current.onDoubleTap?.(),
      }),
    [],
  );
  useEffect(() => () => detector.cancel(), [detector]);
  return (e: MouseEvent) => {
    if (!handlers.current.onDoubleTap) return;
    e.preventDefault();
    detector.tap();
  };
}
