import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { receipts, receiptShown, useReceipts } from '../../stores/read-receipts';
import './receipts.css';

interface Props {
  /** The group, `group-<n>`. */
  gid: string;
  msgId: number;
  onOpen(msgId: number): void;
}

/** Beside a message of mine in a group: "N人未读" or 全部已读, which opens who read it; nothing while it reached no one. */
export function ReadCount({ gid, msgId, onOpen }: Props) {
  const { t } = useTranslation();
  const count = useReceipts((s) => s.byGroup[gid]?.[msgId]);
  useEffect(() => receipts.want(gid, msgId), [gid, msgId]);
  const shown = receiptShown(count);
  if (!count || shown === 'nothing') return null;
  const status = shown === 'allRead' ? t('receipts.allRead') : t('receipts.unread', { count: count.unread });
  return (
    <button
      type="button"
      className={`msg-receipt${shown === 'allRead' ? ' msg-receipt-done' : ''}`}
      aria-label={t('receipts.openList', { status })}
      onClick={() => onOpen(msgId)}
    >
      {status}
    </button>
  );
}
