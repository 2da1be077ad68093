import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './lists.css';

export interface MenuAction {
  key: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  onSelect: () => void;
}

interface Props {
  /** Where the press happened, in viewport pixels. */
  anchor: { x: number; y: number };
  actions: readonly MenuAction[];
  /** The menu's accessible name. */
  label: string;
  onClose: () => void;
  /** `bar`: a row of icons over the press point; `list`: a dropdown under it, right-aligned. */
  layout?: 'bar' | 'list';
  /** A row above the actions (a message's quick reactions): a `group` of `menuitem`s, reached by the arrow keys too. */
  header?: ReactNode;
}

const MARGIN = 8;

/**
 * The dark bubble menu a long press opens (WeChat's message menu): above the press point, or
 * below it near the top of the screen; arrow keys move between items, Escape closes it.
 */
export function ActionMenu({ anchor, actions, label, onClose, layout = 'bar', header }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number; below: boolean } | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    const below = layout === 'list' || anchor.y - height - MARGIN * 2 < 56;
    const centred = layout === 'list' ? anchor.x - width + 24 : anchor.x - width / 2;
    const left = Math.min(Math.max(MARGIN, centred), window.innerWidth - width - MARGIN);
    const top = below ? anchor.y + MARGIN * 2 : anchor.y - height - MARGIN * 2;
    setPos({ left, top, below });
  }, [anchor.x, anchor.y, layout]);

  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
  }, []);

  const handleKey = (e: KeyboardEvent) => {
    const items = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      onClose();
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    }
  };

  return (
    <>
      <div className="menu-backdrop" onPointerDown={onClose} aria-hidden="true" />
      <div
        ref={ref}
        className={`action-menu action-menu-${layout}${pos?.below ? ' action-menu-below' : ''}`}
        role="menu"
        aria-label={label}
        aria-orientation={layout === 'bar' ? 'horizontal' : 'vertical'}
        style={pos ? { left: pos.left, top: pos.top } : { visibility: 'hidden', left: 0, top: 0 }}
        onKeyDown={handleKey}
      >
        {header}
        {actions.map((a) => (
          <button
            key={a.key}
            type="button"
            role="menuitem"
            className={`action-menu-item${a.danger ? ' action-menu-danger' : ''}`}
            onClick={() => {
              onClose();
              a.onSelect();
            }}
          >
            {a.icon && (
              <span className="action-menu-icon" aria-hidden="true">
                {a.icon}
              </span>
            )}
            <span>{a.label}</span>
          </button>
        ))}
      </div>
    </>
  );
}
