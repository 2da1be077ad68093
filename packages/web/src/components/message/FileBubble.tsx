import type { MessageOf } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '../../lib/file-size';
import { extensionOf } from '../../lib/media-rules';
import { FileIcon } from './FileIcon';
import './media.css';

/** A file message: its name, size and kind; a tap downloads it under its name. */
export function FileBubble({ message }: { message: MessageOf<'file'> }) {
  const { t } = useTranslation();
  const name = message.fileName || message.extends.name || t('media.file.unnamed');
  const size = message.fileSize ?? message.extends.size;
  const ext = message.extends.ext || extensionOf(name);
  const href = message.download || message.content;
  return (
    <a
      className="file-card"
      href={href}
      download={name}
      aria-label={t('media.file.download', { name, size: formatFileSize(size) })}
    >
      <span className="file-card-text">
        <span className="file-card-name">{name}</span>
        <span className="file-card-size">{formatFileSize(size)}</span>
      </span>
      <FileIcon ext={ext} />
    </a>
  );
}
