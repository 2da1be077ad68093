import { PAGE_LIMIT_DEFAULT, type BlockedUser } from '@sparrow/protocol';
import { UserOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { request } from '../../api';
import { Avatar } from '../../components/Avatar';
import { Page } from '../../components/Page';
import { PagedListBody } from '../../components/PagedListBody';
import type { Loaded } from '../../lib/paged-list';
import { usePagedList } from '../../lib/use-paged-list';
import { useBackTo } from '../../nav/navigation';
import { paths, withQuery } from '../../nav/paths';
import { blocks } from '../../stores/blocks';
import '../message/media-pages.css';
import '../pages.css';

const blockedKey = (u: BlockedUser) => u.user_id;

/**
 * 通讯录黑名单 (Settings → 隐私): the people I blocked, the latest first, each with 移出 to unblock;
 * a change made elsewhere here or on another device of mine shows at once.
 */
export default function BlockedPage() {
  const { t } = useTranslation();
  const back = useBackTo(paths.setting);
  const [busy, setBusy] = useState<number | null>(null);

  const read = useCallback(async ({ pages }: Loaded<BlockedUser>) => {
    const { data, count } = await request(
      'blockList',
      { page: pages + 1, limit: PAGE_LIMIT_DEFAULT },
      { silent: true },
    );
    return { items: data, total: count ?? (pages === 0 ? data.length : undefined) };
  }, []);
  const [list, pager] = usePagedList(read, blockedKey);

  useEffect(
    () =>
      blocks.subscribe((data) => {
        if (data.blocked === 0) pager.update((items) => items.filter((u) => u.user_id !== data.user_id));
        void pager.refresh();
      }),
    [pager],
  );

  const handleUnblock = async (user: BlockedUser) => {
    setBusy(user.user_id);
    try {
      await blocks.set(user.user_id, false);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Page title={t('block.entry')} onBack={back}>
      <PagedListBody
        list={list}
        pager={pager}
        icon={<UserOutline />}
        loadFailed={t('block.loadFailed')}
        empty={{ title: t('block.empty'), description: t('block.emptyDesc') }}
        total={(count) => t('block.total', { count })}
        end={t('block.end')}
      >
        <ul className="cells request-list">
          {list.items.map((user) => (
            <li key={user.user_id} className="request">
              <Link className="request-who" to={withQuery(paths.contactDetail, { id: user.user_id })}>
                <Avatar src={user.avatar} name={user.displayName} alt="" size={44} />
                <span className="request-text">
                  <span className="request-name">{user.displayName}</span>
                </span>
              </Link>
              <span className="request-actions">
                <button
                  type="button"
                  className="small-button"
                  disabled={busy === user.user_id}
                  aria-label={t('block.removeLabel', { name: user.displayName })}
                  onClick={() => void handleUnblock(user)}
                >
                  {t('block.remove')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      </PagedListBody>
    </Page>
  );
}
