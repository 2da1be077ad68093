import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { clampListWidth, LIST_WIDTH, listWidthAfterKey } from '../../lib/desk-panes';

interface Props {
  width: number;
  /** The widest the window leaves the list now. */
  max: number;
  /** The id of the pane it resizes. */
  controls: string;
  /** While dragging or on a key: the new width, clamped. */
  onChange: (width: number) => void;
  /** Once the drag ends or the key is let go: the width to keep. */
  onCommit: (width: number) => void;
}

/**
 * The edge between the list and the middle pane: dragged with a pointer, or focused and moved by the
 * arrow keys (Home and End to either bound), as a WAI-ARIA window splitter. The width is kept once
 * the pointer or the key is released, not on every step of the way.
 */
export function Splitter({ width, max, controls, onChange, onCommit }: Props) {
  const { t } = useTranslation();
  const drag = useRef<{ x: number; width: number; last: number } | null>(null);
  const keyed = useRef(false);

  const handlePointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, width, last: width };
  };
  const handlePointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    d.last = clampListWidth(d.width + e.clientX - d.x, max);
    onChange(d.last);
  };
  const handlePointerEnd = () => {
    const d = drag.current;
    drag.current = null;
    if (d && d.last !== d.width) onCommit(d.last);
  };
  const handleKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = listWidthAfterKey(width, e.key, max);
    if (next === null) return;
    e.preventDefault();
    keyed.current = true;
    onChange(next);
  };
  const handleKeyEnd = () => {
    if (!keyed.current) return;
    keyed.current = false;
    onCommit(width);
  };

  return (
    <div
      className="desk-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('desk.panes.listWidth')}
      aria-controls={controls}
      aria-valuenow={width}
      aria-valuemin={LIST_WIDTH.min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={handlePointerEnd}
      onPointerCancel={handlePointerEnd}
      onKeyDown={handleKeyDown}
      onKeyUp={handleKeyEnd}
      onBlur={handleKeyEnd}
    />
  );
}
