import type { MessageKey } from '../i18n/keys';
import { lazyPage, type LazyPage } from './lazy-page';
import { paths } from './paths';

export interface AppRoute {
  path: string;
  /** The route's title (spec §2), translated. */
  title: MessageKey;
  page: LazyPage;
  /** Needs a signed-in user. */
  auth: boolean;
}

const loginEntry = lazyPage(() => import('../pages/login/index'));

/** The spec's route table (§2), the routes built so far; each page is its own chunk. */
export const appRoutes: readonly AppRoute[] = [
  { path: paths.entry, title: 'routes.login', page: loginEntry, auth: false },
  { path: paths.entryAlias, title: 'routes.login', page: loginEntry, auth: false },
  {
    path: paths.home,
    title: 'routes.home',
    page: lazyPage(() => import('../pages/index/index')),
    auth: true,
  },
  {
    path: paths.autoLogin,
    title: 'routes.autoLogin',
    page: lazyPage(() => import('../pages/login/autoLogin')),
    auth: false,
  },
  {
    path: paths.login,
    title: 'routes.login',
    page: lazyPage(() => import('../pages/login/login')),
    auth: false,
  },
  {
    path: paths.register,
    title: 'routes.register',
    page: lazyPage(() => import('../pages/login/register')),
    auth: false,
  },
  {
    path: paths.webview,
    title: 'routes.webview',
    page: lazyPage(() => import('../pages/mine/webview')),
    auth: false,
  },
  {
    path: paths.profile,
    title: 'routes.profile',
    page: lazyPage(() => import('../pages/mine/profile')),
    auth: true,
  },
  {
    path: paths.secure,
    title: 'routes.secure',
    page: lazyPage(() => import('../pages/mine/secure')),
    auth: true,
  },
  {
    path: paths.about,
    title: 'routes.about',
    page: lazyPage(() => import('../pages/mine/about')),
    auth: false,
  },
  {
    path: paths.setting,
    title: 'routes.setting',
    page: lazyPage(() => import('../pages/mine/setting')),
    auth: true,
  },
  {
    path: paths.doc,
    title: 'routes.doc',
    page: lazyPage(() => import('../pages/mine/doc')),
    auth: false,
  },
];

/** The route serving a pathname; paths match case-insensitively like the router's. */
export function findRoute(pathname: string): AppRoute | undefined {
  const p = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return appRoutes.find((r) => r.path.toLowerCase() === p);
}

/** Fetches the chunk of the page a path opens, so following a link shows it at once. */
export function preloadRoute(path: string): void {
  void findRoute(path)
    ?.page.preload()
    .catch(() => {
      // A failed preload is retried, with its own error screen, when the page is opened.
    });
}
