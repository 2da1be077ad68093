import { afterLocale } from '../i18n';
import type { MessageKey } from '../i18n/keys';
import {
  callPaths,
  groupPaths,
  managePaths,
  mediaPaths,
  momentPaths,
  paths,
  publicPaths,
  qrPaths,
  routePathOf,
} from '../nav/paths';
import { setRoutePreloader } from '../nav/preload';
import { lazyPage, type LazyPage } from './lazy-page';

export interface AppRoute {
  path: string;
  /** The route's title (docs/product.md §2), translated. */
  title: MessageKey;
  page: LazyPage;
  /** Needs a signed-in user: every page but nav/paths.ts's `publicPaths`. */
  auth: boolean;
}

const loginEntry = lazyPage(() => import('../pages/login/index'));
const home = lazyPage(() => import('../pages/index/index'));

const routes: readonly Omit<AppRoute, 'auth'>[] = [
  { path: paths.entry, title: 'routes.login', page: loginEntry },
  { path: paths.entryAlias, title: 'routes.login', page: loginEntry },
  {
    path: paths.home,
    title: 'routes.home',
    page: home,
  },
  {
    path: paths.autoLogin,
    title: 'routes.autoLogin',
    page: lazyPage(() => import('../pages/login/autoLogin')),
  },
  {
    path: paths.login,
    title: 'routes.login',
    page: lazyPage(() => import('../pages/login/login')),
  },
  {
    path: paths.register,
    title: 'routes.register',
    page: lazyPage(() => import('../pages/login/register')),
  },
  {
    path: paths.webview,
    title: 'routes.webview',
    page: lazyPage(afterLocale(() => import('../pages/mine/webview'))),
  },
  {
    path: paths.profile,
    title: 'routes.profile',
    page: lazyPage(() => import('../pages/mine/profile')),
  },
  {
    path: paths.secure,
    title: 'routes.secure',
    page: lazyPage(() => import('../pages/mine/secure')),
  },
  {
    path: paths.devices,
    title: 'routes.devices',
    page: lazyPage(() => import('../pages/mine/devices')),
  },
  {
    path: paths.twoStep,
    title: 'routes.twoStep',
    page: lazyPage(() => import('../pages/mine/two-step')),
  },
  {
    path: paths.passkeys,
    title: 'routes.passkeys',
    page: lazyPage(() => import('../pages/mine/passkeys')),
  },
  {
    path: paths.tokens,
    title: 'routes.tokens',
    page: lazyPage(() => import('../pages/mine/tokens')),
  },
  {
    path: paths.bots,
    title: 'routes.bots',
    page: lazyPage(() => import('../pages/mine/bots')),
  },
  {
    path: paths.about,
    title: 'routes.about',
    page: lazyPage(afterLocale(() => import('../pages/mine/about'))),
  },
  {
    path: paths.setting,
    title: 'routes.setting',
    page: lazyPage(() => import('../pages/mine/setting')),
  },
  {
    path: paths.status,
    title: 'presence.statusTitle',
    page: lazyPage(() => import('../pages/mine/status')),
  },
  {
    path: paths.blocked,
    title: 'block.entry',
    page: lazyPage(() => import('../pages/mine/blocked')),
  },
  {
    path: paths.report,
    title: 'report.title',
    page: lazyPage(() => import('../pages/mine/report')),
  },
  {
    path: paths.reports,
    title: 'report.mine',
    page: lazyPage(() => import('../pages/mine/reports')),
  },
  {
    path: paths.doc,
    title: 'routes.doc',
    page: lazyPage(afterLocale(() => import('../pages/mine/doc'))),
  },
  {
    path: paths.contacts,
    title: 'routes.contacts',
    page: home,
  },
  {
    path: paths.chat,
    title: 'routes.chat',
    page: lazyPage(() => import('../pages/message/chat')),
  },
  {
    path: paths.chatDetail,
    title: 'routes.chatDetail',
    page: lazyPage(() => import('../pages/message/detail')),
  },
  {
    path: paths.record,
    title: 'routes.record',
    page: lazyPage(() => import('../pages/message/record')),
  },
  {
    path: paths.forwarded,
    title: 'multiSelect.recordLabel',
    page: lazyPage(() => import('../pages/message/forwarded')),
  },
  {
    path: paths.contactDetail,
    title: 'routes.contactDetail',
    page: lazyPage(() => import('../pages/contacts/detail')),
  },
  {
    path: paths.friend,
    title: 'routes.friend',
    page: lazyPage(() => import('../pages/contacts/friend')),
  },
  {
    path: paths.contactSearch,
    title: 'routes.contactSearch',
    page: lazyPage(() => import('../pages/contacts/search')),
  },
  {
    path: paths.groupList,
    title: 'routes.groupList',
    page: lazyPage(() => import('../pages/contacts/group')),
  },
  {
    path: paths.userSelection,
    title: 'routes.userSelection',
    page: lazyPage(() => import('../pages/index/userSelection')),
  },
  {
    path: paths.search,
    title: 'routes.search',
    page: lazyPage(() => import('../pages/index/search')),
  },
  {
    path: groupPaths.info,
    title: 'group.routes.info',
    page: lazyPage(() => import('../pages/message/group/info')),
  },
  {
    path: groupPaths.members,
    title: 'group.routes.members',
    page: lazyPage(() => import('../pages/message/group/groupUser')),
  },
  {
    path: groupPaths.robots,
    title: 'robots.title',
    page: lazyPage(() => import('../pages/message/group/robots')),
  },
  {
    path: mediaPaths.emoji,
    title: 'media.routes.emoji',
    page: lazyPage(() => import('../pages/message/emoji')),
  },
  {
    path: mediaPaths.video,
    title: 'media.routes.video',
    page: lazyPage(() => import('../pages/message/video')),
  },
  {
    path: mediaPaths.files,
    title: 'media.routes.files',
    page: lazyPage(() => import('../pages/mine/files')),
  },
  {
    path: mediaPaths.favorites,
    title: 'favorite.title',
    page: lazyPage(() => import('../pages/mine/favorites')),
  },
  {
    path: qrPaths.mycode,
    title: 'qr.routes.mycode',
    page: lazyPage(() => import('../pages/index/mycode')),
  },
  {
    path: qrPaths.myqrcode,
    title: 'qr.routes.myqrcode',
    page: lazyPage(() => import('../pages/index/myqrcode')),
  },
  {
    path: qrPaths.qrcode,
    title: 'qr.routes.qrcode',
    page: lazyPage(() => import('../pages/index/qrcode')),
  },
  {
    path: qrPaths.qqrcode,
    title: 'qr.routes.qqrcode',
    page: lazyPage(() => import('../pages/index/qqrcode')),
  },
  {
    path: qrPaths.scan,
    title: 'qr.routes.scan',
    page: lazyPage(() => import('../pages/index/scan')),
  },
  {
    path: qrPaths.qrLogin,
    title: 'qrLogin.routes.confirm',
    page: lazyPage(() => import('../pages/index/qrLogin')),
  },
  {
    path: qrPaths.webLogin,
    title: 'qrLogin.routes.sessions',
    page: lazyPage(() => import('../pages/index/webLogin')),
  },
  {
    path: callPaths.call,
    title: 'routes.call',
    page: lazyPage(() => import('../pages/message/call')),
  },
  {
    path: momentPaths.moments,
    title: 'routes.moments',
    page: lazyPage(() => import('../pages/compass/moments')),
  },
  {
    path: momentPaths.publish,
    title: 'routes.momentsPublish',
    page: lazyPage(() => import('../pages/compass/publish')),
  },
  {
    path: momentPaths.setting,
    title: 'routes.momentsSetting',
    page: lazyPage(() => import('../pages/compass/setting')),
  },
  {
    path: momentPaths.notices,
    title: 'routes.momentsNotices',
    page: lazyPage(() => import('../pages/compass/notices')),
  },
  {
    path: momentPaths.post,
    title: 'routes.momentsPost',
    page: lazyPage(() => import('../pages/compass/post')),
  },
  {
    path: managePaths.console,
    title: 'routes.manage',
    page: lazyPage(() => import('../pages/manage/index')),
  },
];

/** The product's route table (§2), the routes built so far; each page is its own chunk. */
export const appRoutes: readonly AppRoute[] = routes.map((route) => ({
  ...route,
  auth: !publicPaths.includes(route.path),
}));

/** The route serving a pathname; paths match case-insensitively like the router's. */
export function findRoute(pathname: string): AppRoute | undefined {
  const path = routePathOf(pathname);
  return appRoutes.find((r) => r.path === path);
}

// Links below the route table (tabs, the login form) fetch the page they lead to through nav/preload.ts.
setRoutePreloader((path) => {
  void findRoute(path)
    ?.page.preload()
    .catch(() => {
      // A failed preload is retried, with its own error screen, when the page is opened.
    });
});
