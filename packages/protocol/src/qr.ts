/** What a signed QR token names (docs/protocol.md §6): a person or a group. */
export type QrKind = 'user' | 'group';

/** What a Sparrow QR link names: a person's or a group's token, or a desktop waiting to be signed in (扫码登录). */
export type QrLinkKind = QrKind | 'login';

/**
 * The in-app page a scanned code opens (docs/product.md §2): 用户分享 for a person, 群分享 for a group,
 * 网页端登录 (confirming a desktop's sign-in) for a login code.
 */
export const QR_LANDING = {
  user: '/pages/index/myqrcode',
  group: '/pages/index/qqrcode',
  login: '/pages/index/qrLogin',
} as const satisfies Record<QrLinkKind, string>;

/** A person's code resolved for a Raingad client (`/scan/u/…`): it opens their profile by `id`. */
export interface ScannedUser extends UserPreview {
  id: number;
  action: 'userInfo';
}

/** A person as their scanned code shows them (userInfoqq). */
export interface UserPreview {
  user_id: number;
  /** My remark for them when we are friends, else their name. */
  displayName: string;
  avatar: string;
  motto: string;
  is_friend: 0 | 1;
}
