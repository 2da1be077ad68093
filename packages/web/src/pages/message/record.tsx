import { DATE_PICKER_YEARS, type Message, type SearchHit } from '@sparrow/protocol';
import { SearchOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { request } from '../../api';
import { paths } from '../../nav/paths';
import { isGroupOf } from '../../chat/registry';
import { useGroup } from '../../chat/use-chat';
import { Avatar } from '../../components/Avatar';
import { EmptyState } from '../../components/EmptyState';
import { MediaMessage } from '../../components/message/MediaMessage';
import { Page } from '../../components/Page';
import { SearchBar } from '../../components/SearchBar';
import { chatAt, HitRow } from '../../components/search/SearchHits';
import { contactIdOf, isGroupKey, SELF_KEY } from '../../lib/conversation-list';
import type { Loaded } from '../../lib/paged-list';
import { usePagedList } from '../../lib/use-paged-list';
import { useContacts } from '../../stores/contacts';
import { memberName } from '../../stores/group-rules';
import { useRemarks } from '../../stores/remarks';
import { useSession } from '../../stores/session';
import '../../components/chat/chat.css';
import '../../components/lists.css';
import '../../components/search/search.css';
import '../pages.css';

type Filter = 'all' | 'media' | 'file' | 'member' | 'date';
const FILTERS: readonly Filter[] = ['all', 'media', 'file', 'member', 'date'];
const PAGE = 30;
const DEBOUNCE_MS = 300;
/** The time of day the date picker offers (docs/product.md §5): a day's messages from 00:00 to 23:59. */
const DAY_START = '00:00';
const DAY_END = '23:59';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** A local day as the date input writes it, `yyyy-mm-dd`. */
const dayOf = (d: Date) => `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local time of a picked day and `hh:mm`, in ms; NaN when either is not one. */
function localTime(day: string, clock: string): number {
  const [y, mo, d] = day.split('-').map(Number);
  const [h, mi] = clock.split(':').map(Number);
  if ([y, mo, d, h, mi].some((n) => n === undefined || !Number.isInteger(n))) return NaN;
  const date = new Date(y!, mo! - 1, d!, h!, mi!);
  // Years below 100 would otherwise be read as 19xx.
  date.setFullYear(y!);
  return date.getTime();
}

const messageKey = (m: Message) => m.msg_id;

/**
 * Chat history (docs/product.md §2 `/pages/message/record?id=`): the conversation's messages found by words
 * (docs/protocol.md searchMessage, the words marked), or listed by kind or member; each opens the chat at
 * it. By date, a day and a time of it (docs/product.md §5's range) open the chat at the first message from
 * then.
 */
export default function RecordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const key = params.get('id') ?? '';
  const filter: Filter = (FILTERS as readonly string[]).includes(params.get('filter') ?? '')
    ? (params.get('filter') as Filter)
    : 'all';
  const member = Number(params.get('member')) || null;
  const [query, setQuery] = useState(params.get('keywords') ?? '');
  const [words, setWords] = useState(query.trim());
  const contact = useContacts((s) => s.rows[key]);
  const me = useSession((s) => s.user);
  const group = useGroup(key);

  useEffect(() => {
    const timer = setTimeout(() => setWords(query.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  // Pictures and videos have no words: searching lists every kind that has.
  const kind = words && filter === 'media' ? 'all' : filter;

  const remarkFor = useRemarks();
  const people = useMemo(() => {
    if (isGroupKey(key))
      return group.members.map((m) => ({
        id: m.user_id,
        name: memberName(m, remarkFor(m.user_id)),
        avatar: m.userInfo.avatar,
      }));
    const people = me ? [{ id: me.user_id, name: me.realname, avatar: me.avatar }] : [];
    if (contact && key !== SELF_KEY && typeof contact.user_id === 'number')
      people.push({ id: contact.user_id, name: contact.displayName, avatar: contact.avatar });
    return people;
  }, [key, group.members, me, contact, remarkFor]);

  /** The page after those shown (newest first), or the first: found by the words, or listed by kind or member. */
  const read = useCallback(
    async ({ items, pages }: Loaded<Message>) => {
      const target = { toContactId: contactIdOf(key), is_group: isGroupOf(key) };
      if (words) {
        const { data } = await request(
          'searchMessage',
          {
            ...target,
            keywords: words,
            limit: PAGE,
            page: pages + 1,
            ...(kind === 'file' && { type: 'file' as const }),
            ...(kind === 'member' && member && { from_user: member }),
          },
          { silent: true },
        );
        return { items: data, more: data.length >= PAGE };
      }
      const { data } = await request(
        'getMessageList',
        {
          ...target,
          limit: PAGE,
          ...(items.length > 0 && { last_id: items.at(-1)!.msg_id }),
          ...(kind === 'media' && { type: 'media' }),
          ...(kind === 'file' && { type: 'file' }),
          ...(kind === 'member' && member && { from_user: member }),
        },
        { silent: true },
      );
      return { items: [...data].reverse(), more: data.length >= PAGE };
    },
    [key, words, kind, member],
  );
  const listed = Boolean(key) && kind !== 'date' && !(kind === 'member' && !member);
  const [list, pager] = usePagedList(read, messageKey, listed);

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

  const shown = list.items.filter((m) => m.type !== 'event');
  const busy = list.status === 'loading' || list.next === 'loading';

  return (
    <Page title={t('routes.record')}>
      <SearchBar value={query} onChange={setQuery} placeholder={t('record.search')} />
      <fieldset className="segmented record-filters">
        <legend>{t('record.filter')}</legend>
        {FILTERS.map((f) => (
          <label key={f}>
            <input
              type="radio"
              name="filter"
              checked={kind === f}
              disabled={f === 'media' && Boolean(words)}
              onChange={() => setFilter(f)}
            />
            {t(`record.${f}`)}
          </label>
        ))}
      </fieldset>
      {kind === 'member' && (
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
      {kind === 'date' ? (
        <DayPicker onOpen={(msgId) => void navigate(chatAt(key, msgId))} chatKey={key} />
      ) : kind === 'member' && !member ? (
        <p className="form-note">{t('record.pickMemberHint')}</p>
      ) : list.status === 'failed' && shown.length === 0 ? (
        <EmptyState icon={<SearchOutline />} title={t('record.failed')} description={t('record.failedDesc')}>
          <button type="button" className="button button-default" onClick={() => void pager.start()}>
            {t('common.retry')}
          </button>
        </EmptyState>
      ) : shown.length === 0 && busy ? (
        <p className="search-tip" role="status">
          {t('common.loading')}
        </p>
      ) : shown.length === 0 ? (
        <EmptyState
          icon={<SearchOutline />}
          title={t('record.empty')}
          description={words ? t('record.emptyWords', { words }) : t('record.emptyDesc')}
        />
      ) : kind === 'media' ? (
        <MediaByMonth messages={shown} busy={busy} />
      ) : (
        <ul className="record-list" aria-busy={busy}>
          {shown.map((m) => (
            <HitRow key={m.msg_id} hit={m as Message & Partial<SearchHit>} chatKey={key} words={words} />
          ))}
        </ul>
      )}
      {kind !== 'date' && list.more && (
        <div className="actions">
          <button type="button" className="button button-default" disabled={busy} onClick={() => void pager.loadMore()}>
            {list.next === 'failed' ? t('common.retry') : t('record.more')}
          </button>
        </div>
      )}
    </Page>
  );
}

/**
 * The history's pictures and videos, newest first: square tiles three to a row under the month
 * they were sent in, as WeChat shows them.
 */
function MediaByMonth({ messages, busy }: { messages: readonly Message[]; busy: boolean }) {
  const { i18n } = useTranslation();
  const months = useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, { year: 'numeric', month: 'long' });
    const out: { name: string; items: Message[] }[] = [];
    for (const m of messages) {
      const name = format.format(m.sendTime);
      const last = out.at(-1);
      if (last?.name === name) last.items.push(m);
      else out.push({ name, items: [m] });
    }
    return out;
  }, [messages, i18n.language]);
  return (
    <div aria-busy={busy}>
      {months.map((month) => (
        <section key={month.name} aria-label={month.name}>
          <h2 className="record-month">{month.name}</h2>
          <ul className="record-media">
            {month.items.map((m) => (
              <li key={m.msg_id}>
                <MediaMessage message={m} tile />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/**
 * The history's date picker: a day within DATE_PICKER_YEARS of this year and a time from 00:00 to
 * 23:59 (docs/product.md §5); opens the chat at the first message from then to the end of that day.
 */
function DayPicker({ chatKey: key, onOpen }: { chatKey: string; onOpen(msgId: number): void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [day, setDay] = useState(() => dayOf(new Date()));
  const [clock, setClock] = useState(DAY_START);
  const [state, setState] = useState<'idle' | 'busy' | 'none' | 'failed' | 'invalid'>('idle');
  const year = new Date().getFullYear();
  const min = `${pad(year - DATE_PICKER_YEARS, 4)}-01-01`;
  const max = `${pad(year + DATE_PICKER_YEARS, 4)}-12-31`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const from = localTime(day, clock || DAY_START);
    const to = localTime(day, DAY_END) + 59_999;
    if (Number.isNaN(from) || day < min || day > max || from > to) {
      setState('invalid');
      return;
    }
    setState('busy');
    try {
      const { data } = await request(
        'getMessageList',
        { toContactId: contactIdOf(key), is_group: isGroupOf(key), start_time: from, end_time: to, limit: 1 },
        { silent: true },
      );
      const first = data[0];
      if (first) onOpen(first.msg_id);
      else setState('none');
    } catch {
      setState('failed');
    }
  };

  const dayText = Number.isNaN(localTime(day, DAY_START))
    ? day
    : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(localTime(day, DAY_START));
  return (
    <>
      <form className="record-date" onSubmit={(e) => void submit(e)} aria-describedby={`${id}-note`}>
        <label>
          {t('record.day')}
          <input
            type="date"
            required
            min={min}
            max={max}
            value={day}
            onChange={(e) => {
              setDay(e.target.value);
              setState('idle');
            }}
          />
        </label>
        <label>
          {t('record.from')}
          <input
            type="time"
            min={DAY_START}
            max={DAY_END}
            step={60}
            value={clock}
            onChange={(e) => {
              setClock(e.target.value);
              setState('idle');
            }}
          />
        </label>
        <button type="submit" className="button button-primary" disabled={state === 'busy'}>
          {t('record.jump')}
        </button>
      </form>
      <p className="record-date-note" id={`${id}-note`} role="status">
        {state === 'none'
          ? t('record.dayEmpty', { day: dayText })
          : state === 'failed'
            ? t('record.failed')
            : state === 'invalid'
              ? t('record.dayInvalid', { from: min, to: max })
              : t('record.dayHint')}
      </p>
    </>
  );
}
