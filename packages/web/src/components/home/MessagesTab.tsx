import type { Contact } from '@sparrow/protocol';
import { BellMuteOutline, MessageOutline } from 'antd-mobile-icons';
import { memo, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Virtuoso } from 'react-virtuoso';
import { api } from '../../api';
import { isGroupOf } from '../../chat/registry';
import {
  badgeOf,
  contactIdOf,
  contactKey,
  contactName,
  conversationList,
  mutedCount,
  previewOf,
  SYSTEM_KEY,
} from '../../lib/conversation-list';
import { formatRelative } from '../../lib/relative-time';
import { useLongPress } from '../../lib/use-long-press';
import { useNow } from '../../lib/use-now';
import { chatPath, paths } from '../../nav/paths';
import { preloadRoute } from '../../nav/preload';
import { contacts, useContacts } from '../../stores/contacts';
import { drafts, useDrafts } from '../../stores/drafts';
import { useOutgoing, type OutgoingState } from '../../stores/outgoing';
import { ActionMenu, type MenuAction } from '../ActionMenu';
import { usePane } from '../desk/pane';
import { Badge } from '../Badge';
import { ContactAvatar } from '../ContactAvatar';
import { EmptyState } from '../EmptyState';
import { SearchEntry } from '../SearchBar';
import { SwipeRow, type SwipeAction } from '../SwipeRow';
import { AdminNoticeBar } from './AdminNoticeBar';
import { ConnectionBanner } from './ConnectionBanner';
import { WebLoginBar } from './WebLoginBar';
import '../lists.css';
import './home.css';

function rowPath(c: Contact): string {
  return c.id === SYSTEM_KEY ? paths.friend : chatPath(contactKey(c.id));
}

/** Pin, mute, delete: the same three from a swipe or from the row's menu. */
function useRowActions(c: Contact) {
  const { t } = useTranslation();
  const key = contactKey(c.id);
  const body = { id: contactIdOf(key), is_group: isGroupOf(key) };
  const setTop = async () => {
    const is_top = c.is_top ? 0 : 1;
    contacts.patch(key, { is_top });
    try {
      await api.setChatTop({ ...body, is_top }, { quiet: true });
    } catch {
      contacts.patch(key, { is_top: c.is_top });
    }
  };
  const setMute = async () => {
    const is_notice = c.is_notice ? 0 : 1;
    contacts.patch(key, { is_notice });
    try {
      await api.isNotice({ ...body, is_notice }, { quiet: true });
    } catch {
      contacts.patch(key, { is_notice: c.is_notice });
    }
  };
  const remove = async () => {
    const before = { lastSendTime: c.lastSendTime, unread: c.unread, is_at: c.is_at, is_top: c.is_top };
    const draft = drafts.get(key);
    contacts.forgetDeleted(key);
    contacts.patch(key, { lastSendTime: 0, unread: 0, is_at: 0, is_top: 0 });
    drafts.set(key, '');
    try {
      await api.delChat(body, { quiet: true });
      if (c.is_top) await api.setChatTop({ ...body, is_top: 0 }, { quiet: true });
    } catch {
      contacts.patch(key, before);
      drafts.set(key, draft);
    }
  };
  if (c.id === SYSTEM_KEY) return [];
  return [
    {
      key: 'top',
      label: c.is_top ? t('home.unpin') : t('home.pin'),
      tone: 'blue' as const,
      onSelect: () => void setTop(),
    },
    {
      key: 'mute',
      label: c.is_notice ? t('home.mute') : t('home.unmute'),
      tone: 'orange' as const,
      onSelect: () => void setMute(),
    },
    { key: 'delete', label: t('home.deleteChat'), tone: 'red' as const, onSelect: () => void remove() },
  ];
}

/** What the marker before a row's preview says. */
const MARKERS = { draft: 'home.draft', sending: 'home.sending', failed: 'home.sendFailed', at: 'home.atMe' } as const;

