import type { Contact, SearchHit } from '@sparrow/protocol';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { request } from '../../api';
import { useBack } from '../../app/navigation';
import { chatPath, paths, withQuery } from '../../app/paths';
import { isGroupOf } from '../../chat/registry';
import { ContactAvatar } from '../../components/ContactAvatar';
import { SearchBar } from '../../components/SearchBar';
import { groupHits, type ChatHits } from '../../components/search/hits';
import { chatAt, HitContent } from '../../components/search/SearchHits';
import { contactIdOf, contactKey, contactName } from '../../lib/conversation-list';
import { useContacts } from '../../stores/contacts';
import { useSession } from '../../stores/session';
import '../../components/lists.css';
import '../../components/search/search.css';
import '../pages.css';

const DEBOUNCE_MS = 300;
/** Hits asked at once (a page of searchMessage), newest first, grouped by conversation. */
const HITS_PAGE = 100;
/** Conversations with hits shown at first, and added by "more". */
const CONVERSATIONS_SHOWN = 20;
/**
 * Pages of hits one "more" may read while looking for the next conversations: a conversation whose
 * hits are all older than thousands of another's is reached by pressing "more" again.
 */
const PAGES_PER_MORE = 10;
/** How many conversations' counts are asked at the same time. */
const PARALLEL = 4;
const SECTION_FIRST = 5;

/**
 * The hits read so far, newest first, page after page of searchMessage; `total` is how many there
 * are, so the conversations of the hits not yet read are reached by reading on ("more").
 */
type HistoryState =
  | { words: string; status: 'idle' | 'loading' | 'failed' }
  | {
      words: string;
      status: 'ready';
      hits: SearchHit[];
      total: number;
      /** Pages read (searchMessage `page`, from 1). */
      pages: number;
      /** Reading the next page: `failed` waits for a retry. */
      more: 'idle' | 'loading' | 'failed';
      /** Each conversation's number of hits, asked of the server while not all hits are read. */
      counts: Readonly<Record<string, number>>;
    };

/** A page of hits added to those read: the same message twice (the list moved on meanwhile) only once. */
function appendHits(read: readonly SearchHit[], page: readonly SearchHit[]): SearchHit[] {
  const seen = new Set(read.map((h) => h.msg_id));
  return [...read, ...page.filter((h) => !seen.has(h.msg_id))];
}

function matches(c: Contact, q: string): boolean {
  return [c.displayName, c.realname ?? '', c.account ?? ''].some((s) => s.toLowerCase().includes(q));
}

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

