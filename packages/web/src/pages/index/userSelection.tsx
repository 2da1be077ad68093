import {
  ADD_GROUP_USER_MAX,
  FORWARD_MAX,
  FORWARD_MIN,
  FORWARD_RECORD_MAX,
  TEXT_MESSAGE_MAX,
  type Contact,
  type ForwardMode,
} from '@sparrow/protocol';
import { CheckCircleFill } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Virtuoso } from 'react-virtuoso';
import { api } from '../../api';
import { engineFor } from '../../chat/registry';
import { ContactAvatar } from '../../components/ContactAvatar';
import { feedback } from '../../components/feedback';
import { Sheet } from '../../components/Sheet';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SearchBar } from '../../components/SearchBar';
import { compareConversations, contactKey, groupContacts } from '../../lib/conversation-list';
import { usePane } from '../../components/desk/pane';
import { useBack } from '../../nav/navigation';
import { chatPath } from '../../nav/paths';
import { contacts, useContacts } from '../../stores/contacts';
import { UserContactOutline } from 'antd-mobile-icons';
import '../pages.css';

/**
 * What the picker is for: forwarding a message (1–5 people or groups), starting a group (two or
 * more people), or inviting people into a group (up to 20 at once).
 */
type Mode = 'forward' | 'group' | 'add';

const GROUP_MIN_OTHERS = 2;

/** The msg_ids a multi-select forward names (`msg_ids=3,5,8`), at most FORWARD_RECORD_MAX. */
function idsOf(list: string | null): number[] {
  const ids = (list ?? '').split(',').map(Number);
  return [...new Set(ids.filter((n) => Number.isInteger(n) && n > 0))].slice(0, FORWARD_RECORD_MAX);
}

function limits(mode: Mode): { min: number; max: number } {
  if (mode === 'forward') return { min: FORWARD_MIN, max: FORWARD_MAX };
  if (mode === 'add') return { min: 1, max: ADD_GROUP_USER_MAX };
  return { min: GROUP_MIN_OTHERS, max: Number.POSITIVE_INFINITY };
}

