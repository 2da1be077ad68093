import { managePaths, withQuery } from '../../nav/paths';

/**
 * The console's areas, each a tab of the console page. Kept with the console, not in nav/paths.ts, so
 * that the list travels in the console's chunk and the first screen does not carry it.
 */
export const MANAGE_TABS = [
  'dashboard',
  'users',
  'departments',
  'groups',
  'settings',
  'sso',
  'directory',
  'notices',
  'reports',
  'keywords',
  'held',
  'audit',
] as const;
export type ManageTab = (typeof MANAGE_TABS)[number];

export const manageTabPath = (tab: ManageTab) =>
  withQuery(managePaths.console, { tab: tab === 'dashboard' ? undefined : tab });
