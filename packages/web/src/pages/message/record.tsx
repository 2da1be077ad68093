import type { Message } from '@sparrow/protocol';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { request } from '../../api';
import { paths } from '../../app/paths';
import { isGroupOf } from '../../chat/registry';
import { useGroup } from '../../chat/use-chat';
import { Avatar } from '../../components/Avatar';
import { MessageContent } from '../../components/chat/MessageContent';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SearchBar } from '../../components/SearchBar';
import { contactIdOf, isGroupKey, SELF_KEY } from '../../lib/conversation-list';
import { formatClock, formatDate } from '../../lib/relative-time';
import { useContacts } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import { SearchOutline } from 'antd-mobile-icons';
import '../../components/chat/chat.css';
import '../../components/lists.css';
import '../pages.css';

type Filter = 'all' | 'media' | 'file' | 'member';
const FILTERS: readonly Filter[] = ['all', 'media', 'file', 'member'];
const PAGE = 30;
const DEBOUNCE_MS = 300;

/** The words of the search marked in a line of text. */
function Highlight({ text, words }: { text: string; words: string }) {
  if (!words) return <>{text}</>;
  const lower = text.toLowerCase();
  const needle = words.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, i + needle.length)) {
    if (i > from) parts.push(text.slice(from, i));
    parts.push(<mark key={i}>{text.slice(i, i + needle.length)}</mark>);
    from = i + needle.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/** Chat history (spec §2 `/pages/message/record?id=`): search the text, or list media, files, or one member. */
export default function RecordPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const key = params.get('id') ?? '';
  const filter: Filter = (FILTERS as readonly string[]).includes(params.get('filter') ?? '')
    ? (params.get('filter') as Filter)
    : 'all';
  const member = Number(params.get('member')) || null;
  const [query, setQuery] = useState(params.get('keywords') ?? '');
  const [words, setWords] = useState(query.trim());
  const [items, setItems] = useState<Message[]>([]);
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const contact = useContacts((s) => s.rows[key]);
  const me = useSession((s) => s.user);
  const group = useGroup(key);

  useEffect(() => {
    const timer = setTimeout(() => setWords(query.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const people = useMemo(() => {
    if (isGroupKey(key))
      return group.members.map((m) => ({
        id: m.user_id,
        name: m.nickname || m.userInfo.realname,
        avatar: m.userInfo.avatar,
      }));
    const list = me ? [{ id: me.user_id, name: me.realname, avatar: me.avatar }] : [];
    if (contact && key !== SELF_KEY && typeof contact.user_id === 'number')
      list.push({ id: contact.user_id, name: contact.displayName, avatar: contact.avatar });
    return list;
  }, [key, group.members, me, contact]);

  const load = useCallback(
    async (before?: number) => {
      if (!key || (filter === 'member' && !member)) return;
      setBusy(true);
      try {
        const { data } = await request(
          'getMessageList',
          {
            toContactId: contactIdOf(key),
            is_group: isGroupOf(key),
            limit: PAGE,
            ...(before && { last_id: before }),
            ...(words && { keywords: words }),
            ...(filter === 'media' && { type: 'media' }),
            ...(filter === 'file' && { type: 'file' }),
            ...(filter === 'member' && member && { from_user: member }),
          },
          { silent: true },
        );
        const newestFirst = [...data].reverse();
        setItems((old) => (before ? [...old, ...newestFirst] : newestFirst));
        setMore(data.length >= PAGE);
      } catch {
        setMore(false);
      } finally {
        setBusy(false);
      }
    },
    [key, words, filter, member],
  );

  useEffect(() => {
    setItems([]);
    void load();
  }, [load]);

  if (!key) return <Navigate to={paths.home} replace />;

  const setFilter = (f: Filter) => {
    const next = new URLSearchParams(params);
    next.set('filter', f);
    next.delete('member');
    setParams(next, { replace: true });
  };
  const pickMember = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('member', String(id));
    setParams(next, { replace: true });
  };

  const shown = items.filter((m) => m.type !== 'event');
  const when = (ms: number) => `${formatDate(ms, i18n.language, Date.now())} ${formatClock(ms, i18n.language)}`;

  return (
    <Page title={t('routes.record')}>
      <SearchBar value={query} onChange={setQuery} placeholder={t('record.search')} />
      <fieldset className="segmented">
        <legend>{t('record.filter')}</legend>
        {FILTERS.map((f) => (
          <label key={f}>
            <input type="radio" name="filter" checked={filter === f} onChange={() => setFilter(f)} />
            {t(`record.${f}`)}
          </label>
        ))}
      </fieldset>
      {filter === 'member' && (
        <ul className="member-chips" aria-label={t('record.pickMember')}>
          {people.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="member-chip"
                aria-pressed={member === p.id}
                onClick={() => pickMember(p.id)}
              >
                <Avatar src={p.avatar} name={p.name} alt="" size={28} />
                <span>{p.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {filter === 'member' && !member ? (
        <p className="form-note">{t('record.pickMemberHint')}</p>
      ) : shown.length === 0 && !busy ? (
        <EmptyState
          icon={<SearchOutline />}
          title={t('record.empty')}
          description={words ? t('record.emptyWords', { words }) : t('record.emptyDesc')}
        />
      ) : (
        <ul className={filter === 'media' ? 'record-media' : 'record-list'} aria-busy={busy}>
          {shown.map((m) =>
            filter === 'media' ? (
              <li key={m.msg_id}>
                <MessageContent message={m} />
              </li>
            ) : (
              <li key={m.msg_id} className="record-row">
                <Avatar src={m.fromUser.avatar} name={m.fromUser.displayName || m.fromUser.realname} alt="" size={36} />
                <div className="record-main">
                  <p className="record-line">
                    <span className="record-name">{m.fromUser.displayName || m.fromUser.realname}</span>
                    <time className="record-time" dateTime={new Date(m.sendTime).toISOString()}>
                      {when(m.sendTime)}
                    </time>
                  </p>
                  <div className="record-content">
                    {m.type === 'text' ? <Highlight text={m.content} words={words} /> : <MessageContent message={m} />}
                  </div>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
      {more && (
        <div className="actions">
          <button
            type="button"
            className="button button-default"
            disabled={busy}
            onClick={() => void load(items.at(-1)?.msg_id)}
          >
            {t('record.more')}
          </button>
        </div>
      )}
    </Page>
  );
}
