import type { ForwardRecord, ForwardRecordItem, Message, MessageOf } from '@sparrow/protocol';
import { UnorderedListOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { api } from '../../api';
import { Avatar } from '../../components/Avatar';
import { MessageContent } from '../../components/chat/MessageContent';
import { RecordCard } from '../../components/chat/RecordCard';
import { EmptyState } from '../../components/EmptyState';
import { MediaGalleryProvider } from '../../components/message/gallery';
import { Page } from '../../components/Page';
import { formatClock, formatDate } from '../../lib/relative-time';
import { useNow } from '../../lib/use-now';
import { paths } from '../../nav/paths';
import { useRemark } from '../../stores/remarks';
import '../../components/chat/chat.css';
import '../../components/chat/record.css';
import '../../components/message/media.css';
import '../pages.css';

/** An item of a record as the chat's bubbles draw a message: its own id, for the picture viewer. */
function asMessage(item: ForwardRecordItem, recordId: number, index: number): Message {
  return {
    id: `record-${recordId}-${index}`,
    msg_id: item.msg_id,
    type: item.type,
    content: item.content,
    extends: item.extends,
    sendTime: item.sendTime,
    toContactId: 0,
    is_group: 0,
    status: 'succeed',
    is_read: 0,
    at: [],
    pid: 0,
    fromUser: item.fromUser,
    ...(item.fileName !== undefined && { fileName: item.fileName }),
    ...(item.fileSize !== undefined && { fileSize: item.fileSize }),
    ...(item.download !== undefined && { download: item.download }),
    ...(item.preview !== undefined && { preview: item.preview }),
  } as Message;
}

/**
 * A merged forward's messages (合并转发, `/pages/message/forwarded?msg_id=&record_id=`), read-only:
 * each with its sender, time and content drawn by the chat's bubbles (pictures open full size,
 * videos and voice play, files download); a record inside opens on this page through the message.
 */
export default function ForwardedPage() {
  const [params] = useSearchParams();
  const msgId = Number(params.get('msg_id')) || 0;
  const recordId = Number(params.get('record_id')) || undefined;
  if (!msgId) return <Navigate to={paths.home} replace />;
  return <Forwarded key={`${msgId}:${recordId ?? ''}`} msgId={msgId} recordId={recordId} />;
}

function Forwarded({ msgId, recordId }: { msgId: number; recordId: number | undefined }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const [record, setRecord] = useState<ForwardRecord | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    api.forwardRecord({ msg_id: msgId, ...(recordId && { record_id: recordId }) }, { quiet: true }).then(
      (r) => live && setRecord(r),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [msgId, recordId]);

  const rows = useMemo(
    () => (record ? record.items.map((item, i) => ({ item, message: asMessage(item, record.record_id, i) })) : []),
    [record],
  );

  const title = record?.title ?? t('multiSelect.recordLabel');
  return (
    <Page title={title} className="forwarded-page">
      {failed ? (
        <EmptyState
          icon={<UnorderedListOutline />}
          title={t('multiSelect.recordLoadFailed')}
          description={t('multiSelect.recordLabel')}
        />
      ) : !record ? (
        <div className="chat-status" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="visually-hidden">{t('common.loading')}</span>
        </div>
      ) : (
        <MediaGalleryProvider rows={rows}>
          {rows.length > 0 && (
            <p className="forwarded-day">
              {formatDate(rows[0]!.item.sendTime, i18n.language, now)}
              {rows.length > 1 && rows.at(-1)!.item.sendTime - rows[0]!.item.sendTime > 86_400_000
                ? ` – ${formatDate(rows.at(-1)!.item.sendTime, i18n.language, now)}`
                : ''}
            </p>
          )}
          <ul className="forwarded-list" aria-label={t('multiSelect.recordItems')}>
            {rows.map(({ item, message }) => (
              <RecordItem key={message.id} item={item} message={message} via={msgId} now={now} />
            ))}
          </ul>
        </MediaGalleryProvider>
      )}
    </Page>
  );
}

function RecordItem({
  item,
  message,
  via,
  now,
}: {
  item: ForwardRecordItem;
  message: Message;
  via: number;
  now: number;
}) {
  const { t, i18n } = useTranslation();
  const remark = useRemark(item.fromUser.id);
  const name = item.mine ? t('multiSelect.you') : remark || item.fromUser.displayName || item.fromUser.realname;
  const sameDay = new Date(item.sendTime).toDateString() === new Date(now).toDateString();
  const when = sameDay
    ? formatClock(item.sendTime, i18n.language)
    : `${formatDate(item.sendTime, i18n.language, now)} ${formatClock(item.sendTime, i18n.language)}`;
  return (
    <li className="forwarded-item">
      <Avatar src={item.fromUser.avatar} name={item.fromUser.realname || name} alt="" size={36} />
      <div className="forwarded-body">
        <p className="forwarded-head">
          <span className="forwarded-name">{name}</span>
          <time className="forwarded-time" dateTime={new Date(item.sendTime).toISOString()}>
            {when}
          </time>
        </p>
        <div className={`forwarded-content bubble-${item.type}`}>
          {message.type === 'record' ? (
            <RecordCard message={message as MessageOf<'record'>} via={via} />
          ) : (
            <MessageContent message={message} />
          )}
        </div>
      </div>
    </li>
  );
}
