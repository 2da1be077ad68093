import { useEffect, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import './lists.css';

export interface SwipeAction {
  key: string;
  label: string;
  /** Background colour class: grey, orange or red, as WeChat's row actions. */
  tone: 'grey' | 'orange' | 'red' | 'blue';
  onSelect: () => void;
}

interface Props {
  actions: readonly SwipeAction[];
  children: ReactNode;
}

const ACTION_WIDTH = 76;
/** Movement before the gesture is judged a swipe or a scroll. */
const DECIDE_PX = 8;

/**
 * A list row that slides left to show its actions (swipe to pin / mute / delete). Vertical
 * movement stays a scroll (touch-action: pan-y); a tap elsewhere closes an open row. The actions
 * are out of the tab order while hidden; the row's menu offers them to keyboard users.
 */
export function SwipeRow({ actions, children }: Props) {
  const width = actions.length * ACTION_WIDTH;
  const [open, setOpen] = useState(false);
  const [dragX, setDragX] = useState<number | null>(null);
  const drag = useRef<{ x: number; y: number; base: number; mode: 'h' | 'v' | null; id: number; at: number } | null>(
    null,
  );
  const moved = useRef(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const base = open ? -width : 0;
    drag.current = { x: e.clientX, y: e.clientY, base, mode: null, id: e.pointerId, at: base };
    moved.current = false;
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (d.mode === null) {
      if (Math.abs(dx) > DECIDE_PX && Math.abs(dx) > Math.abs(dy)) {
        d.mode = 'h';
        (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      } else if (Math.abs(dy) > DECIDE_PX) {
        d.mode = 'v';
      }
    }
    if (d.mode === 'h') {
      moved.current = true;
      d.at = Math.min(0, Math.max(-width, d.base + dx));
      setDragX(d.at);
    }
  };
  const onPointerUp = () => {
    // The position lives in the ref: the last move may not have rendered yet.
    const d = drag.current;
    drag.current = null;
    if (d?.mode === 'h') setOpen(d.at < -width / 2);
    setDragX(null);
  };

  const x = dragX ?? (open ? -width : 0);
  return (
    <div className="swipe-row" ref={root}>
      <div className="swipe-actions" style={{ width }} aria-hidden={!open}>
        {actions.map((a) => (
          <button
            key={a.key}
            type="button"
            tabIndex={open ? 0 : -1}
            className={`swipe-action swipe-${a.tone}`}
            onClick={() => {
              setOpen(false);
              a.onSelect();
            }}
          >
            {a.label}
          </button>
        ))}
      </div>
      <div
        className="swipe-content"
        style={{ transform: `translateX(${x}px)`, transition: dragX === null ? undefined : 'none' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onClickCapture={(e) => {
          // The click that ends a swipe does nothing; a tap on an open row only closes it.
          if (moved.current) {
            e.preventDefault();
            e.stopPropagation();
            moved.current = false;
          } else if (open) {
            e.preventDefault();
            e.stopPropagation();
            setOpen(false);
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
