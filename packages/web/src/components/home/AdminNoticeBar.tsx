import { CloseOutline, SoundOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contacts, useContacts } from '../../stores/contacts';
import { Sheet } from '../Sheet';

/** The newest system announcement above the conversation list, until closed. */
export function AdminNoticeBar() {
  const { t } = useTranslation();
  const notice = useContacts((s) => s.notice);
  const dismissed = useContacts((s) => s.dismissedNotice);
  const [reading, setReading] = useState(false);
  if (!notice || notice.id === dismissed) return null;
  return (
    <>
      <div className="notice-bar" role="region" aria-label={t('home.announcement')}>
        <SoundOutline className="notice-bar-icon" aria-hidden="true" />
        <button type="button" className="notice-bar-text" onClick={() => setReading(true)}>
          {notice.title}
        </button>
        <button
          type="button"
          className="notice-bar-close"
          aria-label={t('home.closeAnnouncement')}
          onClick={() => contacts.dismissNotice()}
        >
          <CloseOutline aria-hidden="true" />
        </button>
      </div>
      {reading && (
        <Sheet title={notice.title} onClose={() => setReading(false)}>
          <p className="notice-sheet-text">{notice.notice}</p>
          <div className="actions">
            <button
              type="button"
              className="button button-default"
              onClick={() => {
                setReading(false);
                contacts.dismissNotice();
              }}
            >
              {t('home.noticeRead')}
            </button>
          </div>
        </Sheet>
      )}
    </>
  );
}
