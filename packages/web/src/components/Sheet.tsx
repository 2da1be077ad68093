import { CloseOutline } from 'antd-mobile-icons';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './lists.css';

interface Props {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/** A panel sliding up from the bottom over a dimmed page: a modal dialog, Escape closes it. */
export function Sheet({ title, onClose, children }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    return () => previous?.focus?.();
  }, []);
  return (
    <div className="sheet-layer">
      <div className="sheet-backdrop" onClick={onClose} aria-hidden="true" />
      <div
        ref={ref}
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <header className="sheet-header">
          <h2 className="sheet-title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="sheet-close" aria-label={t('common.close')} onClick={onClose}>
            <CloseOutline aria-hidden="true" />
          </button>
        </header>
        <div className="sheet-body">{children}</div>
      </div>
    </div>
  );
}
