import { ADD_GROUP_USER_MAX, FORWARD_MAX, FORWARD_MIN, type Contact } from '@sparrow/protocol';
import { CheckCircleFill } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Virtuoso } from 'react-virtuoso';
import { api } from '../../api';
import { feedback } from '../../app/feedback';
import { useBack } from '../../app/navigation';
import { chatPath } from '../../app/paths';
import { ContactAvatar } from '../../components/ContactAvatar';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SearchBar } from '../../components/SearchBar';
import { compareConversations, contactKey, groupContacts } from '../../lib/conversation-list';
import { contacts, useContacts } from '../../stores/contacts';
import { UserContactOutline } from 'antd-mobile-icons';
import '../pages.css';

/**
 * What the picker is for: forwarding a message (1–5 people or groups), starting a group (two or
 * more people), or inviting people into a group (up to 20 at once).
 */
type Mode = 'forward' | 'group' | 'add';

const GROUP_MIN_OTHERS = 2;

function limits(mode: Mode): { min: number; max: number } {
  if (mode === 'forward') return { min: FORWARD_MIN, max: FORWARD_MAX };
  if (mode === 'add') return { min: 1, max: ADD_GROUP_USER_MAX };
  return { min: GROUP_MIN_OTHERS, max: Number.POSITIVE_INFINITY };
}

/** User selection (spec §2 `/pages/index/userSelection`). */
export default function UserSelectionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = useBack();
  const [params] = useSearchParams();
  const mode: Mode = params.get('mode') === 'forward' ? 'forward' : params.get('mode') === 'add' ? 'add' : 'group';
  const msgId = Number(params.get('msg_id')) || 0;
  const groupId = params.get('group_id') ?? '';
  const withKey = params.get('with');
  const rows = useContacts((s) => s.rows);
  const [candidates, setCandidates] = useState<Contact[] | null>(null);
  const [picked, setPicked] = useState<string[]>(() => (withKey ? [withKey] : []));
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const { min, max } = limits(mode);

  useEffect(() => {
    if (mode === 'forward') {
      contacts.load().catch(() => {});
      return;
    }
    // People I may add: friends (or everyone in runMode 1), minus those already in the group.
    api.getAllUser(groupId ? { group_id: groupId } : {}, { silent: true }).then(setCandidates, () => setCandidates([]));
  }, [mode, groupId]);

  const list = useMemo(() => {
    let all: Contact[];
    if (mode === 'forward') {
      const values = Object.values(rows).filter((c) => c.is_group === 0 || c.is_group === 1);
      const recent = values.filter((c) => c.lastSendTime > 0).sort(compareConversations);
      const rest = groupContacts(values.filter((c) => c.lastSendTime <= 0)).items;
      const groups = values.filter((c) => c.is_group === 1 && c.lastSendTime <= 0);
      all = [...recent, ...groups, ...rest];
    } else {
      all = groupContacts(candidates ?? []).items;
    }
    const q = query.trim().toLowerCase();
    if (!q) return all;
    return all.filter((c) =>
      [c.displayName, c.realname ?? '', c.account ?? ''].some((s) => s.toLowerCase().includes(q)),
    );
  }, [mode, rows, candidates, query]);

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
        // As WeChat does, the chosen chats are named once more before anything is sent.
        const names = picked.map((k) => (byKey.get(k) ?? rows[k])?.displayName ?? k);
        const ok = await feedback.confirm({
          title: t('select.forwardTo'),
          content: names.join(t('select.nameSeparator')),
          confirmText: t('select.send'),
          cancelText: t('common.cancel'),
        });
        if (!ok) return;
        const user_ids = picked.map((k) => (k.startsWith('group-') ? (k as `group-${number}`) : Number(k)));
        await api.forwardMessage({ msg_id: msgId, user_ids }, { loading: true });
        back();
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
          useWindowScroll
          data={list}
          computeItemKey={(_, c) => contactKey(c.id)}
          itemContent={(_, c) => {
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
    </Page>
  );
}
