import { MOMENTS_PAGE, QR_LANDING, type ReportKind } from '@sparrow/protocol';

/*
 * The path table: every path of the product's route table (docs/product.md §2) served so far, by
 * area, and the links to them. app/routes.ts gives each path its page.
 */

/** The entry, login, home, contacts, chat, search and settings pages. */
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
  /** 登录设备: my signed-in devices, each to sign out (Settings → 账号与安全). */
  devices: '/pages/mine/devices',
  /** 两步验证: the authenticator app and recovery codes (Settings → 账号与安全). */
  twoStep: '/pages/mine/twoStep',
  /** 通行密钥: my passkeys, added, renamed and removed (Settings → 账号与安全). */
  passkeys: '/pages/mine/passkeys',
  /** 访问令牌: my personal access tokens for scripts and tools (Settings → 开发者). */
  tokens: '/pages/mine/tokens',
  /** 机器人: my bot accounts; with `bot` one bot's page, with `add=1` making one (Settings → 开发者). */
  bots: '/pages/mine/bots',
  about: '/pages/mine/about',
  setting: '/pages/mine/setting',
  /** 状态: my status text, emoji and when it ends (Me → 状态). */
  status: '/pages/mine/status',
  /** 通讯录黑名单: the people I blocked (Settings → 隐私). */
  blocked: '/pages/mine/blocked',
  /** 投诉: reporting a person, message, group or post, `kind` and `id` naming it. */
  report: '/pages/mine/report',
  /** 我的投诉: my reports and where each stands, and warnings I was given. */
  reports: '/pages/mine/reports',
  doc: '/pages/mine/doc',
  contacts: '/pages/contacts/index',
  chat: '/pages/message/chat',
  chatDetail: '/pages/message/detail',
  record: '/pages/message/record',
  /** A merged forward's messages (合并转发), read-only: `msg_id` the record's message, `record_id` a record inside it. */
  forwarded: '/pages/message/forwarded',
  contactDetail: '/pages/contacts/detail',
  friend: '/pages/contacts/friend',
  contactSearch: '/pages/contacts/search',
  groupList: '/pages/contacts/group',
  userSelection: '/pages/index/userSelection',
  search: '/pages/index/search',
} as const;

/** The group pages. */
export const groupPaths = {
  info: '/pages/message/group/info',
  members: '/pages/message/group/groupUser',
  /** 群机器人: a group's robots; with `robot` one robot's page (its webhook), with `add=1` adding one. */
  robots: '/pages/message/group/robots',
} as const;

/** The media pages: two of the route table and file management (docs/product.md §2 texts). */
export const mediaPaths = {
  emoji: '/pages/message/emoji',
  video: '/pages/message/video',
  files: '/pages/mine/files',
  /** 收藏: my favourites. */
  favorites: '/pages/mine/favorites',
} as const;

/** The moments pages (§2 `/pages/compass/*`). */
export const momentPaths = {
  /** 朋友圈: the feed, or with `user_id` a person's album. */
  moments: MOMENTS_PAGE,
  /** 发表动态 */
  publish: '/pages/compass/publish',
  /** 朋友圈设置: whom my posts are hidden from, whose I skip, how far back friends read mine. */
  setting: '/pages/compass/setting',
  /** 消息: likes and comments on my posts and replies to my comments. */
  notices: '/pages/compass/notices',
  /** 详情: one post, with `id`. */
  post: '/pages/compass/post',
} as const;

/** The QR pages. */
export const qrPaths = {
  /** 我的二维码 */
  mycode: '/pages/index/mycode',
  /** 用户分享: where a person's code lands. */
  myqrcode: QR_LANDING.user,
  /** 群二维码 */
  qrcode: '/pages/index/qrcode',
  /** 群分享: where a group's code lands. */
  qqrcode: QR_LANDING.group,
  /** 扫一扫 */
  scan: '/pages/index/scan',
  /** 网页端登录: where a desktop's login code lands, to confirm its sign-in (扫码登录). */
  qrLogin: QR_LANDING.login,
  /** 网页端已登录: the web sessions this account let in by QR login, each to sign out. */
  webLogin: '/pages/index/webLogin',
} as const;

/** The call page. */
export const callPaths = {
  call: '/pages/message/call',
} as const;

/** The administration console (Raingad's `#/manage/*`), for users whose role is admin. */
export const managePaths = {
  /** 管理后台: the dashboard, or with `tab` one area of it (its tabs: pages/manage/tabs.ts). */
  console: '/manage/index',
} as const;

/** Every path of the table; app/routes.ts serves each of them and no other. */
export const routePaths: readonly string[] = [
  paths,
  groupPaths,
  mediaPaths,
  momentPaths,
  qrPaths,
  callPaths,
  managePaths,
].flatMap((area) => Object.values(area));

/** The pages a visitor without a session may open; every other path of the table needs one. */
export const publicPaths: readonly string[] = [
  paths.entry,
  paths.entryAlias,
  paths.autoLogin,
  paths.login,
  paths.register,
  paths.webview,
  paths.about,
  paths.doc,
];

/** The path of the table serving a pathname; paths match case-insensitively like the router's. */
export function routePathOf(pathname: string): string | undefined {
  const p = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return routePaths.find((path) => path.toLowerCase() === p);
}

/** Routes whose back button goes home instead of one page back (docs/product.md §2). */
export const BACK_TO_HOME: readonly string[] = [paths.chat];

/** A path with its query, e.g. `withQuery(paths.chat, {id: 'group-3'})`. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The chat of a contact key (`5`, `group-3`, `-1`). */
export const chatPath = (key: string) => withQuery(paths.chat, { id: key });

/** A group page for a group id (`group-3`), with more query values when given. */
export function groupPath(page: keyof typeof groupPaths, groupId: string, more: Record<string, string> = {}): string {
  const q = new URLSearchParams({ id: groupId, ...more });
  return `${groupPaths[page]}?${q.toString()}`;
}

/** The code page of a group (`group-3`). */
export const groupCodePath = (groupId: string) => withQuery(qrPaths.qrcode, { id: groupId });

/** The video player for a video message. */
export function videoPath(src: string, poster?: string): string {
  return withQuery(mediaPaths.video, { src, poster });
}

/** My stickers; with a conversation, tapping one sends it there. */
export function emojiPath(chatKey?: string): string {
  return withQuery(mediaPaths.emoji, { id: chatKey });
}

/** File management, optionally opened on the files of one conversation. */
export function filesPath(query: { tab?: 'sent' | 'received' } = {}): string {
  return withQuery(mediaPaths.files, query);
}

/** The report page for something: a person (user id), a message (msg_id), a group (`group-3`), a post. */
export const reportPath = (kind: ReportKind, id: number | string) => withQuery(paths.report, { kind, id });

/** A person's album: their posts I may see. */
export const albumPath = (userId: number) => withQuery(momentPaths.moments, { user_id: userId });

/** One post, as a notice opens it. */
export const postPath = (postId: number) => withQuery(momentPaths.post, { id: postId });

/**
 * The call page's query (docs/product.md §2): `msg_id` the call's UUID, `type` 1 video / 0 audio, `status`
 * 1 placing the call / 3 ringing me, `id` `name` `avatar` the other person.
 */
export interface CallQuery {
  msg_id: string;
  type: 0 | 1;
  status: 1 | 3;
  id: number;
  name: string;
  avatar: string;
}

export function callPath(q: CallQuery): string {
  return withQuery(callPaths.call, { ...q });
}
