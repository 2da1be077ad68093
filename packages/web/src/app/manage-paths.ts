import { withQuery } from './paths';

/** The administration console (Raingad's `#/manage/*`), for users whose role is admin. */
export const managePaths = {
  /** 管理后台: the dashboard, or with `tab` one area of it. */
  console: '/manage/index',
} as const;

/** The console's areas, each a tab of the console page. */
export const MANAGE_TABS = ['dashboard', 'users', 'departments', 'groups', 'settings', 'notices'] as const;
export type ManageTab = (typeof MANAGE_TABS)[number];

export const manageTabPath = (tab: ManageTab) =>
  withQuery(managePaths.console, { tab: tab === 'dashboard' ? undefined : tab });
