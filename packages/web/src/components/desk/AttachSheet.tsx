import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { attachKind } from '../../lib/dropped-files';
import { formatFileSize } from '../../lib/file-size';
import { extensionOf } from '../../lib/media-rules';
import { FileIcon } from '../message/FileIcon';
import { Sheet } from '../Sheet';
import './desk.css';

interface Props {
  /** Whom they go to, for the title. */
  to: string;
  files: readonly File[];
  onSend: () => void;
  onCancel: () => void;
}

/** Files pasted or dropped into a chat, shown before they are sent: pictures as thumbnails, others by name and size. */
export function AttachSheet({ to, files, onSend, onCancel }: Props) {
  const { t } = useTranslation();
  const thumbs = useMemo(() => files.map((f) => (attachKind(f) === 'image' ? URL.createObjectURL(f) : null)), [files]);
  useEffect(() => () => thumbs.forEach((url) => url && URL.revokeObjectURL(url)), [thumbs]);
  return (
    <Sheet title={t('desk.attachTitle', { name: to })} onClose={onCancel}>
      <ul className="attach-list" aria-label={t('desk.attachList', { count: files.length })}>
        {files.map((file, i) => (
          <li key={i} className="attach-item">
            {thumbs[i] ? (
              <img className="attach-thumb" src={thumbs[i]} alt={file.name} />
            ) : (
              <FileIcon ext={extensionOf(file.name)} size={48} />
            )}
            <span className="attach-text">
              <span className="attach-name">{file.name}</span>
              <span className="attach-size">{formatFileSize(file.size)}</span>
            </span>
          </li>
        ))}
      </ul>
      <div className="attach-actions">
        <button type="button" className="button button-default" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-primary" onClick={onSend}>
          {files.length > 1 ? t('desk.sendCount', { count: files.length }) : t('chat.send')}
        </button>
      </div>
    </Sheet>
  );
}
