import { liveStatus, type Contact } from '@sparrow/protocol';
import { TeamFill, UserAddOutline, UserContactOutline } from 'antd-mobile-icons';
import { memo, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { GroupedVirtuoso, type GroupedVirtuosoHandle } from 'react-virtuoso';
import { badgeText, groupContacts } from '../../lib/conversation-list';
import { paths, withQuery } from '../../nav/paths';
import { preloadRoute } from '../../nav/preload';
import { useConfig } from '../../stores/config';
import { useContacts } from '../../stores/contacts';
import { ContactAvatar } from '../ContactAvatar';
import { EmptyState } from '../EmptyState';
import { IndexBar } from '../IndexBar';
import { usePane } from '../desk/pane';
import { SearchEntry } from '../SearchBar';
import { StatusLine, statusText } from '../presence/presence';
import { useNow } from '../../lib/use-now';
import '../lists.css';
import './home.css';

const ContactRow = memo(function ContactRow({
  contact: c,
  open,
  now,
}: {
  contact: Contact;
  open: boolean;
  now: number;
}) {
  const { t } = useTranslation();
  const status = liveStatus(c.status, now);
  const label = [c.displayName, c.is_online ? t('contacts.online') : '', status ? statusText(t, status, now) : '']
    .filter(Boolean)
    .join(', ');
  return (
    <Link
      className="contact-row"
      to={withQuery(paths.contactDetail, { id: c.user_id ?? String(c.id) })}
      aria-current={open ? 'page' : undefined}
      aria-label={label}
    >
      <ContactAvatar contact={c} size={40} presence />
      <span className="contact-name">
        {c.displayName}
        <StatusLine status={status} now={now} />
      </span>
    </Link>
  );
});

interface Context {
  pending: number;
  total: number;
}

function Header({ context }: { context: Context }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <SearchEntry label={t('home.search')} onOpen={() => void navigate(paths.search)} />
      <ul className="contact-entries">
        <li>
          <Link
            className="contact-row"
            to={paths.friend}
            aria-label={
              context.pending
                ? `${t('contacts.newFriends')}, ${t('contacts.pendingCount', { count: context.pending })}`
                : t('contacts.newFriends')
            }
          >
            <span className="avatar avatar-icon avatar-orange entry-icon" aria-hidden="true">
              <UserAddOutline />
            </span>
            <span className="contact-name">{t('contacts.newFriends')}</span>
            {context.pending > 0 && (
              <span className="badge badge-count" aria-hidden="true">
                {badgeText(context.pending)}
              </span>
            )}
          </Link>
        </li>
        <li>
          <Link className="contact-row" to={paths.groupList}>
            <span className="avatar avatar-icon avatar-green entry-icon" aria-hidden="true">
              <TeamFill />
            </span>
            <span className="contact-name">{t('contacts.groups')}</span>
          </Link>
        </li>
      </ul>
      {context.total === 0 && (
        <EmptyState
          icon={<UserContactOutline />}
          title={t('home.contactsEmpty')}
          description={t('home.contactsEmptyDesc')}
        />
      )}
    </>
  );
}

function Footer({ context }: { context: Context }) {
  const { t } = useTranslation();
  if (context.total === 0) return null;
  return <p className="contacts-count">{t('contacts.count', { count: context.total })}</p>;
}

interface Grouped {
  /** Each group's header: a letter, or a department's name. */
  letters: string[];
  counts: number[];
  items: Contact[];
}

/**
 * The organisation (runMode 1) by department: departments by name, each with its people A–Z,
 * then those in none under `none`.
 */
function groupByDepartment(rows: Iterable<Contact>, none: string): Grouped {
  const collator = new Intl.Collator('zh-Hans-u-co-pinyin', { sensitivity: 'base', numeric: true });
  const byDep = new Map<number, { name: string; people: Contact[] }>();
  for (const c of rows) {
    if (c.is_group !== 0) continue;
    const id = c.dep_id && c.dep_name ? c.dep_id : 0;
    let dep = byDep.get(id);
    if (!dep) byDep.set(id, (dep = { name: id ? c.dep_name! : none, people: [] }));
    dep.people.push(c);
  }
  const deps = [...byDep.entries()]
    .sort(([a, x], [b, y]) => Number(a === 0) - Number(b === 0) || collator.compare(x.name, y.name) || a - b)
    .map(([, dep]) => dep);
  for (const dep of deps) dep.people.sort((x, y) => collator.compare(x.displayName, y.displayName));
  return {
    letters: deps.map((d) => d.name),
    counts: deps.map((d) => d.people.length),
    items: deps.flatMap((d) => d.people),
  };
}

/**
 * The Contacts tab (docs/product.md §2 tab 1): new friends, group chats, then everyone A–Z, or in runMode 1
 * (everyone in the organisation is a contact) everyone by department.
 */
export function ContactsTab() {
  const { t } = useTranslation();
  // Beside the profile it opened (the wide layout), the list marks that person.
  const openContact = usePane()?.openContact ?? null;
  // A status that ends leaves its row within the minute.
  const now = useNow();
  const rows = useContacts((s) => s.rows);
  const pending = useContacts((s) => s.pending);
  const byDepartment = useConfig((s) => s.config?.sysInfo.runMode === 1);
  const none = t('contacts.noDepartment');
  const grouped = useMemo<Grouped>(
    () => (byDepartment ? groupByDepartment(Object.values(rows), none) : groupContacts(Object.values(rows))),
    [rows, byDepartment, none],
  );
  const list = useRef<GroupedVirtuosoHandle>(null);
  const context = useMemo(() => ({ pending, total: grouped.items.length }), [pending, grouped.items.length]);
  useEffect(() => {
    preloadRoute(paths.contactDetail);
  }, []);
  return (
    <section className="fill contacts-pane" aria-label={t('tabs.contacts')}>
      <GroupedVirtuoso
        ref={list}
        className="fill-list"
        groupCounts={grouped.counts}
        context={context}
        components={{ Header, Footer }}
        groupContent={(i) =>
          byDepartment ? (
            <h2 className="index-letter">{grouped.letters[i]}</h2>
          ) : (
            <h2 className="index-letter" id={`letter-${grouped.letters[i]}`}>
              {grouped.letters[i]}
            </h2>
          )
        }
        itemContent={(i) => {
          const c = grouped.items[i];
          return c ? <ContactRow contact={c} open={String(c.user_id ?? c.id) === openContact} now={now} /> : null;
        }}
      />
      {!byDepartment && (
        <IndexBar
          letters={grouped.letters}
          onSelect={(i) => list.current?.scrollToIndex({ groupIndex: i, align: 'start' })}
        />
      )}
    </section>
  );
}
