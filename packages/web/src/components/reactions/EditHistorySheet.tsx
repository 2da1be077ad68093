import type { MessageEdit } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { formatDate, formatClock } from '../../lib/relative-time';
import { LoadingRow } from '../LoadingRow';
import { Sheet } from '../Sheet';
import './reactions.css';

interface Props {
  msgId: number;
  /** The text as it is now. */
  current: string;
  now: number;
  onClose(): void;
}

/** 编辑记录: the earlier versions of an edited text, oldest first, then the text as it is now. */
export function EditHistorySheet({ msgId, current, now, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const [versions, setVersions] = useState<MessageEdit[] | null>(null);
  useEffect(() => {
    let live = true;
    api
      .messageEdits({ id: msgId }, { quiet: true })
      .then((list) => live && setVersions(list))
      .catch(() => live && setVersions([]));
    return () => {
      live = false;
    };
  }, [msgId]);
  const when = (ms: number) => `${formatDate(ms, i18n.language, now)} ${formatClock(ms, i18n.language)}`;
  return (
    <Sheet title={t('edit.history')} onClose={onClose}>
      {versions === null ? (
        <LoadingRow />
      ) : (
        <ol className="edit-history">
          {versions.length === 0 && <li>{t('edit.empty')}</li>}
          {versions.map((v) => (
            <li key={v.edited_at}>
              <span className="edit-history-time">{t('edit.at', { time: when(v.edited_at) })}</span>
              <p className="edit-history-text">{v.content}</p>
            </li>
          ))}
          <li>
            <span className="edit-history-time">{t('edit.current')}</span>
            <p className="edit-history-text">{current}</p>
          </li>
        </ol>
      )}
    </Sheet>
  );
}