const ConversationRow = memo(function ConversationRow({
  contact: c,
  draft,
  outgoing,
  now,
  open,
}: {
  contact: Contact;
  draft: string;
  outgoing: OutgoingState | undefined;
  now: number;
  /** The chat shown beside the list (the wide layout). */
  open: boolean;
}) {
  const { t, i18n } = useTranslation();
  const actions: SwipeAction[] = useRowActions(c);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const press = useLongPress((x, y) => {
    if (actions.length) setMenu({ x, y });
  });
  const badge = badgeOf(c);
  const muted = mutedCount(c);
  const preview = previewOf(c, draft, outgoing);
  const marker = preview.marker ? t(MARKERS[preview.marker]) : '';
  const name = contactName(c, t);
  const unreadLabel =
    badge.kind === 'count' ? t('home.unread', { count: c.unread }) : badge.kind === 'dot' ? t('home.hasUnread') : '';
  const time = c.lastSendTime > 0 ? formatRelative(c.lastSendTime, now, t, i18n.language) : '';
  const link = (
    <Link
      className={`conv${c.is_top ? ' conv-top' : ''}`}
      to={rowPath(c)}
      aria-current={open ? 'page' : undefined}
      draggable={false}
      aria-label={[
        name,
        unreadLabel,
        marker,
        preview.text,
        time,
        c.is_top ? t('home.pinned') : '',
        c.is_notice ? '' : t('home.muted'),
      ]
        .filter(Boolean)
        .join(', ')}
      {...press}
    >
      <span className="conv-avatar">
        <ContactAvatar contact={c} size={48} />
        <Badge badge={badge} className="conv-badge" />
      </span>
      <span className="conv-main" aria-hidden="true">
        <span className="conv-line">
          <span className="conv-name">{name}</span>
          <span className="conv-time">{time}</span>
        </span>
        <span className="conv-line">
          <span className="conv-preview">
            {marker && (
              <span className={`conv-marker${preview.marker === 'sending' ? ' conv-marker-sending' : ''}`}>
                {marker}
              </span>
            )}
            {muted !== null && <span>{t('home.mutedCount', { count: muted })}</span>}
            {preview.text}
          </span>
          {c.is_notice === 0 && <BellMuteOutline className="conv-muted" />}
        </span>
      </span>
    </Link>
  );
  const menuActions: MenuAction[] = actions.map((a) => ({
    key: a.key,
    label: a.label,
    danger: a.tone === 'red',
    onSelect: a.onSelect,
  }));
  return (
    <>
      {actions.length ? <SwipeRow actions={actions}>{link}</SwipeRow> : link}
      {menu && (
        <ActionMenu anchor={menu} actions={menuActions} label={name} layout="list" onClose={() => setMenu(null)} />
      )}
    </>
  );
});

function ListHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <ConnectionBanner />
      <WebLoginBar />
      <AdminNoticeBar />
      <SearchEntry label={t('home.search')} onOpen={() => void navigate(paths.search)} />
    </>
  );
}

function ListEmpty({ context }: { context: { loaded: boolean } }) {
  const { t } = useTranslation();
  if (!context.loaded) return null;
  return (
    <EmptyState icon={<MessageOutline />} title={t('home.messagesEmpty')} description={t('home.messagesEmptyDesc')} />
  );
}

/** Rows a phone's screen shows of the list. */
const FIRST_ROWS = 12;

/** The Messages tab (docs/product.md §2 tab 0): conversations, pinned first, then the newest. */
export function MessagesTab() {
  const { t } = useTranslation();
  const rows = useContacts((s) => s.rows);
  const loaded = useContacts((s) => s.loaded);
  const draftMap = useDrafts((s) => s.drafts);
  const outgoingMap = useOutgoing((s) => s.byKey);
  const list = useMemo(
    () => conversationList(Object.values(rows), draftMap, outgoingMap),
    [rows, draftMap, outgoingMap],
  );
  const now = useNow();
  // Beside the chat it opened (the wide layout), the list marks that chat; on a phone the chat covers it.
  const openKey = usePane()?.openChat ?? null;
  useEffect(() => {
    // The next screen after a tap on a conversation, fetched while the list is read.
    preloadRoute(paths.chat);
  }, []);
  return (
    <section className="fill" aria-label={t('tabs.messages')}>
      <Virtuoso
        className="fill-list"
        data={list}
        // The rows kept on the device paint with the list's first frame, before it has measured itself.
        initialItemCount={Math.min(list.length, FIRST_ROWS)}
        context={{ loaded }}
        computeItemKey={(_, c) => contactKey(c.id)}
        components={{ Header: ListHeader, EmptyPlaceholder: ListEmpty }}
        itemContent={(_, c) => (
          <ConversationRow
            contact={c}
            draft={draftMap[contactKey(c.id)] ?? ''}
            outgoing={outgoingMap[contactKey(c.id)]}
            now={now}
            open={openKey === contactKey(c.id)}
          />
        )}
      />
    </section>
  );
}
