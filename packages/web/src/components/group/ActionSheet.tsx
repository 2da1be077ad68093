import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import './group.css';

export interface SheetAction {
  key: string;
  text: string;
  /** Shown in red: removes or ends something. */
  danger?: boolean;
  onSelect: () => void;
}

interface Props {
  open: boolean;
  title: string;
  /** A line under the title, e.g. who the actions are about. */
  description?: string;
  actions: SheetAction[];
  onClose: () => void;
}

/**
 * A WeChat-style action sheet on a native modal dialog: focus stays inside, Escape and the
 * backdrop close it, screen readers hear its title.
 */
export function ActionSheet({ open, title, description, actions, onClose }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="gm-sheet"
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onClose={onClose}
      onClick={(e) => {
        // A click on the dialog itself, outside its panel, is a click on the backdrop.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="gm-sheet-panel">
        <div className="gm-sheet-head">
          <h2 className="gm-sheet-title" id={titleId}>
            {title}
          </h2>
          {description && (
            <p className="gm-sheet-desc" id={descId}>
              {description}
            </p>
          )}
        </div>
        <ul className="gm-sheet-actions">
          {actions.map((a) => (
            <li key={a.key}>
              <button
                type="button"
                className={`gm-sheet-action${a.danger ? ' gm-sheet-action-danger' : ''}`}
                onClick={() => {
                  onClose();
                  a.onSelect();
                }}
              >
                {a.text}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="gm-sheet-action gm-sheet-cancel" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </dialog>
  );
}
