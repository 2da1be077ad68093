import type { Contact } from '@sparrow/protocol';
import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { request } from '../../api';
import { useBack } from '../../nav/navigation';
import { chatPath, paths, withQuery } from '../../nav/paths';
import { ContactAvatar } from '../../components/ContactAvatar';
import { SearchBar } from '../../components/SearchBar';
import type { ChatHits } from '../../components/search/hits';
import { conversations, HitSearch, readAll } from '../../components/search/search-engine';
import { chatAt, HitContent } from '../../components/search/SearchHits';
import { storedHits } from '../../components/search/stored-hits';
import { contactKey, contactName, matchesName } from '../../lib/conversation-list';
import { useContacts } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import '../../components/lists.css';
import '../../components/search/search.css';
import '../pages.css';

const DEBOUNCE_MS = 300;
/** Conversations with hits shown at first, and added by "more". */
const CONVERSATIONS_SHOWN = 20;
const SECTION_FIRST = 5;

/** One titled section of results. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="search-section" aria-labelledby={id}>
      <h2 className="search-section-title" id={id}>
        {title}
      </h2>
      <ul className="cells">{children}</ul>
    </section>
  );
}

/** A person, group or chat found, as a row that opens it. */
function ContactLink({ contact, to, name, sub }: { contact: Contact; to: string; name?: string; sub?: string }) {
  return (
    <li>
      <Link className="contact-row" to={to}>
        <ContactAvatar contact={contact} size={40} />
        {sub === undefined ? (
          <span className="contact-name">{name ?? contact.displayName}</span>
        ) : (
          <span className="contact-text">
            <span className="contact-name">{name ?? contact.displayName}</span>
            <span className="contact-sub">{sub}</span>
          </span>
        )}
      </Link>
    </li>
  );
}

/**
 * A conversation with messages found: one hit opens the chat at it, more open the conversation's
 * list; found on this device (`local`, the server out of reach), the chat at its newest hit.
 */
function ChatHitsLink({ chat, words, local }: { chat: ChatHits; words: string; local: boolean }) {
  const { t } = useTranslation();
  const single = chat.count === 1;
  const to =
    single || local ? chatAt(chat.key, chat.newest.msg_id) : withQuery(paths.record, { id: chat.key, keywords: words });
  return (
    <li>
      <Link className="contact-row" to={to}>
        <ContactAvatar contact={chat.contact} size={40} />
        <span className="contact-text">
          <span className="contact-name">{contactName(chat.contact, t)}</span>
          <span className="contact-sub">
            {single ? (
              <HitContent hit={chat.newest} words={words} />
            ) : chat.count === null ? (
              t('search.hitsAtLeast', { count: chat.loaded })
            ) : (
              t('search.hits', { count: chat.count })
            )}
          </span>
        </span>
      </Link>
    </li>
  );
}

/**
 * Search (docs/product.md §2 `/pages/index/search`): my contacts and groups by name, and the messages of
 * every conversation I can see (docs/protocol.md searchMessage), grouped by conversation with the number
 * found in each; a conversation opens its list of hits, a single hit the chat at that message.
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const back = useBack();
  const rows = useContacts((s) => s.rows);
  const me = useSession((s) => s.user?.user_id ?? 0);
  // The words stay in the address, so that coming back from a hit shows the same results.
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState(params.get('keywords') ?? '');
  const [words, setWords] = useState(query.trim());
  const [shown, setShown] = useState(CONVERSATIONS_SHOWN);
  const engine = useMemo(
    () =>
      new HitSearch(
        (body) => request('searchMessage', body, { silent: true }),
        me,
        (w) => storedHits(me, w),
      ),
    [me],
  );
  const history = useSyncExternalStore(engine.subscribe, engine.getState);

  useEffect(() => {
    const timer = setTimeout(() => setWords(query.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  useEffect(() => {
    if ((params.get('keywords') ?? '') !== words) setParams(words ? { keywords: words } : {}, { replace: true });
  }, [words, params, setParams]);

  const all = useMemo(() => Object.values(rows), [rows]);
  const q = words.toLowerCase();
  const people = useMemo(() => (q ? all.filter((c) => c.is_group === 0 && matchesName(c, q)) : []), [all, q]);
  const groups = useMemo(() => (q ? all.filter((c) => c.is_group === 1 && matchesName(c, q)) : []), [all, q]);

  useEffect(() => {
    setShown(CONVERSATIONS_SHOWN);
    void engine.search(words);
  }, [engine, words]);

  const chats = useMemo(() => conversations(history, me), [history, me]);

  // While not every hit is read, the conversations shown ask for their own counts.
  useEffect(() => {
    void engine.count(chats.slice(0, shown));
  }, [engine, chats, shown]);

  // "More" reads pages of older hits until it has conversations to show, all hits are read, or
  // its pages are spent.
  const handleMore = () => {
    const wanted = chats.length > shown ? shown + CONVERSATIONS_SHOWN : chats.length + CONVERSATIONS_SHOWN;
    setShown(wanted);
    void engine.readUntil(wanted);
  };

  const moreToRead = history.status === 'ready' && !readAll(history);
  const readingMore = history.status === 'ready' && history.more === 'loading';
  const nothing =
    words && history.status === 'ready' && people.length === 0 && groups.length === 0 && chats.length === 0;
  return (
    <div className="page search-page">
      <header className="search-header">
        <SearchBar
          value={query}
          onChange={setQuery}
          placeholder={t('common.search')}
          label={t('search.label')}
          autoFocus
          onCancel={back}
        />
      </header>
      <main id="main" className="page-body">
        <h1 className="visually-hidden">{t('routes.search')}</h1>
        {!words && <p className="search-tip">{t('search.tip')}</p>}
        {people.length > 0 && (
          <Section id="search-people" title={t('search.people')}>
            {people.slice(0, SECTION_FIRST * 4).map((c) => (
              <ContactLink
                key={String(c.id)}
                contact={c}
                to={withQuery(paths.contactDetail, { id: c.user_id ?? String(c.id) })}
              />
            ))}
          </Section>
        )}
        {groups.length > 0 && (
          <Section id="search-groups" title={t('search.groups')}>
            {groups.map((c) => (
              <ContactLink key={String(c.id)} contact={c} to={chatPath(contactKey(c.id))} />
            ))}
          </Section>
        )}
        {chats.length > 0 && (
          <Section
            id="search-history"
            title={history.status === 'ready' && history.local ? t('search.historyLocal') : t('search.history')}
          >
            {chats.slice(0, shown).map((chat) => (
              <ChatHitsLink
                key={chat.key}
                chat={chat}
                words={history.words}
                local={history.status === 'ready' && history.local}
              />
            ))}
          </Section>
        )}
        {history.status === 'ready' && history.more === 'failed' ? (
          <div className="search-tip" role="alert">
            <p>{t('search.failed')}</p>
            <button type="button" className="button button-default" onClick={handleMore}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          (chats.length > shown || moreToRead) && (
            <div className="actions">
              <button
                type="button"
                className="button button-default"
                disabled={readingMore}
                aria-busy={readingMore || undefined}
                onClick={handleMore}
              >
                {t('search.moreChats')}
              </button>
            </div>
          )
        )}
        {(history.status === 'loading' || readingMore) && (
          <p className="search-tip" role="status">
            {t('search.searching')}
          </p>
        )}
        {history.status === 'failed' && (
          <div className="search-tip" role="alert">
            <p>{t('search.failed')}</p>
            <button type="button" className="button button-default" onClick={() => void engine.search(words)}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {nothing && <p className="search-tip">{t('search.nothing', { words })}</p>}
      </main>
    </div>
  );
}
