import { CloseOutline, SoundOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { groupPath } from '../../nav/paths';
import { useGroup } from '../../stores/group';
import { useSession } from '../../stores/session';
import { noticePlainText } from './notice';
import { isNoticeSeen, markNoticeSeen } from './notice-seen';
import './group.css';

/**
 * The group announcement at the top of the chat, once per change: it stays until dismissed,
 * and comes back when the announcement changes (a `setNotice` push updates it live).
 */
export function GroupAnnouncementBanner({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const entry = useGroup(groupId);
  const userId = useSession((s) => s.user?.user_id ?? 0);
  const notice = entry?.status === 'ready' ? (entry.info?.notice ?? '') : '';
  const text = useMemo(() => noticePlainText(notice), [notice]);
  const [dismissed, setDismissed] = useState<string | null>(null);

  if (!text || dismissed === notice || isNoticeSeen(userId, groupId, notice)) return null;

  const handleDismiss = () => {
    markNoticeSeen(userId, groupId, notice);
    setDismissed(notice);
  };

  return (
    <section className="gm-notice-banner" aria-label={t('group.notice.title')}>
      <SoundOutline className="gm-notice-banner-icon" aria-hidden="true" />
      <Link
        className="gm-notice-banner-body"
        to={groupPath('info', groupId, { view: 'notice' })}
        onClick={() => markNoticeSeen(userId, groupId, notice)}
      >
        <span className="gm-notice-banner-title">{t('group.notice.title')}</span>
        <span className="gm-notice-banner-text">{text}</span>
      </Link>
      <button
        type="button"
        className="gm-notice-banner-close"
        aria-label={t('group.notice.dismiss')}
        onClick={handleDismiss}
      >
        <CloseOutline aria-hidden="true" />
      </button>
    </section>
  );
}
