import type { UserProfile } from '@sparrow/protocol';
import { UserAddOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api';
import { chatPath, paths, withQuery } from '../../nav/paths';
import { AddFriendForm } from '../../components/AddFriendForm';
import { Avatar } from '../../components/Avatar';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SearchBar } from '../../components/SearchBar';
import { useSession } from '../../stores/session';
import '../pages.css';

/** Search friends (docs/product.md §2 `/pages/contacts/search`): an exact account, email or phone number. */
export default function ContactSearchPage() {
  const { t } = useTranslation();
  const me = useSession((s) => s.user?.user_id);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<UserProfile[] | null>(null);
  const [searched, setSearched] = useState('');
  const [adding, setAdding] = useState<number | null>(null);

  const handleSearch = async () => {
    const keywords = query.trim();
    if (!keywords) return;
    try {
      setResults(await api.searchUser({ keywords }, { loading: true, quiet: true }));
      setSearched(keywords);
      setAdding(null);
    } catch {
      // The request layer said why.
    }
  };

  return (
    <Page title={t('routes.contactSearch')}>
      <SearchBar
        value={query}
        onChange={setQuery}
        placeholder={t('friend.searchPlaceholder')}
        label={t('friend.searchLabel')}
        autoFocus
        inputMode="text"
        onSubmit={() => void handleSearch()}
      />
      {results === null && <p className="form-note">{t('friend.searchHint')}</p>}
      {results !== null && results.length === 0 && (
        <EmptyState
          icon={<UserAddOutline />}
          title={t('friend.noResult')}
          description={t('friend.noResultDesc', { words: searched })}
        />
      )}
      {results?.map((u) => {
        const name = u.friend?.nickname || u.realname;
        return (
          <section key={u.user_id} className="profile-card" aria-label={name}>
            <div className="profile-head">
              <Avatar src={u.avatar} name={u.realname} alt="" size={56} />
              <div className="profile-text">
                <h2 className="profile-name">{name}</h2>
                <p className="profile-sub">{t('friend.account', { account: u.account })}</p>
                {u.motto && <p className="profile-sub">{u.motto}</p>}
              </div>
            </div>
            <div className="profile-actions">
              {u.user_id === me ? (
                <p className="form-note">{t('friend.isYou')}</p>
              ) : u.is_friend ? (
                <Link className="button button-primary" to={chatPath(String(u.user_id))}>
                  {t('friend.message')}
                </Link>
              ) : adding === u.user_id ? (
                <AddFriendForm userId={u.user_id} />
              ) : (
                <>
                  <button type="button" className="button button-primary" onClick={() => setAdding(u.user_id)}>
                    {t('friend.add')}
                  </button>
                  <Link className="button button-default" to={withQuery(paths.contactDetail, { id: u.user_id })}>
                    {t('friend.viewProfile')}
                  </Link>
                </>
              )}
            </div>
          </section>
        );
      })}
    </Page>
  );
}
