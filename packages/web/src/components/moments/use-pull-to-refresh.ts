import { useEffect, useRef, useState } from 'react';

/** How far (px, after damping) the list must be pulled for a release to refresh. */
export const PULL_THRESHOLD = 64;
/** The indicator stops growing here. */
const PULL_MAX = 96;
/** The finger moves this much further than the list follows, as native lists resist a pull. */
const DAMPING = 0.5;

export type PullPhase = 'idle' | 'pulling' | 'armed' | 'refreshing';

/**
 * Pull to refresh on a scrolling element: a touch that starts with the element scrolled to its top
 * and moves down drags an indicator open; letting go past the threshold runs `refresh`. Touch events
 * rather than pointer events, because the browser takes a pointer over for its own panning
 * (pointercancel) while a non-passive touchmove may keep it.
 */
export function usePullToRefresh(scroller: HTMLElement | null, refresh: () => Promise<unknown>) {
  const [pull, setPull] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const run = useRef(refresh);
  run.current = refresh;
  const busy = useRef(false);

  useEffect(() => {
    if (!scroller) return;
    let startY: number | null = null;
    let distance = 0;
    const onStart = (e: TouchEvent) => {
      startY = !busy.current && e.touches.length === 1 && scroller.scrollTop <= 0 ? e.touches[0]!.clientY : null;
      distance = 0;
    };
    const onMove = (e: TouchEvent) => {
      if (startY === null) return;
      const dy = e.touches[0]!.clientY - startY;
      if (scroller.scrollTop > 0) {
        // The list scrolled after all (an upward drag first): it scrolls as usual.
        startY = null;
        if (distance > 0) setPull(0);
        distance = 0;
        return;
      }
      if (dy <= 0) {
        if (distance > 0) setPull(0);
        distance = 0;
        return;
      }
      if (e.cancelable) e.preventDefault();
      distance = Math.min(PULL_MAX, dy * DAMPING);
      setPull(distance);
    };
    const onEnd = () => {
      if (startY === null) return;
      startY = null;
      const armed = distance >= PULL_THRESHOLD;
      distance = 0;
      setPull(0);
      if (!armed || busy.current) return;
      busy.current = true;
      setRefreshing(true);
      void run
        .current()
        .catch(() => undefined)
        .finally(() => {
          busy.current = false;
          setRefreshing(false);
        });
    };
    scroller.addEventListener('touchstart', onStart, { passive: true });
    scroller.addEventListener('touchmove', onMove, { passive: false });
    scroller.addEventListener('touchend', onEnd);
    scroller.addEventListener('touchcancel', onEnd);
    return () => {
      scroller.removeEventListener('touchstart', onStart);
      scroller.removeEventListener('touchmove', onMove);
      scroller.removeEventListener('touchend', onEnd);
      scroller.removeEventListener('touchcancel', onEnd);
    };
  }, [scroller]);

  /** The same refresh for a button or key, so the gesture is never the only way. */
  const trigger = async () => {
    if (busy.current) return;
    busy.current = true;
    setRefreshing(true);
    try {
      await run.current();
    } finally {
      busy.current = false;
      setRefreshing(false);
    }
  };

  const phase: PullPhase = refreshing ? 'refreshing' : pull >= PULL_THRESHOLD ? 'armed' : pull > 0 ? 'pulling' : 'idle';
  return { pull, phase, trigger };
}
