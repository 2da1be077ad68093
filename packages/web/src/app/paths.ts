/** Paths of the product's route table (docs/product.md §2) served so far. */
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
  contacts: '/pages/contacts/index',
  chat: '/pages/message/chat',
  chatDetail: '/pages/message/detail',
  record: '/pages/message/record',
  contactDetail: '/pages/contacts/detail',
  friend: '/pages/contacts/friend',
  contactSearch: '/pages/contacts/search',
  groupList: '/pages/contacts/group',
  userSelection: '/pages/index/userSelection',
  search: '/pages/index/search',
} as const;

/** A path with its query, e.g. `withQuery(paths.chat, {id: 'group-3'})`. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The chat of a contact key (`5`, `group-3`, `-1`). */
export const chatPath = (key: string) => withQuery(paths.chat, { id: key });

/** Routes whose back button goes home instead of one page back (docs/product.md §2). */
export const BACK_TO_HOME: readonly string[] = ['/pages/message/chat'];
