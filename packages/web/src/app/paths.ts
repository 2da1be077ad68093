/** Paths of the spec's route table (spec §2) served so far. */
export const paths = {
  entry: '/',
  entryAlias: '/pages/login/index',
  home: '/pages/index/index',
  autoLogin: '/pages/login/autoLogin',
  login: '/pages/login/login',
  register: '/pages/login/register',
  webview: '/pages/mine/webview',
  profile: '/pages/mine/profile',
  secure: '/pages/mine/secure',
  about: '/pages/mine/about',
  setting: '/pages/mine/setting',
  doc: '/pages/mine/doc',
} as const;

/** Routes whose back button goes home instead of one page back (spec §2). */
export const BACK_TO_HOME: readonly string[] = ['/pages/message/chat'];
