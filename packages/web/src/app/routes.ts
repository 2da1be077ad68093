import type { MessageKey } from '../i18n/keys';
import { callPaths } from './call-paths';
import { lazyPage, type LazyPage } from './lazy-page';
import { groupPaths } from './group-paths';
import { managePaths } from './manage-paths';
import { mediaPaths } from './media-paths';
import { momentPaths } from './moment-paths';
import { paths } from './paths';
import { qrPaths } from './qr-paths';

export interface AppRoute {
  path: string;
  /** The route's title (docs/product.md §2), translated. */
  title: MessageKey;
  page: LazyPage;
  /** Needs a signed-in user. */
  auth: boolean;
}

const loginEntry = lazyPage(() => import('../pages/login/index'));
const home = lazyPage(() => import('../pages/index/index'));

/** The product's route table (§2), the routes built so far; each page is its own chunk. */
export const appRoutes: readonly AppRoute[] = [
  { path: paths.entry, title: 'routes.login', page: loginEntry, auth: false },
  { path: paths.entryAlias, title: 'routes.login', page: loginEntry, auth: false },
  {
    path: paths.home,
    title: 'routes.home',
    page: home,
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
  {
    path: paths.contacts,
    title: 'routes.contacts',
    page: home,
    auth: true,
  },
  {
    path: paths.chat,
    title: 'routes.chat',
    page: lazyPage(() => import('../pages/message/chat')),
    auth: true,
  },
  {
    path: paths.chatDetail,
    title: 'routes.chatDetail',
    page: lazyPage(() => import('../pages/message/detail')),
    auth: true,
  },
  {
    path: paths.record,
    title: 'routes.record',
    page: lazyPage(() => import('../pages/message/record')),
    auth: true,
  },
  {
    path: paths.contactDetail,
    title: 'routes.contactDetail',
    page: lazyPage(() => import('../pages/contacts/detail')),
    auth: true,
  },
  {
    path: paths.friend,
    title: 'routes.friend',
    page: lazyPage(() => import('../pages/contacts/friend')),
    auth: true,
  },
  {
    path: paths.contactSearch,
    title: 'routes.contactSearch',
    page: lazyPage(() => import('../pages/contacts/search')),
    auth: true,
  },
  {
    path: paths.groupList,
    title: 'routes.groupList',
    page: lazyPage(() => import('../pages/contacts/group')),
    auth: true,
  },
  {
    path: paths.userSelection,
    title: 'routes.userSelection',
    page: lazyPage(() => import('../pages/index/userSelection')),
    auth: true,
  },
  {
    path: paths.search,
    title: 'routes.search',
    page: lazyPage(() => import('../pages/index/search')),
    auth: true,
  },
  {
    path: groupPaths.info,
    title: 'group.routes.info',
    page: lazyPage(() => import('../pages/message/group/info')),
    auth: true,
  },
  {
    path: groupPaths.members,
    title: 'group.routes.members',
    page: lazyPage(() => import('../pages/message/group/groupUser')),
    auth: true,
  },
  {
    path: mediaPaths.emoji,
    title: 'media.routes.emoji',
    page: lazyPage(() => import('../pages/message/emoji')),
    auth: true,
  },
  {
    path: mediaPaths.video,
    title: 'media.routes.video',
    page: lazyPage(() => import('../pages/message/video')),
    auth: true,
  },
  {
    path: mediaPaths.files,
    title: 'media.routes.files',
    page: lazyPage(() => import('../pages/mine/files')),
    auth: true,
  },
  {
    path: qrPaths.mycode,
    title: 'qr.routes.mycode',
    page: lazyPage(() => import('../pages/index/mycode')),
    auth: true,
  },
  {
    path: qrPaths.myqrcode,
    title: 'qr.routes.myqrcode',
    page: lazyPage(() => import('../pages/index/myqrcode')),
    auth: true,
  },
  {
    path: qrPaths.qrcode,
    title: 'qr.routes.qrcode',
    page: lazyPage(() => import('../pages/index/qrcode')),
    auth: true,
  },
  {
    path: qrPaths.qqrcode,
    title: 'qr.routes.qqrcode',
    page: lazyPage(() => import('../pages/index/qqrcode')),
    auth: true,
  },
  {
    path: qrPaths.scan,
    title: 'qr.routes.scan',
    page: lazyPage(() => import('../pages/index/scan')),
    auth: true,
  },
  {
    path: callPaths.call,
    title: 'routes.call',
    page: lazyPage(() => import('../pages/message/call')),
    auth: true,
  },
  {
    path: momentPaths.moments,
    title: 'routes.moments',
    page: lazyPage(() => import('../pages/compass/moments')),
    auth: true,
  },
  {
    path: momentPaths.publish,
    title: 'routes.momentsPublish',
    page: lazyPage(() => import('../pages/compass/publish')),
    auth: true,
  },
  {
    path: momentPaths.setting,
    title: 'routes.momentsSetting',
    page: lazyPage(() => import('../pages/compass/setting')),
    auth: true,
  },
  {
    path: momentPaths.notices,
    title: 'routes.momentsNotices',
    page: lazyPage(() => import('../pages/compass/notices')),
    auth: true,
  },
  {
    path: momentPaths.post,
    title: 'routes.momentsPost',
    page: lazyPage(() => import('../pages/compass/post')),
    auth: true,
  },
  {
    path: managePaths.console,
    title: 'routes.manage',
    page: lazyPage(() => import('../pages/manage/index')),
    auth: true,
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
