import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatRow } from '../../chat/engine';

/** Whether a row may be chosen in multi-select: a stored message, not an event line or a call. */
export function isSelectable(row: ChatRow): boolean {
  const m = row.message;
  return row.state === 'sent' && m.msg_id > 0 && m.type !== 'event' && m.type !== 'webrtc';
}

/**
 * A row of the chat in multi-select (多选): a check box before it, and a tap anywhere on it turns
 * the box on or off instead of opening what the bubble holds. Event lines and calls take no box.
 */
export function SelectableRow({
  row,
  checked,
  onToggle,
  children,
}: {
  row: ChatRow;
  checked: boolean;
  onToggle(msgId: number): void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (!isSelectable(row)) return <>{children}</>;
  const id = row.message.msg_id;
  return (
    <div className="chat-item-selecting">
      <button
        type="button"
        role="checkbox"
        className="msg-pick"
        aria-checked={checked}
        aria-label={t('multiSelect.select')}
        onClick={() => onToggle(id)}
      >
        <span className="msg-pick-box" aria-hidden="true" />
      </button>
      <div
        className="msg-pick-content"
        onClickCapture={(e) => {
          e.preventDefault();
          e.stopPropagation();
          onToggle(id);
        }}
      >
        {children}
      </div>
    </div>
  );
}
