import type { Contact } from '@sparrow/protocol';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { request } from '../../api';
import { useBack } from '../../app/navigation';
import { chatPath, paths, withQuery } from '../../app/paths';
import { isGroupOf } from '../../chat/registry';
import { ContactAvatar } from '../../components/ContactAvatar';
import { SearchBar } from '../../components/SearchBar';
import { compareConversations, contactIdOf, contactKey, contactName } from '../../lib/conversation-list';
import { useContacts } from '../../stores/contacts';
import '../../components/lists.css';
import '../pages.css';

const DEBOUNCE_MS = 300;
/** Conversations whose history is searched (the most recent ones), and how many at once. */
const HISTORY_CONVERSATIONS = 50;
const PARALLEL = 5;
const SECTION_FIRST = 5;

interface HistoryHit {
  contact: Contact;
  count: number;
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

/**
 * Search (spec §2 `/pages/index/search`): my contacts and groups by name, and the text of my
 * conversations. The server searches one conversation at a time, so the recent conversations are
 * asked a few at a time, each for its number of matching messages.
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const back = useBack();
  const rows = useContacts((s) => s.rows);
  const [query, setQuery] = useState('');
  const [words, setWords] = useState('');
  const [history, setHistory] = useState<{ words: string; hits: HistoryHit[]; done: boolean }>({
    words: '',
    hits: [],
    done: true,
  });

  useEffect(() => {
    const timer = setTimeout(() => setWords(query.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const all = useMemo(() => Object.values(rows), [rows]);
  // The history search runs again for new words, not for every message that changes the list.
  const latest = useRef(all);
  useEffect(() => {
    latest.current = all;
  }, [all]);
  const q = words.toLowerCase();
  const people = useMemo(() => (q ? all.filter((c) => c.is_group === 0 && matches(c, q)) : []), [all, q]);
  const groups = useMemo(() => (q ? all.filter((c) => c.is_group === 1 && matches(c, q)) : []), [all, q]);

  useEffect(() => {
    if (!words) {
      setHistory({ words: '', hits: [], done: true });
      return;
    }
    let live = true;
    setHistory({ words, hits: [], done: false });
    const targets = latest.current
      .filter((c) => (c.is_group === 0 || c.is_group === 1 || c.is_group === 3) && c.lastSendTime > 0)
      .sort(compareConversations)
      .slice(0, HISTORY_CONVERSATIONS);
    const hits: HistoryHit[] = [];
    const ask = async (c: Contact) => {
      const key = contactKey(c.id);
      try {
        const { count } = await request(
          'getMessageList',
          { toContactId: contactIdOf(key), is_group: isGroupOf(key), keywords: words, limit: 1 },
          { silent: true },
        );
        if (count) hits.push({ contact: c, count });
      } catch {
        // One conversation that cannot be searched does not stop the others.
      }
    };
    void (async () => {
      for (let i = 0; i < targets.length && live; i += PARALLEL) {
        await Promise.all(targets.slice(i, i + PARALLEL).map(ask));
        if (live)
          setHistory({
            words,
            hits: [...hits].sort((a, b) => b.count - a.count),
            done: i + PARALLEL >= targets.length,
          });
      }
      if (live) setHistory((h) => ({ ...h, done: true }));
    })();
    return () => {
      live = false;
    };
  }, [words]);

  const nothing = words && history.done && people.length === 0 && groups.length === 0 && history.hits.length === 0;
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
        {history.hits.length > 0 && (
          <Section id="search-history" title={t('search.history')}>
            {history.hits.map(({ contact: c, count }) => (
              <ContactLink
                key={String(c.id)}
                contact={c}
                to={withQuery(paths.record, { id: contactKey(c.id), keywords: history.words })}
                name={contactName(c, t)}
                sub={t('search.hits', { count })}
              />
            ))}
          </Section>
        )}
        {words && !history.done && (
          <p className="search-tip" role="status">
            {t('search.searching')}
          </p>
        )}
        {nothing && <p className="search-tip">{t('search.nothing', { words })}</p>}
      </main>
    </div>
  );
}
