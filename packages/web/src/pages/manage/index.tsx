import { CloseCircleOutline, LockOutline } from 'antd-mobile-icons';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { useBackTo } from '../../nav/navigation';
import { paths } from '../../nav/paths';
import { useSession } from '../../stores/session';
import { Audit } from './Audit';
import { Dashboard } from './Dashboard';
import { Departments } from './Departments';
import { Directory } from './Directory';
import { Groups } from './Groups';
import { Held } from './Held';
import { useManageTexts } from './i18n';
import { Keywords } from './Keywords';
import { Notices } from './Notices';
import { Reports } from './Reports';
import { Settings } from './Settings';
import { Sso } from './Sso';
import { MANAGE_TABS, manageTabPath, type ManageTab } from './tabs';
import { Users } from './Users';
import './manage.css';

const AREAS = {
  dashboard: Dashboard,
  users: Users,
  departments: Departments,
  groups: Groups,
  settings: Settings,
  sso: Sso,
  directory: Directory,
  notices: Notices,
  reports: Reports,
  keywords: Keywords,
  held: Held,
  audit: Audit,
} as const;

const isTab = (v: string | null): v is ManageTab => (MANAGE_TABS as readonly (string | null)[]).includes(v);

/** 管理后台 (`/manage/index?tab=`): the administration console, one area per tab. */
export default function ManagePage() {
  const { t: tApp, i18n } = useTranslation();
  const back = useBackTo(paths.home);
  const [params] = useSearchParams();
  const tab = isTab(params.get('tab')) ? (params.get('tab') as ManageTab) : 'dashboard';
  const isAdmin = useSession((s) => s.user?.role === 1);
  const texts = useManageTexts();
  const { t } = texts;
  const title = tApp('routes.manage');
  const tabs = useRef<HTMLElement>(null);
  // On a phone the tabs scroll sideways: the current one is brought into view, also when a link
  // (the overview's "whole audit log") rather than the tab itself opened it.
  useEffect(() => {
    tabs.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab, texts.ready, isAdmin]);

  if (texts.failed)
    return (
      <Page title={title} onBack={back}>
        <EmptyState
          icon={<CloseCircleOutline />}
          title={tApp('lazy.failedTitle')}
          description={tApp('lazy.failedDesc')}
        >
          <button type="button" className="button button-primary" onClick={texts.retry}>
            {tApp('common.retry')}
          </button>
        </EmptyState>
      </Page>
    );
  if (!texts.ready)
    return (
      <Page title={title} onBack={back}>
        <DelayedSpinner />
      </Page>
    );
  if (!isAdmin)
    return (
      <Page title={title} onBack={back}>
        <EmptyState icon={<LockOutline />} title={t('common.forbidden')} description={t('common.forbiddenDesc')} />
      </Page>
    );

  const Area = AREAS[tab];
  return (
    <Page title={title} onBack={back} className="manage-page">
      <nav ref={tabs} className="manage-tabs" aria-label={t('tabs.label')}>
        <ul>
          {MANAGE_TABS.map((name) => (
            <li key={name}>
              <Link
                to={manageTabPath(name)}
                replace
                className="manage-tab"
                aria-current={name === tab ? 'page' : undefined}
              >
                {t(`tabs.${name}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="manage-area">
        <h2 className="visually-hidden">{t(`tabs.${tab}`)}</h2>
        <Area key={tab} t={t} locale={i18n.language} />
      </div>
    </Page>
  );
}
