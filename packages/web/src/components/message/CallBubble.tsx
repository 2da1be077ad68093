import type { MessageOf } from '@sparrow/protocol';
import { PhoneFill, VideoOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { startCall } from '../../call/start';
import { contactKey } from '../../lib/conversation-list';
import { contactsStore } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import './media.css';

/**
 * A call's summary (docs/protocol.md §5): a phone or camera by the kind of call, and the outcome in my
 * language as the server wrote it (通话时长 01:23, 已取消…). A tap calls the other person back,
 * the same kind of call.
 */
export function CallBubble({ message }: { message: MessageOf<'webrtc'> }) {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?.user_id);
  const video = message.extends.type === 1;
  const mine = message.fromUser.id === me;

  const handleCallBack = () => {
    const { fromUser, toContactId } = message;
    if (!mine) {
      if (typeof fromUser.id !== 'number') return;
      startCall(
        { id: fromUser.id, name: fromUser.displayName || fromUser.realname, avatar: fromUser.avatar },
        message.extends.type,
      );
      return;
    }
    if (typeof toContactId !== 'number') return;
    const row = contactsStore.getState().rows[contactKey(toContactId)];
    startCall({ id: toContactId, name: row?.displayName ?? '', avatar: row?.avatar ?? '' }, message.extends.type);
  };

  return (
    <button type="button" className={`msg-call${mine ? ' msg-call-mine' : ''}`} onClick={handleCallBack}>
      {video ? <VideoOutline aria-hidden="true" /> : <PhoneFill aria-hidden="true" />}
      <span>{message.content}</span>
      <span className="visually-hidden">{t('call.callBack')}</span>
    </button>
  );
}
