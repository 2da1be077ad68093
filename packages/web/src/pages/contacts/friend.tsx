import type { FriendRequest } from '@sparrow/protocol';
import { UserAddOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, request } from '../../api';
import { appEvents } from '../../chat/events';
import { Avatar } from '../../components/Avatar';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { formatRelative } from '../../lib/relative-time';
import { useNow } from '../../lib/use-now';
import { useParamChoice } from '../../lib/use-param-choice';
import { paths, withQuery } from '../../nav/paths';
import { contacts, contactsStore } from '../../stores/contacts';
import '../../components/lists.css';
import '../pages.css';

const PAGE = 20;
type Box = 'received' | 'sent';

/** New friends (docs/product.md §2 `/pages/contacts/friend`): requests received and sent, answered here, live. */
export default function FriendRequestsPage() {
  const { t, i18n } = useTranslation();
  const [box, setBox] = useParamChoice<Box>('box', ['received', 'sent']);
  const [items, setItems] = useState<FriendRequest[] | null>(null);
  const [total, setTotal] = useState(0);
  const [busy, setBusy] = useState<number | null>(null);
  const now = useNow();

  const load = useCallback(
    async (page = 1) => {
      try {
        const { data, count } = await request(
          'friendIndex',
          { is_mine: box === 'sent' ? 1 : 0, page, limit: PAGE },
          { silent: true },
        );
        setItems((old) => (page === 1 ? data : [...(old ?? []), ...data]));
        setTotal(count ?? data.length);
      } catch {
        setItems((old) => old ?? []);
      }
    },
    [box],
  );

  useEffect(() => {
    setItems(null);
    void load();
    return appEvents.on('friendRequests', () => void load());
  }, [load]);

  const answer = async (r: FriendRequest, status: 0 | 1) => {
    setBusy(r.friend_id);
    try {
      await api.friendUpdate({ friend_id: r.friend_id, status });
      setItems((list) => list?.map((x) => (x.friend_id === r.friend_id ? { ...x, status } : x)) ?? null);
      contacts.setPending(contactsStore.getState().pending - 1);
    } catch {
      // The request layer said why (already answered…).
    } finally {
      setBusy(null);
    }
  };

  const status = (r: FriendRequest) =>
    r.status === 1 ? t('friend.accepted') : r.status === 0 ? t('friend.refused') : t('friend.waiting');

  return (
    <Page
      title={t('routes.friend')}
      right={
        <Link className="navbar-back navbar-icon" to={paths.contactSearch} aria-label={t('home.addFriend')}>
          <UserAddOutline aria-hidden="true" />
        </Link>
      }
    >
      <fieldset className="segmented">
        <legend>{t('friend.box')}</legend>
        {(['received', 'sent'] as const).map((b) => (
          <label key={b}>
            <input type="radio" name="box" checked={box === b} onChange={() => setBox(b)} />
            {t(b === 'sent' ? 'friend.boxSent' : 'friend.boxReceived')}
          </label>
        ))}
      </fieldset>
      {items === null ? (
        <div className="page-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="visually-hidden">{t('common.loading')}</span>
        </div>
      ) : items.length === 0 ? (
        <EmptyState
          icon={<UserAddOutline />}
          title={t(box === 'sent' ? 'friend.noneSent' : 'friend.noneReceived')}
          description={t('friend.noneDesc')}
        />
      ) : (
        <ul className="cells request-list">
          {items.map((r) => {
            const other = box === 'sent' ? r.user_id_info : r.create_user_info;
            const name = other.displayName || other.realname;
            return (
              <li key={r.friend_id} className="request">
                <Link className="request-who" to={withQuery(paths.contactDetail, { id: other.user_id })}>
                  <Avatar src={other.avatar} name={name} alt="" size={44} />
                  <span className="request-text">
                    <span className="request-name">{name}</span>
                    <span className="request-note">{r.remark || t('friend.noNote')}</span>
                    <span className="request-time">{formatRelative(r.create_time, now, t, i18n.language)}</span>
                  </span>
                </Link>
                {box === 'received' && r.status === 2 ? (
                  <span className="request-actions">
                    <button
                      type="button"
                      className="small-button small-primary"
                      disabled={busy === r.friend_id}
                      aria-label={t('friend.acceptWho', { name })}
                      onClick={() => void answer(r, 1)}
                    >
                      {t('friend.accept')}
                    </button>
                    <button
                      type="button"
                      className="small-button"
                      disabled={busy === r.friend_id}
                      aria-label={t('friend.refuseWho', { name })}
                      onClick={() => void answer(r, 0)}
                    >
                      {t('friend.refuse')}
                    </button>
                  </span>
                ) : (
                  <span className="request-status">{status(r)}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {items !== null && items.length < total && (
        <div className="actions">
          <button
            type="button"
            className="button button-default"
            onClick={() => void load(Math.floor(items.length / PAGE) + 1)}
          >
            {t('record.more')}
          </button>
        </div>
      )}
    </Page>
  );
}