/** User selection (docs/product.md §2 `/pages/index/userSelection`). */
export default function UserSelectionPage() {
  const { t } = useTranslation();
  // In the wide layout the pane scrolls, not the window.
  const scroller = usePane()?.scroller;
  const navigate = useNavigate();
  const back = useBack();
  const [params] = useSearchParams();
  const mode: Mode = params.get('mode') === 'forward' ? 'forward' : params.get('mode') === 'add' ? 'add' : 'group';
  const msgId = Number(params.get('msg_id')) || 0;
  // Multi-select (多选): the chosen messages and how they go, one by one or as one record.
  const msgIds = useMemo(() => idsOf(params.get('msg_ids')), [params]);
  const forwardMode: ForwardMode = params.get('forward_mode') === 'merge' ? 'merge' : 'each';
  /** Forwarding one of my favourites (收藏 → 发送给朋友) rather than a message. */
  const favoriteId = Number(params.get('favorite_id')) || 0;
  const groupId = params.get('group_id') ?? '';
  const withKey = params.get('with');
  const rows = useContacts((s) => s.rows);
  const [candidates, setCandidates] = useState<Contact[] | null>(null);
  const [picked, setPicked] = useState<string[]>(() => (withKey ? [withKey] : []));
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  /** Forwarding: the chosen chats are shown once more, with a note to send after the message. */
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const { min, max } = limits(mode);

  useEffect(() => {
    if (mode === 'forward') {
      contacts.load().catch(() => {});
      return;
    }
    // People I may add: friends (or everyone in runMode 1), minus those already in the group.
    api.getAllUser(groupId ? { group_id: groupId } : {}, { silent: true }).then(setCandidates, () => setCandidates([]));
  }, [mode, groupId]);

  const { list, sections } = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matches = (c: Contact) =>
      !q || [c.displayName, c.realname ?? '', c.account ?? ''].some((s) => s.toLowerCase().includes(q));
    if (mode !== 'forward') {
      const all = groupContacts(candidates ?? []).items.filter(matches);
      return { list: all, sections: [{ title: '', items: all }] };
    }
    // As WeChat's picker: recent chats first, then groups, then contacts; a disbanded group takes nothing.
    const values = Object.values(rows).filter(
      (c) => (c.is_group === 0 || c.is_group === 1) && c.disbanded !== 1 && matches(c),
    );
    const recent = values.filter((c) => c.lastSendTime > 0).sort(compareConversations);
    const groups = values.filter((c) => c.is_group === 1 && c.lastSendTime <= 0);
    const rest = groupContacts(values.filter((c) => c.is_group === 0 && c.lastSendTime <= 0)).items;
    const parts = [
      { title: t('select.recent'), items: recent },
      { title: t('select.groups'), items: groups },
      { title: t('select.contacts'), items: rest },
    ].filter((p) => p.items.length > 0);
    return { list: parts.flatMap((p) => p.items), sections: parts };
  }, [mode, rows, candidates, query, t]);

  /** The list as shown: each section's title, then its rows. */
  const shown = useMemo(
    () =>
      sections.flatMap((p) => [
        ...(p.title ? [{ kind: 'title' as const, title: p.title }] : []),
        ...p.items.map((c) => ({ kind: 'row' as const, contact: c })),
      ]),
    [sections],
  );

  const byKey = useMemo(() => new Map(list.map((c) => [contactKey(c.id), c])), [list]);
  const toggle = (key: string) => {
    setPicked((p) => {
      if (p.includes(key)) return p.filter((k) => k !== key);
      if (p.length >= max) {
        feedback.toast(t('select.atMost', { count: max }));
        return p;
      }
      return [...p, key];
    });
  };

  const handleDone = async () => {
    if (picked.length < min) return;
    setBusy(true);
    try {
      if (mode === 'forward') {
        // As WeChat does, the chosen chats are named once more, with room for a note, before anything is sent.
        setConfirming(true);
      } else if (mode === 'add') {
        await api.addGroupUser({ id: groupId, user_ids: picked.map(Number) }, { loading: true });
        back();
      } else {
        const group = await api.groupAdd({ user_ids: picked.map(Number) }, { loading: true });
        contacts.upsert(group);
        void navigate(chatPath(contactKey(group.id)), { replace: true });
      }
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };

  const forward = async () => {
    setBusy(true);
    try {
      const user_ids = picked.map((k) => (k.startsWith('group-') ? (k as `group-${number}`) : Number(k)));
      if (msgIds.length) {
        // The server sends the note after them, in each chat.
        const text = note.trim();
        await api.forwardMessages(
          { msg_ids: msgIds, user_ids, mode: forwardMode, ...(text && { note: text }) },
          { loading: true },
        );
        setConfirming(false);
        back();
        return;
      }
      if (favoriteId) await api.favoriteSend({ id: favoriteId, user_ids }, { loading: true });
      else await api.forwardMessage({ msg_id: msgId, user_ids }, { loading: true });
      // The note follows the message into each chat, kept on this device until the server has it.
      const text = note.trim();
      if (text) for (const k of picked) engineFor(k).send({ type: 'text', content: text, at: [] });
      setConfirming(false);
      back();
    } catch {
      // The request layer said why.
    } finally {
      setBusy(false);
    }
  };

  const title =
    mode === 'forward' ? t('select.forwardTitle') : mode === 'add' ? t('select.addTitle') : t('select.groupTitle');
  const doneLabel = mode === 'forward' ? t('select.send') : t('select.done');
  const ready = picked.length >= min && !busy;
  return (
    <Page
      title={title}
      className="select-page"
      right={
        <button type="button" className="navbar-action navbar-done" disabled={!ready} onClick={() => void handleDone()}>
          {picked.length ? `${doneLabel}(${picked.length})` : doneLabel}
        </button>
      }
    >
      <p className="select-hint" aria-live="polite">
        {mode === 'forward'
          ? t('select.forwardHint', { count: picked.length, max })
          : mode === 'add'
            ? t('select.addHint', { count: picked.length, max })
            : t('select.groupHint', { count: picked.length, min })}
      </p>
      {picked.length > 0 && (
        <ul className="picked" aria-label={t('select.picked')}>
          {picked.map((k) => {
            const c = byKey.get(k) ?? rows[k];
            if (!c) return null;
            return (
              <li key={k}>
                <button
                  type="button"
                  className="picked-chip"
                  aria-label={t('select.remove', { name: c.displayName })}
                  onClick={() => toggle(k)}
                >
                  <ContactAvatar contact={c} size={36} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <SearchBar value={query} onChange={setQuery} placeholder={t('common.search')} />
      {mode !== 'forward' && candidates !== null && list.length === 0 ? (
        <EmptyState icon={<UserContactOutline />} title={t('select.nobody')} description={t('select.nobodyDesc')} />
      ) : (
        <Virtuoso
          {...(scroller ? { customScrollParent: scroller } : { useWindowScroll: true })}
          data={shown}
          computeItemKey={(_, item) => (item.kind === 'title' ? `title:${item.title}` : contactKey(item.contact.id))}
          itemContent={(_, item) => {
            if (item.kind === 'title') return <h2 className="select-section">{item.title}</h2>;
            const c = item.contact;
            const key = contactKey(c.id);
            const on = picked.includes(key);
            return (
              <label className="select-row">
                <input type="checkbox" className="select-check-input" checked={on} onChange={() => toggle(key)} />
                <span className={`select-check${on ? ' select-check-on' : ''}`} aria-hidden="true">
                  {on && <CheckCircleFill />}
                </span>
                <ContactAvatar contact={c} size={40} />
                <span className="select-name">{c.displayName}</span>
              </label>
            );
          }}
        />
      )}
      {confirming && (
        <Sheet title={t('select.forwardTo')} onClose={() => setConfirming(false)}>
          <ul className="forward-to" aria-label={t('select.picked')}>
            {picked.map((k) => {
              const c = byKey.get(k) ?? rows[k];
              return c ? (
                <li key={k}>
                  <ContactAvatar contact={c} size={40} />
                </li>
              ) : null;
            })}
          </ul>
          <p className="forward-names">
            {picked.map((k) => (byKey.get(k) ?? rows[k])?.displayName ?? k).join(t('select.nameSeparator'))}
          </p>
          {msgIds.length > 0 && (
            <p className="forward-summary">
              {forwardMode === 'merge'
                ? t('multiSelect.mergeSummary', { count: msgIds.length })
                : t('multiSelect.eachSummary', { count: msgIds.length })}
            </p>
          )}
          <input
            className="forward-note"
            type="text"
            value={note}
            maxLength={TEXT_MESSAGE_MAX}
            placeholder={t('select.note')}
            aria-label={t('select.note')}
            onChange={(e) => setNote(e.target.value)}
          />
          <div className="forward-actions">
            <button type="button" className="button button-default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void forward()}>
              {t('select.send')}
            </button>
          </div>
        </Sheet>
      )}
    </Page>
  );
}
