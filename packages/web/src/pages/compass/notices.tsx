import { MessageOutline } from 'antd-mobile-icons';
import { MOMENT_NOTICES_PAGE, type MomentNotice } from '@sparrow/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api';
import { postPath } from '../../nav/paths';
import { Avatar } from '../../components/Avatar';
import { EmptyState } from '../../components/EmptyState';
import { MomentsFailed, MomentsLoading } from '../../components/moments/LoadStates';
import '../../components/moments/moments.css';
import { Page } from '../../components/Page';
import { formatRelative } from '../../lib/relative-time';
import { useLoaded } from '../../lib/use-loaded';
import { useNow } from '../../lib/use-now';
import { moments } from '../../stores/moments';

const readNotices = () => api.momentsNotices({}, { silent: true });

/**
 * Older pages of notices, asked one at a time. A page shorter than MOMENT_NOTICES_PAGE is the last
 * (the server leaves out notices on posts I may no longer see, so one could end a little early).
 */
function useOlderNotices(first: MomentNotice[] | null) {
  const [older, setOlder] = useState<MomentNotice[]>([]);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  useEffect(() => {
    setOlder([]);
    setPage(1);
    setMore((first?.length ?? 0) >= MOMENT_NOTICES_PAGE);
  }, [first]);
  const loadMore = async () => {
    setState('loading');
    try {
      const next = await api.momentsNotices({ page: page + 1 }, { silent: true });
      setOlder((rows) => [...rows, ...next.filter((n) => !rows.some((r) => r.id === n.id))]);
      setPage(page + 1);
      setMore(next.length >= MOMENT_NOTICES_PAGE);
      setState('idle');
    } catch {
      setState('error');
    }
  };
  return { older, more, state, loadMore };
}

/**
 * 消息 (`/pages/compass/notices`): likes and comments on my posts and replies to my comments,
 * newest first; each opens its post. Once they are shown, they are read.
 */
export default function NoticesPage() {
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const { data: first, status, reload } = useLoaded(readNotices);
  const { older, more, state, loadMore } = useOlderNotices(first);
  const notices = first && [...first, ...older];

  useEffect(() => {
    if (status === 'ready') void moments.readNotices().catch(() => undefined);
  }, [status]);

  const title = t('moments.notices');
  if (status === 'error' && !first)
    return (
      <Page title={title}>
        <MomentsFailed icon={<MessageOutline />} title={t('moments.noticesFailed')} onRetry={() => void reload()} />
      </Page>
    );
  if (!notices)
    return (
      <Page title={title}>
        <MomentsLoading />
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
      {more && (
        <p className="moment-end">
          <button type="button" className="button" disabled={state === 'loading'} onClick={() => void loadMore()}>
            {state === 'loading'
              ? t('common.loading')
              : state === 'error'
                ? t('common.retry')
                : t('moments.olderNotices')}
          </button>
        </p>
      )}
    </Page>
  );
}