/** A conversation with messages found: one hit opens the chat at it, more open the conversation's list. */
function ChatHitsLink({ chat, words }: { chat: ChatHits; words: string }) {
  const { t } = useTranslation();
  const single = chat.count === 1;
  const to = single ? chatAt(chat.key, chat.newest.msg_id) : withQuery(paths.record, { id: chat.key, keywords: words });
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
  const [history, setHistory] = useState<HistoryState>({ words: '', status: 'idle' });
  const [shown, setShown] = useState(CONVERSATIONS_SHOWN);
  /** Pages the last "more" may still read. */
  const [budget, setBudget] = useState(0);
  const [attempt, setAttempt] = useState(0);
  /** Counts the searches begun, so that a page asked for an earlier one is dropped. */
  const run = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => setWords(query.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  useEffect(() => {
    if ((params.get('keywords') ?? '') !== words) setParams(words ? { keywords: words } : {}, { replace: true });
  }, [words, params, setParams]);

  const all = useMemo(() => Object.values(rows), [rows]);
  const q = words.toLowerCase();
  const people = useMemo(() => (q ? all.filter((c) => c.is_group === 0 && matches(c, q)) : []), [all, q]);
  const groups = useMemo(() => (q ? all.filter((c) => c.is_group === 1 && matches(c, q)) : []), [all, q]);

  useEffect(() => {
    setShown(CONVERSATIONS_SHOWN);
    setBudget(0);
    if (!words) {
      setHistory({ words: '', status: 'idle' });
      return;
    }
    let live = true;
    run.current += 1;
    setHistory({ words, status: 'loading' });
    request('searchMessage', { keywords: words, limit: HITS_PAGE }, { silent: true }).then(
      ({ data, count }) => {
        if (!live) return;
        const total = Math.max(count ?? data.length, data.length);
        setHistory({ words, status: 'ready', hits: data, total, pages: 1, more: 'idle', counts: {} });
      },
      () => {
        if (live) setHistory({ words, status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [words, attempt]);

  const readAll = history.status === 'ready' && history.hits.length >= history.total;
  const chats = useMemo(() => {
    if (history.status !== 'ready') return [];
    return groupHits(history.hits, me, readAll).map((c) => {
      const n = history.counts[c.key];
      return c.count === null && n !== undefined ? { ...c, count: n } : c;
    });
  }, [history, me, readAll]);

  // "More" reads pages of older hits until it has conversations to show, all hits are read, or
  // its pages are spent.
  const wantsPage =
    history.status === 'ready' && history.more === 'idle' && !readAll && budget > 0 && chats.length < shown;
  useEffect(() => {
    if (!wantsPage || history.status !== 'ready') return;
    const mine = run.current;
    const { words: asked, pages } = history;
    setHistory((h) => (h.status === 'ready' ? { ...h, more: 'loading' } : h));
    setBudget((n) => n - 1);
    const current = (h: HistoryState) => run.current === mine && h.status === 'ready' && h.words === asked;
    request('searchMessage', { keywords: asked, limit: HITS_PAGE, page: pages + 1 }, { silent: true }).then(
      ({ data, count }) =>
        setHistory((h) => {
          if (!current(h) || h.status !== 'ready') return h;
          const hits = appendHits(h.hits, data);
          // A short page is the last one, whatever the count said before.
          const total = data.length < HITS_PAGE ? hits.length : Math.max(count ?? h.total, hits.length);
          return { ...h, hits, total, pages: pages + 1, more: 'idle' };
        }),
      () => setHistory((h) => (current(h) && h.status === 'ready' ? { ...h, more: 'failed' } : h)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one page per time the flag rises; it falls as the page is asked, which must not cancel it
  }, [wantsPage]);

  const handleMore = () => {
    if (chats.length > shown) setShown((n) => n + CONVERSATIONS_SHOWN);
    else setShown(chats.length + CONVERSATIONS_SHOWN);
    setBudget(PAGES_PER_MORE);
    setHistory((h) => (h.status === 'ready' && h.more === 'failed' ? { ...h, more: 'idle' } : h));
  };

  // While not every hit is read, the conversations shown ask for their own counts.
  const pendingCounts = useMemo(
    () => (history.status === 'ready' && !readAll ? chats.slice(0, shown).filter((c) => c.count === null) : []),
    [history.status, readAll, chats, shown],
  );
  const pendingKeys = pendingCounts.map((c) => c.key).join(' ');
  const readyWords = history.status === 'ready' ? history.words : null;
  useEffect(() => {
    if (pendingCounts.length === 0 || history.status !== 'ready') return;
    let live = true;
    const asked = history.words;
    const counts: Record<string, number> = {};
    const ask = async (chat: ChatHits) => {
      try {
        const { count } = await request(
          'searchMessage',
          { keywords: asked, toContactId: contactIdOf(chat.key), is_group: isGroupOf(chat.key), limit: 1 },
          { silent: true },
        );
        counts[chat.key] = count ?? chat.loaded;
      } catch {
        // The conversation keeps the "at least" count of the hits loaded.
        counts[chat.key] = chat.loaded;
      }
    };
    void (async () => {
      for (let i = 0; i < pendingCounts.length && live; i += PARALLEL) {
        await Promise.all(pendingCounts.slice(i, i + PARALLEL).map(ask));
      }
      if (!live) return;
      setHistory((h) => (h.status === 'ready' && h.words === asked ? { ...h, counts: { ...counts, ...h.counts } } : h));
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked again when other conversations lack a count, not on every page read
  }, [pendingKeys, readyWords]);

  const moreToRead = history.status === 'ready' && !readAll;
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
          <Section id="search-history" title={t('search.history')}>
            {chats.slice(0, shown).map((chat) => (
              <ChatHitsLink key={chat.key} chat={chat} words={history.words} />
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
            <button type="button" className="button button-default" onClick={() => setAttempt((n) => n + 1)}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {nothing && <p className="search-tip">{t('search.nothing', { words })}</p>}
      </main>
    </div>
  );
}
