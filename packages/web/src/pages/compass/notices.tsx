import { MessageOutline } from 'antd-mobile-icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api';
import { postPath } from '../../app/moment-paths';
import { Avatar } from '../../components/Avatar';
import { EmptyState } from '../../components/EmptyState';
import '../../components/moments/moments.css';
import { Page } from '../../components/Page';
import { formatRelative } from '../../lib/relative-time';
import { useLoaded } from '../../lib/use-loaded';
import { useNow } from '../../lib/use-now';
import { moments } from '../../stores/moments';

const readNotices = () => api.momentsNotices({}, { silent: true });

/**
 * 消息 (`/pages/compass/notices`): likes and comments on my posts and replies to my comments,
 * newest first; each opens its post. Once they are shown, they are read.
 */
export default function NoticesPage() {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const { data: notices, status, reload } = useLoaded(readNotices);

  useEffect(() => {
    if (status === 'ready') void moments.readNotices().catch(() => undefined);
  }, [status]);

  const title = t('moments.notices');
  if (status === 'error' && !notices)
    return (
      <Page title={title}>
        <EmptyState icon={<MessageOutline />} title={t('moments.noticesFailed')} description={t('moments.failedHint')}>
          <button type="button" className="button button-primary" onClick={() => void reload()}>
            {t('common.retry')}
          </button>
        </EmptyState>
      </Page>
    );
  if (!notices)
    return (
      <Page title={title}>
        <p className="moment-end" role="status">
          {t('common.loading')}
        </p>
      </Page>
    );
  return (
    <Page title={title}>
      {notices.length === 0 ? (
        <EmptyState icon={<MessageOutline />} title={t('moments.noNotices')} description={t('moments.noNoticesHint')} />
      ) : (
        <ul className="moment-notice-list">
          {notices.map((n) => (
            <li key={n.id}>
              <Link to={postPath(n.post_id)} className="moment-notice">
                <Avatar src={n.user.avatar} name={n.user.displayName} alt="" size={40} />
                <span className="moment-notice-main">
                  <span className="moment-name">{n.user.displayName}</span>
                  <span className="moment-notice-what">{n.type === 'like' ? t('moments.likedYou') : n.content}</span>
                  <time dateTime={new Date(n.create_time).toISOString()}>
                    {formatRelative(n.create_time, now, t, i18n.language)}
                  </time>
                </span>
                {n.post_image ? (
                  <img className="moment-notice-thumb" src={n.post_image} alt="" />
                ) : (
                  <span className="moment-notice-text">{n.post_text}</span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
