import { CompassOutline, MessageOutline, UserContactOutline, UserOutline } from 'antd-mobile-icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { usePane } from '../../components/desk/pane';
import { AddMenu } from '../../components/home/AddMenu';
import { ContactsTab } from '../../components/home/ContactsTab';
import { DiscoverTab } from '../../components/home/DiscoverTab';
import { MeTab } from '../../components/home/MeTab';
import { MessagesTab } from '../../components/home/MessagesTab';
import { Page } from '../../components/Page';
import { TabBar, type TabItem } from '../../components/TabBar';
import { badgeText, hasMutedUnread } from '../../lib/conversation-list';
import { homeAddress, homeTab, type RailTab as Tab } from '../../lib/desk-panes';
import { hasMoments } from '../../components/home/CompassEntries';
import { contacts, selectUnread, useContacts } from '../../stores/contacts';
import { useConfig } from '../../stores/config';
import { moments, useMoments } from '../../stores/moments';

/**
 * Home with the bottom tab bar: Messages at /pages/index/index (tab 0), Contacts at
 * /pages/contacts/index (tab 1); Discover and Me keep `?tab=` so a reload stays on them. In the wide
 * layout it is the list pane, its tab bar the rail, its tab the rail's whatever the middle shows.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const pane = usePane();
  const tab: Tab = pane?.tab ?? homeTab(location);
  const unread = useContacts(selectUnread);
  const mutedUnread = useContacts((s) => hasMutedUnread(Object.values(s.rows)));
  const pending = useContacts((s) => s.pending);
  // The Discover tab carries what its Moments entry shows: new notices counted, new posts a dot.
  const momentsOn = useConfig((s) => hasMoments(s.config?.compass));
  const momentNotices = useMoments((s) => s.count);
  const newPosts = useMoments((s) => s.poster > 0);
  useEffect(() => {
    if (momentsOn) void moments.refresh();
  }, [momentsOn]);

  useEffect(() => {
    contacts.load().catch(() => {
      // Offline: the stored lists stay on screen; the socket's catch-up loads them later.
    });
    void contacts.loadNotice();
  }, []);

  const items: TabItem<Tab>[] = [
    {
      key: 'messages',
      label: t('tabs.messages'),
      icon: <MessageOutline />,
      badge: unread > 0 ? { kind: 'count', text: badgeText(unread) } : mutedUnread ? { kind: 'dot' } : undefined,
      badgeLabel: unread > 0 ? t('home.unread', { count: unread }) : mutedUnread ? t('home.hasUnread') : undefined,
    },
    {
      key: 'contacts',
      label: t('tabs.contacts'),
      icon: <UserContactOutline />,
      badge: pending > 0 ? { kind: 'count', text: badgeText(pending) } : undefined,
      badgeLabel: pending > 0 ? t('contacts.pendingCount', { count: pending }) : undefined,
    },
    {
      key: 'discover',
      label: t('tabs.discover'),
      icon: <CompassOutline />,
      badge: !momentsOn
        ? undefined
        : momentNotices > 0
          ? { kind: 'count', text: badgeText(momentNotices) }
          : newPosts
            ? { kind: 'dot' }
            : undefined,
      badgeLabel: !momentsOn
        ? undefined
        : momentNotices > 0
          ? t('moments.newNotices', { count: momentNotices })
          : newPosts
            ? t('moments.newPosts')
            : undefined,
    },
    { key: 'me', label: t('tabs.me'), icon: <UserOutline /> },
  ];
  const current = items.find((i) => i.key === tab) ?? items[0]!;
  const title =
    tab === 'messages' && unread > 0
      ? t('home.titleCount', { title: current.label, count: badgeText(unread) })
      : current.label;

  const handleTab = (key: Tab) => {
    if (pane?.onRail) pane.onRail(key);
    else void navigate(homeAddress(key), { replace: true });
  };

  const fill = tab === 'messages' || tab === 'contacts';
  return (
    <Page
      title={title}
      back={false}
      className={`home${fill ? ' home-fill' : ''}`}
      right={fill ? <AddMenu /> : undefined}
      footer={<TabBar items={items} active={tab} onChange={handleTab} />}
    >
      {tab === 'messages' && <MessagesTab />}
      {tab === 'contacts' && <ContactsTab />}
      {tab === 'discover' && <DiscoverTab />}
      {tab === 'me' && <MeTab />}
    </Page>
  );
}
