import type { MessageOf } from '@sparrow/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths, withQuery } from '../../nav/paths';
import './record.css';

/**
 * A merged forward's card (合并转发): its title, its first lines and 聊天记录 at its foot; a tap
 * opens the record. Inside a record, `via` is the message the record page was opened from, through
 * which a record held in it is read.
 */
export function RecordCard({ message, via }: { message: MessageOf<'record'>; via?: number }) {
  const { t } = useTranslation();
  const { title, lines, record_id } = message.extends;
  const to =
    via === undefined
      ? withQuery(paths.forwarded, { msg_id: message.msg_id })
      : withQuery(paths.forwarded, { msg_id: via, record_id });
  return (
    <Link className="record-card" to={to} aria-label={t('multiSelect.recordOpen', { title })}>
      <span className="record-card-title">{title}</span>
      {lines.length > 0 && (
        <span className="record-card-lines">
          {lines.map((line, i) => (
            <span key={i} className="record-card-line">
              {line}
            </span>
          ))}
        </span>
      )}
      <span className="record-card-foot">{t('multiSelect.recordLabel')}</span>
    </Link>
  );
}
