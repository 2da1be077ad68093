import { CompassOutline, MessageOutline, UserContactOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { ConnectionBanner } from '../../components/home/ConnectionBanner';
import { MeTab } from '../../components/home/MeTab';
import { Page } from '../../components/Page';
import { TabBar, type TabItem } from '../../components/TabBar';

const TAB_KEYS = ['messages', 'contacts', 'discover', 'me'] as const;
type Tab = (typeof TAB_KEYS)[number];

function isTab(v: string | null): v is Tab {
  return (TAB_KEYS as readonly (string | null)[]).includes(v);
}

/** Home (tab 0) with the bottom tab bar; `?tab=` keeps the open tab across reloads. */
export default function HomePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'messages';

  const items: TabItem<Tab>[] = [
    { key: 'messages', label: t('tabs.messages'), icon: <MessageOutline /> },
    { key: 'contacts', label: t('tabs.contacts'), icon: <UserContactOutline /> },
    { key: 'discover', label: t('tabs.discover'), icon: <CompassOutline /> },
    { key: 'me', label: t('tabs.me'), icon: <UserOutline /> },
  ];
  const current = items.find((i) => i.key === tab) ?? items[0]!;

  return (
    <Page
      title={current.label}
      back={false}
      className="home"
      footer={
        <TabBar
          items={items}
          active={tab}
          onChange={(key) => setParams(key === 'messages' ? {} : { tab: key }, { replace: true })}
        />
      }
    >
      {tab === 'messages' && (
        <>
          <ConnectionBanner />
          <EmptyState
            icon={<MessageOutline />}
            title={t('home.messagesEmpty')}
            description={t('home.messagesEmptyDesc')}
          />
        </>
      )}
      {tab === 'contacts' && (
        <EmptyState
          icon={<UserContactOutline />}
          title={t('home.contactsEmpty')}
          description={t('home.contactsEmptyDesc')}
        />
      )}
      {tab === 'discover' && (
        <EmptyState
          icon={<CompassOutline />}
          title={t('home.discoverEmpty')}
          description={t('home.discoverEmptyDesc')}
        />
      )}
      {tab === 'me' && <MeTab />}
    </Page>
  );
}
